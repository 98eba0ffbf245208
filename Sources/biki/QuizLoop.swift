import BikiCLI
import BikiCore
import BikiHost
import BikiJapanese
import BikiPlugins
import BikiPractice
import BikiSpeech
import Foundation

/// Runs a session in the terminal: presents questions, feeds the learner's lines to the
/// session reducer, and prints what the reducer decided.
struct QuizLoop {
  let environment: BikiEnvironment
  /// Says questions aloud (`--speak`); nil to stay silent.
  var speaker: Speaker?
  private var speechProblemShown = false
  private var historyProblemShown = false
  /// The topics the quiz draws on: when a plugin behind one is quarantined on the way, the
  /// learner is told, once per plugin.
  var watched: [RegisteredTopic] = []
  /// The plugins the learner has been told are quarantined, by library path.
  private var quarantinesShown: [String: PluginError] = [:]

  init(environment: BikiEnvironment, speaker: Speaker?) {
    self.environment = environment
    self.speaker = speaker
  }

  mutating func run(generator: QuestionGenerator, skill: Skill, mode: Session.Mode, seed: UInt64, strict: Bool = false)
    -> CommandOutcome
  {
    let console = environment.console
    // Audio still being made ahead is not wanted once the quiz ends.
    defer { speaker?.stop() }
    var runner: SessionRunner
    var effects: [Session.Effect]
    do {
      (runner, effects) = try SessionRunner.start(
        generator: generator, skill: skill, mode: mode, seed: seed, strict: strict,
        dependencies: Session.Dependencies(now: environment.now))
    } catch {
      if case .generationFailed(let failure) = error {
        if let stopped = tellOfQuarantines() {
          return CommandOutcome(
            standardError: [TerminalText.safe("Error: no question could be made: \(stopped)")],
            status: ExitStatus.unavailable)
        }
        return CommandOutcome(
          standardError: [TerminalText.safe("Error: no question could be made: \(failure.reason)")],
          status: ExitStatus.unavailable)
      }
      return CommandOutcome(standardError: [TerminalText.safe("Error: \(error)")], status: ExitStatus.usage)
    }
    console.write(TerminalText.safe("\(generator.topic.title) — \(describe(skill)), \(describe(mode)). Seed \(seed)."))
    console.write("Type your answer; 'skip' shows the answer, 'quit' ends, an empty line repeats the question.")
    while true {
      let state = runner.state
      _ = tellOfQuarantines()
      for effect in effects {
        switch effect {
        case .recorded(let record): keep(record)
        case .questionNeeded: break  // made by the runner
        case .questionSkipped(let error):
          // Said, so a learner whose question vanished knows why the next one came instead.
          console.writeError(TerminalText.safe("Warning: a question could not be made, so the next is asked: \(error)"))
        case .questionPresented(let question):
          present(question, state: state)
          prepareNext(after: runner.state, generator: generator)
        case .sessionFinished(let summary):
          printSummary(summary, skill: skill)
          // Questions that failed cost only themselves; a topic that keeps failing ends the quiz.
          if case .generationFailed(let why) = summary.endReason {
            let reason = quarantinesShown.isEmpty ? why : quarantineReason
            return CommandOutcome(
              standardError: [
                TerminalText.safe("Error: the quiz stopped because its questions could not be made: \(reason)")
              ], status: ExitStatus.unavailable)
          }
          return CommandOutcome()
        }
      }
      effects = runner.send(.clockTicked)
      if !effects.isEmpty { continue }
      // Romaji typed for a reading is shown as the kana it spells, as it is typed.
      let spellsKana = state.skill == .kana || state.skill == .counter
      guard let line = console.readLine(preview: spellsKana ? Self.kanaPreview : nil) else {
        effects = runner.send(.endRequested)
        continue
      }
      let input = line.trimmingCharacters(in: .whitespaces)
      switch input.lowercased() {
      case "":
        if let question = state.current { present(question, state: state) }
        effects = []
        continue
      case "quit", ":q", "exit":
        effects = runner.send(.endRequested)
        continue
      case "skip", ":s", "?":
        effects = runner.send(.skipRequested)
      default:
        effects = runner.send(.answerSubmitted(input))
      }
      // An answer after the time limit ends the session without a verdict.
      guard !runner.state.isFinished || [.questionLimitReached, .allRight].contains(runner.state.endReason) else {
        continue
      }
      switch runner.state.feedback {
      case .correct(let matched, let standard?, true, let readAs)?:
        console.write(
          TerminalText.safe(
            "✓ Accepted\(readAs.map { " (\($0))" } ?? ""), though uncommon: the usual reading is \(standard)"))
        teach(runner.state, matched: matched)
      case .correct(let matched, let standard, _, let readAs)?:
        // Romaji is shown back as the kana it was read as.
        let heard = readAs.map { " (\($0))" } ?? ""
        console.write(
          TerminalText.safe(standard.map { "✓ Correct\(heard) (usually said \($0))" } ?? "✓ Correct\(heard)"))
        teach(runner.state, matched: matched)
      case .unread(let hint)?:
        console.write(TerminalText.safe("? \(hint) Not counted; try again."))
      case .incorrect(_, let hint)?:
        console.write(
          "✗ Not quite. " + (hint.map { TerminalText.safe($0) + " " } ?? "")
            + "Try again, or type 'skip' to see the answer.")
      case .skipped?:
        guard let closed = runner.state.results.last else { break }
        console.write(TerminalText.safe("→ The answer: \(Self.answer(closed.question, skill: runner.state.skill))"))
        teach(runner.state, matched: nil)
      case nil: break
      }
    }
  }

  /// Tells the learner, in plain words and once per plugin, of each plugin behind the quiz's
  /// topics that was quarantined since the last look: the quiz goes on with the other topics,
  /// or ends when there are none. Returns why questions stopped when one was newly told.
  private mutating func tellOfQuarantines() -> String? {
    var told = false
    for topic in watched where quarantinesShown[topic.source] == nil {
      guard let failure = topic.quarantine() else { continue }
      quarantinesShown[topic.source] = failure
      told = true
      let name = topic.source.split(separator: "/").last.map(String.init) ?? topic.source
      environment.console.write(
        TerminalText.safe(
          "⚠ The plugin \(name), which makes the questions of \(topic.topic.title), failed \(IsolatedPlugin.quarantineAfter) times in a row, so Biki has quarantined it: it will not be asked for more questions in this quiz. The last failure: \(failure.reason)"
        ))
    }
    return told ? quarantineReason : nil
  }

  /// Why questions stopped, when plugins were quarantined: which, and the failure that settled it.
  private var quarantineReason: String {
    quarantinesShown.sorted { $0.key < $1.key }.map { path, failure in
      "the plugin \(path) was quarantined after \(IsolatedPlugin.quarantineAfter) failures in a row, the last: \(failure.reason)"
    }.joined(separator: "; ")
  }

  /// Keeps what the session recorded in the history, as `biki serve` does, so `biki stats`
  /// counts terminal practice too. A history that cannot be written is said once; the quiz
  /// goes on.
  private mutating func keep(_ record: Session.Record) {
    do {
      try environment.history.record(record, at: environment.wallClock())
    } catch {
      if !historyProblemShown {
        historyProblemShown = true
        environment.console.writeError(TerminalText.safe("Warning: \(error); this quiz is not recorded."))
      }
    }
  }

  private mutating func present(_ question: Question, state: Session.State) {
    let console = environment.console
    let prompt = question.prompt(for: state.skill)
    let progress = progressText(state)
    switch state.skill {
    case .listening where speaker != nil:
      console.write("\(progress)🔊 (listen; empty line to hear it again)")
      if let problem = say(question) {
        tell(problem)
        console.write(TerminalText.safe("   \(prompt)"))
      }
    default:
      let hintsPrefix = !question.answer.prefix.isEmpty && (state.skill == .listening || state.skill == .reading)
      console.write(TerminalText.safe("\(progress)\(prompt)" + (hintsPrefix ? "  (\(question.answer.prefix)…)" : "")))
      // Heard with the kanji it reads; for the kana skill the reading is the answer, and for
      // the counter skill the count with its counter is.
      if state.skill == .reading, let problem = say(question) { tell(problem) }
    }
  }

  /// Says once why a question could not be heard. When no sound can be heard at all (the
  /// sound device went away), the speaker is let go and the questions are shown from then on.
  private mutating func tell(_ problem: SpeechFailure) {
    if problem.cannotPlay {
      speaker?.stop()
      speaker = nil
      environment.console.writeError(
        TerminalText.safe("Warning: no sound: \(problem). The questions are shown from now on."))
      return
    }
    if !speechProblemShown { environment.console.writeError(TerminalText.safe("Warning: \(problem)")) }
    speechProblemShown = true
  }

  /// "(ごほん)" while `gohon` is typed (in ASCII brackets: an arrow's width differs between
  /// terminals, and the cursor is placed by columns); nothing for kana, digits, or romaji that
  /// spells nothing yet.
  static let kanaPreview: @Sendable (String) -> String? = { typed in
    guard AnswerChecker.hasLatinLetter(typed), let kana = Romaji.kana(typed.filter { !$0.isWhitespace })?.first
    else { return nil }
    return "(" + kana + ")"
  }

  /// What the question just closed teaches (`AnswerTeaching`).
  private func teach(_ state: Session.State, matched: Reading?) {
    guard let closed = state.results.last else { return }
    for line in AnswerTeaching.lines(for: closed, skill: state.skill, matched: matched) {
      environment.console.write(TerminalText.safe(line))
    }
  }

  /// The answer a skip reveals: the number, or for the kana skill the standard reading (the
  /// others follow on their own line), or the counted phrases.
  static func answer(_ question: Question, skill: Skill) -> String {
    skill == .kana ? question.reading.standard : question.expected(for: skill)
  }

  /// Says a question's reading, as its display is written; nil when said (or not asked to).
  private func say(_ question: Question) -> SpeechFailure? {
    speaker?.speak(Utterance(reading: question.spoken, display: question.kanjiDisplay))
  }

  /// Starts making the audio of the question after this one while the learner answers, so it
  /// plays as soon as it is shown. The next question is the order's next, if the topic's
  /// source gives it at once: a plugin's is not asked for twice.
  private func prepareNext(after state: Session.State, generator: QuestionGenerator) {
    // In rounds the next question depends on the answer; it is made when asked.
    guard let speaker, state.skill == .listening || state.skill == .reading, state.rounds == nil else { return }
    var order = state.order
    guard case .success(let next)? = generator.questionAtHand(seed: order.next()) else { return }
    speaker.prepare(Utterance(reading: next.spoken, display: next.kanjiDisplay))
  }

  private func progressText(_ state: Session.State) -> String {
    let number = state.results.count + 1
    switch state.mode {
    case .questionLimit(let limit): return "[\(number)/\(limit)] "
    case .timeLimit(let seconds):
      let left = max(0, seconds - (environment.now() - state.startedAt))
      return "[\(number) · \(Int(left.rounded(.up)))s left] "
    case .infinite: return "[\(number)] "
    case .rounds:
      guard let rounds = state.rounds else { return "" }
      return "[round \(rounds.number): \(rounds.position)/\(rounds.size)] "
    }
  }

  private func printSummary(_ summary: Session.Summary, skill: Skill) {
    let console = environment.console
    let reason: String
    switch summary.endReason {
    case .questionLimitReached: reason = "all questions asked"
    case .timeUp: reason = "time is up"
    case .endedByLearner: reason = "ended"
    case .generationFailed(let why): reason = TerminalText.safe("stopped: \(why)")
    case .allRight:
      let rounds = summary.rounds ?? 1
      reason = "all right at the first try, after \(rounds) round\(rounds == 1 ? "" : "s")"
    }
    console.write("")
    console.write(
      "Finished (\(reason)): \(summary.questions) question\(summary.questions == 1 ? "" : "s") in \(format(summary.totalSeconds))."
    )
    console.write(
      "  Correct: \(summary.correct) (\(summary.correctFirstTry) on the first try)   Wrong attempts: \(summary.incorrectAttempts)   Skipped: \(summary.skipped)"
    )
    if summary.questions > 0 { console.write("  Average time per question: \(format(summary.averageSeconds))") }
    if let rounds = summary.rounds { console.write("  Rounds: \(rounds)") }
    if !summary.missed.isEmpty {
      console.write("  To practise again:")
      for result in summary.missed {
        let typed = result.wrongAnswers.isEmpty ? "" : "   (you typed: \(result.wrongAnswers.joined(separator: ", ")))"
        console.write(
          TerminalText.safe(
            "    \(result.question.prompt(for: skill)) → \(result.question.expected(for: skill))\(typed)"))
      }
    }
  }

  private func format(_ seconds: Double) -> String {
    seconds < 60 ? String(format: "%.1fs", seconds) : "\(Int(seconds) / 60)m \(Int(seconds) % 60)s"
  }

  private func describe(_ skill: Skill) -> String {
    switch skill {
    case .listening: "listening: hear it, type the number"
    case .reading: "reading: see the kanji, type the number"
    case .kana: "kana: see the number, type its reading"
    case .counter: "which counter: see a thing and how many, type the count with its counter (5本 or ごほん)"
    }
  }

  private func describe(_ mode: Session.Mode) -> String {
    switch mode {
    case .infinite: "until you quit"
    case .questionLimit(let count): "\(count) question\(count == 1 ? "" : "s")"
    case .timeLimit(let seconds): "\(format(seconds))"
    case .rounds(let count):
      "\(count) missed question\(count == 1 ? "" : "s"), in rounds until each is right at the first try"
    }
  }
}
