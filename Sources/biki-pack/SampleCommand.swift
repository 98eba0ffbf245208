import BikiCLI
import BikiCore
import BikiHost
import BikiPacks
import BikiPlugins

/// `biki-pack sample PACK [--topic ID] [--seed N] [-n COUNT] [--param NAME=VALUE]`.
enum SampleCommand {
  static let usage =
    "biki-pack sample <pack> [--topic <id>] [--seed <n> | --question <seed>] [-n <count>] [--param <name>=<value> ...]"
  static let helpCommand = "biki-pack sample --help"

  static let help = """
    OVERVIEW: Print generated questions from a pack.

    Prints a header, then one tab-separated line per question: topic, seed, display, kanji
    display, reading(s), answer, and for a which-counter question the thing counted and every
    answer it takes (empty for others). The same seed always prints the same questions.

    USAGE: \(usage)

    ARGUMENTS:
      <pack>                  A pack file, a directory of them, a plugin library (.so), or the id of
                              an installed pack (e.g. counters).

    OPTIONS:
      --topic <id>            Only this topic (its full id, or the part after the pack id).
      --seed <n>              The seed of the order questions are drawn in (default 1).
      --question <seed>       Only the question of this seed, as the seed column and lint's
                              messages name it (the seed a plugin's generate receives).
      -n <count>              Questions per topic (default 5).
      --param <name>=<value>  Set a topic parameter (repeatable).
      -h, --help              Show help information.
    """

  static func run(arguments: [String], context: PackCommandContext) -> CommandOutcome {
    let reader: ParsedArguments
    switch CommandOutcome.parse(
      arguments,
      options: [
        .value("--topic", "<id>"), .value("--seed", "<n>"), .value("--count", "<count>", short: "-n"),
        .value("--param", "<name>=<value>"), .value("--question", "<seed>"),
      ],
      help: help, usage: usage, helpCommand: helpCommand)
    {
    case .success(let found): reader = found
    case .failure(let failure): return failure.outcome
    }
    let topicFilter = reader.value("--topic")
    var seed: UInt64 = 1
    var count = 5
    var parameters: [String: Int64] = [:]
    if let text = reader.value("--seed") {
      guard let value = UInt64(text) else { return usageError("'--seed' takes a whole number from 0 to 2^64−1.") }
      seed = value
    }
    if let text = reader.value("--count") {
      guard let value = Int(text), value > 0, value <= 1_000_000 else {
        return usageError("'-n' takes a count from 1 to 1000000.")
      }
      count = value
    }
    var only: UInt64?
    if let text = reader.value("--question") {
      guard let value = UInt64(text) else {
        return usageError("'--question' takes a question's seed, a whole number from 0 to 2^64−1.")
      }
      guard !reader.isSet("--seed"), !reader.isSet("--count") else {
        return usageError("'--question' prints one question; leave out '--seed' and '-n'.")
      }
      only = value
    }
    for pair in reader.values("--param") {
      guard let equals = pair.firstIndex(of: "="), let value = Int64(pair[pair.index(after: equals)...]) else {
        return usageError("'--param' takes <name>=<whole number>, as in --param max=500.")
      }
      parameters[String(pair[..<equals])] = value
    }
    guard reader.positionals.count == 1, let packName = reader.positionals.first else {
      return usageError(reader.positionals.isEmpty ? "Missing expected argument '<pack>'." : "Give one pack at a time.")
    }

    if packName.hasSuffix(".so") {
      guard context.fileSystem.kind(packName) == .file else {
        return CommandOutcome(
          standardError: [TerminalText.safe("Error: \(packName): no such file")], status: ExitStatus.noInput)
      }
      let registry = TopicRegistry.load(
        packs: PackLoad(packs: [], crossPackDiagnostics: [], topics: []), plugins: [context.absolute(packName)],
        isolation: context.pluginIsolation)
      var outcome = CommandOutcome()
      for (path, diagnostic) in registry.problems {
        outcome.standardError.append(TerminalText.safe(diagnostic.formatted(path: path)))
      }
      guard !registry.topics.isEmpty else {
        outcome.status = ExitStatus.failure
        return outcome
      }
      return sample(
        registry.topics, filter: topicFilter, order: only.map { .only($0) } ?? .drawn(seed: seed, count: count),
        parameters: parameters, into: outcome)
    }
    let loader = PackLoader(fileSystem: context.fileSystem)
    let load: PackLoad
    if context.fileSystem.kind(packName) != nil {
      load = loader.load(files: (try? loader.packFiles(in: [packName], requireExistence: true)) ?? [])
    } else {
      let installed =
        (try? loader.packFiles(in: context.searchPaths(extra: []).directories, requireExistence: false)) ?? []
      let all = loader.load(files: installed)
      guard let pack = all.packs.first(where: { $0.defined?.packID == packName }) else {
        let ids = all.packs.compactMap { $0.defined?.packID }
        return CommandOutcome(
          standardError: [
            TerminalText.safe(
              "Error: no pack file or installed pack named '\(packName)'.\(Suggestion.didYouMean(packName, among: ids)) Installed: \(ids.joined(separator: ", "))"
            )
          ],
          status: ExitStatus.noInput)
      }
      load = PackLoad(packs: [pack], crossPackDiagnostics: [], topics: pack.compilation.topics.map { ($0, pack.path) })
    }

    var outcome = CommandOutcome()
    for pack in load.packs {
      for diagnostic in pack.compilation.diagnostics where diagnostic.severity == .error {
        outcome.standardError.append(TerminalText.safe(diagnostic.formatted(path: pack.path)))
      }
    }
    let topics = load.topics.map { RegisteredTopic($0.topic, source: $0.path) }
    outcome = sample(
      topics, filter: topicFilter, order: only.map { .only($0) } ?? .drawn(seed: seed, count: count),
      parameters: parameters, into: outcome)
    if outcome.status == 0, load.packs.contains(where: { $0.compilation.hasErrors }) {
      outcome.status = ExitStatus.failure
    }
    return outcome
  }

  /// Which questions are printed of each topic.
  enum Questions {
    /// `count` drawn in the order `seed` gives, as a quiz draws them.
    case drawn(seed: UInt64, count: Int)
    /// The question of this seed alone.
    case only(UInt64)
  }

  /// Prints the questions `order` names of each topic; a plugin answers them in one batch per
  /// topic. A question that cannot be made is reported on its own and the others are still printed.
  static func sample(
    _ all: [RegisteredTopic], filter: String?, order questions: Questions, parameters: [String: Int64],
    into outcome: CommandOutcome
  ) -> CommandOutcome {
    var outcome = outcome
    var topics = all
    if let filter {
      topics = topics.filter { $0.topic.id == filter || $0.topic.id.hasSuffix("." + filter) }
      if topics.isEmpty {
        let ids = all.map(\.topic.id)
        outcome.standardError.append(
          TerminalText.safe(
            "Error: no topic '\(filter)' here.\(Suggestion.didYouMean(filter, among: ids)) Topics: \(ids.joined(separator: ", "))"
          ))
        outcome.status = ExitStatus.failure
        return outcome
      }
    }
    outcome.standardOutput.append("topic\tseed\tdisplay\tkanji\treading\tanswer\tcounted")
    for registered in topics {
      let generator: QuestionGenerator
      do {
        generator = try registered.generator(parameters: parameters)
      } catch {
        outcome.standardError.append(TerminalText.safe("Error: \(registered.topic.id): \(error)"))
        outcome.status = ExitStatus.failure
        continue
      }
      let seeds: [UInt64]
      switch questions {
      case .drawn(let seed, let count):
        var order = generator.order(seed: seed)
        seeds = (0..<count).map { _ in order.next() }
      case .only(let seed): seeds = [seed]
      }
      for result in generator.questions(seeds: seeds) {
        switch result {
        case .success(let question):
          outcome.standardOutput.append(
            [
              registered.topic.id, String(question.seed), question.display, question.kanjiDisplay,
              question.reading.description, question.answer.display,
              question.counted.map { "\($0.prompt) → \($0.expected)" } ?? "",
            ]
            .map { TerminalText.safe($0) }.joined(separator: "\t"))
        case .failure(let error):
          outcome.standardError.append(TerminalText.safe("Error: \(registered.topic.id): \(error)"))
          outcome.status = ExitStatus.failure
        }
      }
    }
    return outcome
  }

  private static func usageError(_ message: String) -> CommandOutcome {
    CommandOutcome.usageError(message, usage: usage, helpCommand: helpCommand)
  }
}
