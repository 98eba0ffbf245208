import BikiCLI
import BikiHost

/// `biki topics`: every loaded topic with its id, title, category, skills and source.
enum TopicsCommand {
  static let usage = "biki topics [--packs <dir>]"

  static let help = """
    OVERVIEW: List every loaded topic.

    Prints one line per topic: id, title, category, skills and the pack file it comes from,
    tab-separated. Problems in pack files are reported on stderr; the other topics still load.

    USAGE: \(usage)

    OPTIONS:
      --packs <dir>           Also load packs from this directory (repeatable).
      -h, --help              Show help information.
    """

  static func run(arguments: [String], environment: BikiEnvironment) -> CommandOutcome {
    var extra: [String] = []
    var index = 0
    while index < arguments.count {
      switch arguments[index] {
      case "-h", "--help": return CommandOutcome(standardOutput: [help])
      case "--packs" where index + 1 < arguments.count:
        extra.append(arguments[index + 1])
        index += 1
      case let other:
        return CommandOutcome.unknownOption(other, known: ["--packs", "--help"], usage: usage, helpCommand: "biki topics --help")
      }
      index += 1
    }
    let load = environment.loadPacks(extra: extra)
    var outcome = CommandOutcome(standardError: PackProblems.summary(load))
    outcome.standardOutput = ["id\ttitle\tcategory\tskills\tsource"]
      + load.topics.map { entry in
        let topic = entry.topic.topic
        return [topic.id, topic.title, topic.category.rawValue, topic.skills.map(\.rawValue).joined(separator: ","), entry.path]
          .joined(separator: "\t")
      }
    return outcome
  }
}

/// One line per pack with errors, so a learner knows why a topic is missing.
enum PackProblems {
  static func summary(_ load: PackLoad) -> [String] {
    load.packs.compactMap { pack in
      let errors = load.diagnostics(for: pack.path).filter { $0.severity == .error }
      guard let first = errors.first else { return nil }
      let more = errors.count > 1 ? " (and \(errors.count - 1) more; run 'biki-pack lint \(pack.path)')" : ""
      return "Warning: \(first.formatted(path: pack.path))\(more)"
    }
  }
}
