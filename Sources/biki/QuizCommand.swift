import BikiCLI
import BikiCore
import BikiHost
import BikiPacks
import BikiPractice
import BikiSpeech
import Foundation

/// `biki quiz [TOPIC] [--mode …] [--skill …] [--seed N] [--speak] [--param k=v]`: the main job.
enum QuizCommand {
  static let usage =
    "biki quiz [<topic>|--all] [--mode infinite|questions=<n>|time=<seconds>|review[=<n>]] [--missed [--since <days>]] [--strict] [--skill listening|reading|kana|counter] [--seed <n>] [--speak [--rate <rate>] [--pitch <semitones>]] [--param <name>=<value> ...] [--packs <dir>] [--plugins <dir>] [--in-process]"
  static let helpCommand = "biki quiz --help"

  static let help = """
    OVERVIEW: Drill a topic: answer questions, see what you missed.

    Without <topic>, offers a choice. Type an answer and press return; a wrong answer can be
    tried again. Type 'skip' to see the answer and move on, 'quit' to finish, or just press
    return to see (or hear) the question again. When input is not a terminal, it reads one
    answer per line, so a quiz can be scripted.

    USAGE: \(usage)

    ARGUMENTS:
      <topic>                 A topic id from 'biki topics', e.g. counters.hon or numbers.custom.

    OPTIONS:
      --mode <mode>           infinite, questions=<n> (default questions=10), time=<seconds>, or
                              review[=<n>] (default 20): the forms you are due to review first
                              (8本 はっぽん, 300 さんびゃく, 20日 はつか), then the weak ones, then
                              new ones, from <topic> or, with --all or no topic, every topic.
      --all                   A mixed quiz over every topic: the forms due for review first,
                              then the weak ones, then new ones (as --mode review), as many
                              questions as --mode questions=<n> or review=<n> asks (default
                              10). 'biki today' is 'biki quiz --mode review --all'.
      --missed                Ask again the questions you missed (answered wrong or skipped)
                              in your last quiz, from <topic> or every topic, in rounds: each
                              round asks again what the one before missed, until every
                              question is right at the first try.
      --since <days>          With --missed: what you missed in the last <days> days instead.
      --strict                Refuse readings Biki accepts but marks uncommon (じっぷん, where
                              the usual reading is じゅっぷん; しちにん beside ななにん).
                              Without it they count as right, with the usual reading named.
      --skill <skill>         reading: see kanji, type the number (default when offered);
                              listening: hear the reading, type the number;
                              kana: see the number, type its reading in kana;
                              counter: see a thing and how many (鉛筆 × 5), type the count
                              with the counter it takes (5本 or ごほん).
      --seed <n>              Replay exactly the same questions.
      --speak                 Read questions aloud: with Open JTalk when it and a voice are
                              installed, else espeak-ng's Japanese voice.
      --voice <name>          The voice to speak with: a name 'biki say --voices' lists, or an
                              Open JTalk .htsvoice file (or BIKI_VOICE).
    \(SpeechOptions.help)
      --param <name>=<value>  Set a topic parameter, e.g. --param max=500 (repeatable).
      --packs <dir>           Also load packs from this directory (repeatable).
      --plugins <dir>         Also load plugins from this directory (repeatable).
      --in-process            Load plugins into this process instead of worker processes.
      -h, --help              Show help information.
    """

  struct Options {
    var topic: String?
    var mode: Session.Mode = .questionLimit(10)
    var skill: Skill?
    var seed: UInt64?
    var speak = false
    var voice: String?
    var parameters: [String: Int64] = [:]
    var packs: [String] = []
    var plugins: [String] = []
    var inProcess = false
    /// Review this many questions, chosen by what is due, instead of drilling a topic in order.
    var review: Int?
    var all = false
    /// Ask again what was missed in the last session, or in the last `sinceDays` days.
    var missed = false
    var sinceDays: Double?
    /// Refuse readings accepted but uncommon.
    var strict = false
    /// How fast and how high `--speak` speaks.
    var style = SpeechStyle.normal
  }

  enum Parsed {
    case success(Options)
    case failure(CommandOutcome)
  }

  static let options: [ParsedArguments.Option] =
    [
      .value("--mode", "<mode>"), .value("--skill", "<skill>"), .value("--seed", "<n>"), .flag("--speak"),
      .value("--voice", "<name>"),
      .value("--param", "<name>=<value>"),
      .value("--packs", "<dir>"), .value("--plugins", "<dir>"), .flag("--in-process"), .flag("--all"),
      .flag("--missed"),
      .value("--since", "<days>"), .flag("--strict"),
    ] + SpeechOptions.options

  /// `variables` are the environment's, for the speech style a learner keeps there.
  static func parse(_ arguments: [String], variables: [String: String]) -> Parsed {
    let parsed: ParsedArguments
    switch CommandOutcome.parse(arguments, options: options, help: help, usage: usage, helpCommand: helpCommand) {
    case .success(let found): parsed = found
    case .failure(let failure): return .failure(failure.outcome)
    }
    var options = Options()
    guard parsed.positionals.count <= 1 else { return .failure(usageError("Give one topic at a time.")) }
    options.topic = parsed.positionals.first
    options.speak = parsed.isSet("--speak")
    options.voice = parsed.value("--voice")
    options.inProcess = parsed.isSet("--in-process")
    options.packs = parsed.values("--packs")
    options.plugins = parsed.values("--plugins")
    options.all = parsed.isSet("--all")
    if let text = parsed.value("--mode") {
      if text == "review" || text.hasPrefix("review=") {
        guard let count = text == "review" ? 20 : Int(text.dropFirst(7)), (1...1000).contains(count) else {
          return .failure(usageError("'--mode review=<n>' takes a count from 1 to 1000."))
        }
        options.review = count
      } else {
        guard let mode = parseMode(text) else {
          return .failure(
            usageError("'--mode' takes infinite, questions=<n> (n ≥ 1), time=<seconds> (> 0) or review[=<n>]."))
        }
        options.mode = mode
      }
    }
    if options.all {
      guard options.topic == nil else { return .failure(usageError("Give a topic or '--all', not both.")) }
      // A mixed quiz is a review of every topic, as long as the mode asks.
      if options.review == nil {
        guard case .questionLimit(let count) = options.mode, count <= 1000 else {
          return .failure(
            usageError("'--all' asks a set of questions: --mode questions=<n> (at most 1000) or review=<n>."))
        }
        options.review = count
      }
    }
    options.missed = parsed.isSet("--missed")
    options.strict = parsed.isSet("--strict")
    if !options.speak, parsed.isSet("--rate") || parsed.isSet("--pitch") {
      return .failure(usageError("'--rate' and '--pitch' go with '--speak'."))
    }
    if options.speak {
      switch SpeechOptions.style(parsed, environment: variables) {
      case .success(let style): options.style = style
      case .failure(let failure): return .failure(usageError(failure.message))
      }
    }
    if let text = parsed.value("--since") {
      guard options.missed else { return .failure(usageError("'--since' goes with '--missed'.")) }
      guard let days = Double(text), days > 0, days <= 3_650 else {
        return .failure(usageError("'--since' takes a number of days, more than 0 and at most 3650."))
      }
      options.sinceDays = days
    }
    if options.missed, parsed.isSet("--mode") || parsed.isSet("--all") {
      return .failure(usageError("'--missed' sets its own questions; leave out '--mode' and '--all'."))
    }
    if let text = parsed.value("--skill") {
      guard let skill = Skill(rawValue: text) else {
        let hint = Suggestion.didYouMean(text, among: Skill.allCases.map(\.rawValue))
        return .failure(
          usageError("The value '\(text)' is invalid for '--skill'.\(hint) Use listening, reading, kana or counter."))
      }
      options.skill = skill
    }
    if let text = parsed.value("--seed") {
      guard let seed = UInt64(text) else {
        return .failure(usageError("'--seed' takes a whole number from 0 to 2^64−1."))
      }
      options.seed = seed
    }
    for pair in parsed.values("--param") {
      guard let equals = pair.firstIndex(of: "="), let number = Int64(pair[pair.index(after: equals)...]) else {
        return .failure(usageError("'--param' takes <name>=<whole number>, as in --param max=500."))
      }
      options.parameters[String(pair[..<equals])] = number
    }
    return .success(options)
  }

  static func parseMode(_ text: String) -> Session.Mode? {
    if text == "infinite" { return .infinite }
    if text.hasPrefix("questions="), let count = Int(text.dropFirst(10)), count >= 1 { return .questionLimit(count) }
    if text.hasPrefix("time="), let seconds = Double(text.dropFirst(5)), seconds > 0, seconds.isFinite {
      return .timeLimit(seconds: seconds)
    }
    return nil
  }

  static func usageError(_ message: String) -> CommandOutcome {
    CommandOutcome.usageError(message, usage: usage, helpCommand: helpCommand)
  }

  static func run(arguments: [String], environment: BikiEnvironment) -> CommandOutcome {
    let options: Options
    switch parse(arguments, variables: environment.variables) {
    case .success(let parsed): options = parsed
    case .failure(let outcome): return outcome
    }
    let console = environment.console
    // The scheduler is fitted again, if due, while the learner answers.
    let refit = BackgroundRefit(environment.history, wallClock: environment.wallClock)
    refit.start()
    defer { refit.wait() }
    let registry = environment.loadTopics(
      packDirectories: options.packs, pluginDirectories: options.plugins, inProcess: options.inProcess)
    SourceProblems.summary(registry).forEach(console.writeError)
    let topics = registry.topics
    guard !topics.isEmpty else {
      return CommandOutcome(
        standardError: ["Error: no topics are loaded. Check your packs with 'biki-pack lint'."],
        status: ExitStatus.failure)
    }
    if let count = options.review { return review(count, options: options, topics: topics, environment: environment) }
    if options.missed { return missed(options: options, topics: topics, environment: environment) }
    let chosen: RegisteredTopic
    if let name = options.topic {
      switch across(name, in: topics) {
      case .success(let found):
        chosen = found[0]
        if found[0].topic.id != name, !found[0].topic.id.hasSuffix("." + name) {
          console.write(TerminalText.safe("The one topic matching “\(name)”: \(found[0].topic.id)."))
        }
      case .failure(let unknown):
        return CommandOutcome(
          standardError: unknown.outcome.standardError + SourceProblems.unbuiltSamples(environment),
          status: unknown.outcome.status)
      }
    } else {
      SourceProblems.unbuiltSamples(environment).forEach(console.writeError)
      // Stopping at the menu (Enter, q, the end of input) is the learner's choice, not an error.
      guard let picked = choose(from: topics, console: console) else { return CommandOutcome() }
      chosen = picked
    }
    let generator: QuestionGenerator
    do {
      generator = try chosen.generator(parameters: options.parameters)
    } catch {
      return CommandOutcome(standardError: [TerminalText.safe("Error: \(error)")], status: ExitStatus.usage)
    }
    let skill = options.skill ?? (chosen.topic.skills.contains(.reading) ? .reading : chosen.topic.skills[0])
    let seed = options.seed ?? environment.seeds.next()
    var quiz = QuizLoop(environment: environment, speaker: speaker(options, environment: environment))
    quiz.watched = [chosen]
    return quiz.run(generator: generator, skill: skill, mode: options.mode, seed: seed, strict: options.strict)
  }

  /// A review: the forms due first, then the weak, then new ones, from one topic or all.
  static func review(_ count: Int, options: Options, topics: [RegisteredTopic], environment: BikiEnvironment)
    -> CommandOutcome
  {
    let candidates: [RegisteredTopic]
    switch across(options.topic, in: topics) {
    case .success(let found): candidates = found
    case .failure(let outcome): return outcome.outcome
    }
    let generators = candidates.compactMap {
      try? $0.generator(parameters: options.topic == nil ? [:] : options.parameters)
    }
    let skill = options.skill ?? .kana
    let seed = options.seed ?? environment.seeds.next()
    let (summary, warnings) = environment.history.summary()
    for warning in warnings { environment.console.writeError(TerminalText.safe("Warning: \(warning)")) }
    let plan = ReviewPlan.make(
      summary: summary, skill: skill, generators: generators, now: environment.wallClock(), seed: seed, count: count)
    let title = options.topic == nil ? "Review of every topic" : "Review of \(candidates[0].topic.title)"
    let topic = Topic(id: "review", title: title, category: .number, skills: [skill])
    guard let generator = plan.generator(topic: topic, generators: generators) else {
      return CommandOutcome(
        standardError: ["Error: nothing to review with the \(skill.rawValue) skill."], status: ExitStatus.unavailable)
    }
    let due = plan.picks.filter { $0.reason == .due }.count
    let weak = plan.picks.filter { $0.reason == .weak }.count
    let new = plan.picks.filter { $0.reason == .new }.count
    environment.console.write("\(plan.picks.count) questions: \(due) due, \(weak) weak, \(new) new forms.")
    var quiz = QuizLoop(environment: environment, speaker: speaker(options, environment: environment))
    quiz.watched = candidates.filter(\.callsPlugin)
    return quiz.run(
      generator: generator, skill: skill, mode: .questionLimit(plan.picks.count), seed: seed, strict: options.strict)
  }

  /// The speaker `--speak` asks for, after saying which engine speaks; nil without `--speak`.
  static func speaker(_ options: Options, environment: BikiEnvironment) -> Speaker? {
    guard options.speak else { return nil }
    let speaker = environment.speaker(voice: options.voice, style: options.style)
    RunningGroups.endWithThisProcess()
    if case .none = speaker.engine {
      // Said once; the questions are then shown as without --speak.
      environment.console.writeError(TerminalText.safe("Warning: \(speaker.engine.summary)"))
      return nil
    }
    environment.console.write(TerminalText.safe(speaker.engine.summary))
    // Tried before the first question, so a learner over SSH or in a container is told at once
    // rather than left listening to nothing.
    if let failure = speaker.checkPlayback() {
      environment.console.writeError(
        TerminalText.safe("Warning: no sound: \(failure). The questions are shown instead."))
      return nil
    }
    return speaker
  }

  struct UnknownTopic: Error {
    var outcome: CommandOutcome
  }

  /// The topic named, or (nil) every topic: what a review or a missed drill draws on. A name
  /// that is no id is looked for as the menu looks for words (in ids, titles, kinds and
  /// descriptions): one match is taken; several are listed.
  static func across(_ name: String?, in topics: [RegisteredTopic]) -> Result<[RegisteredTopic], UnknownTopic> {
    guard let name else { return .success(topics) }
    if let found = find(name, in: topics) { return .success([found]) }
    let matching = TopicMenu.matching(name, in: topics.map(TopicMenu.Entry.init))
    if matching.count == 1 { return .success([topics[matching[0]]]) }
    let said: String
    if matching.isEmpty {
      said = "Error: no topic '\(name)'.\(Suggestion.didYouMean(name, among: topics.map(\.topic.id)))"
    } else {
      let listed = matching.prefix(8).map { topics[$0].topic.id }.joined(separator: ", ")
      said =
        "Error: '\(name)' matches \(matching.count) topics: \(listed)\(matching.count > 8 ? ", …" : ""). Give one of their ids."
    }
    return .failure(
      UnknownTopic(
        outcome: CommandOutcome(
          standardError: [TerminalText.safe("\(said) Run 'biki topics' to list them.")], status: ExitStatus.usage)))
  }

  /// By full id, or by the part after the pack id when that is unique (`hon` → counters.hon).
  static func find(_ name: String, in topics: [RegisteredTopic]) -> RegisteredTopic? {
    if let exact = topics.first(where: { $0.topic.id == name }) { return exact }
    let suffixed = topics.filter { $0.topic.id.hasSuffix("." + name) }
    return suffixed.count == 1 ? suffixed[0] : nil
  }

  /// The topic menu (`TopicMenu`), as long as lines come.
  static func choose(from topics: [RegisteredTopic], console: Console) -> RegisteredTopic? {
    var menu = TopicMenu(
      entries: topics.map(TopicMenu.Entry.init),
      rows: console.isInteractive ? console.size()?.rows : nil, columns: console.size()?.columns ?? 80)
    menu.start().forEach(console.write)
    while let line = console.readLine() {
      switch menu.answer(line) {
      case .show(let lines): lines.forEach(console.write)
      case .chosen(let index): return topics[index]
      case .cancelled: return nil
      }
    }
    return nil
  }
}
