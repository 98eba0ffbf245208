import BikiCLI
import BikiHost
import BikiPacks

/// `biki topics`: every loaded topic with its id, title, category, skills and source.
enum TopicsCommand {
  static let usage = "biki topics [--packs <dir>] [--plugins <dir>] [--in-process]"

  static let help = """
    OVERVIEW: List every loaded topic.

    Prints one line per topic: id, title, category, skills and the pack file it comes from,
    tab-separated. Problems in pack files are reported on stderr; the other topics still load.

    USAGE: \(usage)

    OPTIONS:
      --packs <dir>           Also load packs from this directory (repeatable).
      --plugins <dir>         Also load plugins from this directory (repeatable).
      --in-process            Load plugins into this process instead of worker processes.
      -h, --help              Show help information.
    """

  static func run(arguments: [String], environment: BikiEnvironment) -> CommandOutcome {
    let parsed: ParsedArguments
    switch CommandOutcome.parse(
      arguments, options: [.value("--packs", "<dir>"), .value("--plugins", "<dir>"), .flag("--in-process")], help: help,
      usage: usage,
      helpCommand: "biki topics --help")
    {
    case .success(let found): parsed = found
    case .failure(let failure): return failure.outcome
    }
    if let extra = parsed.positionals.first {
      return CommandOutcome.usageError(
        "Unexpected argument '\(extra)'.", usage: usage, helpCommand: "biki topics --help")
    }
    let packs = parsed.values("--packs")
    let plugins = parsed.values("--plugins")
    let inProcess = parsed.isSet("--in-process")
    let registry = environment.loadTopics(packDirectories: packs, pluginDirectories: plugins, inProcess: inProcess)
    var outcome = CommandOutcome(
      standardError: SourceProblems.summary(registry) + SourceProblems.unbuiltSamples(environment))
    outcome.standardOutput =
      ["id\ttitle\tcategory\tskills\tsource"]
      + registry.topics.map { entry in
        let topic = entry.topic
        // Each field on its own, so a tab or newline in a title cannot add a column or a line.
        return [
          topic.id, topic.title, topic.category.rawValue, topic.skills.map(\.rawValue).joined(separator: ","),
          entry.source,
        ]
        .map { TerminalText.safe($0) }.joined(separator: "\t")
      }
    return outcome
  }
}

/// One line per pack or plugin with errors, so a learner knows why a topic is missing.
enum SourceProblems {
  /// In a checkout where `swift run biki` was the first build, why the sample plugins' topics
  /// are not listed, and how to add them.
  static func unbuiltSamples(_ environment: BikiEnvironment) -> [String] {
    let missing = environment.installation.unbuiltSamplePlugins(fileSystem: environment.fileSystem)
    guard !missing.isEmpty else { return [] }
    let topics = missing.map { "\($0).*" }.joined(separator: " and ")
    return [
      "Note: the sample plugins' topics (\(topics)) are not listed: they are not built yet. 'swift build' builds them."
    ]
  }

  static func summary(_ registry: TopicRegistry) -> [String] {
    var byPath: [(String, [Diagnostic])] = []
    for (path, diagnostic) in registry.problems where diagnostic.severity == .error {
      if let index = byPath.firstIndex(where: { $0.0 == path }) {
        byPath[index].1.append(diagnostic)
      } else {
        byPath.append((path, [diagnostic]))
      }
    }
    return byPath.map { path, errors in
      let more = errors.count > 1 ? " (and \(errors.count - 1) more; run 'biki-pack lint \(path)')" : ""
      return TerminalText.safe("Warning: \(errors[0].formatted(path: path))\(more)")
    }
  }
}
