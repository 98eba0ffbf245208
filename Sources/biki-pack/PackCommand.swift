import BikiCLI
import BikiCore
import BikiHost
import BikiPlugins

/// What the commands need from the world, passed in so they stay testable.
struct PackCommandContext {
  var fileSystem: FileSystem
  var environment: [String: String]
  var executable: String
  var currentDirectory: String

  /// Plugins run in worker processes started from this executable, under the standard limits
  /// (`biki-pack lint` checks them under the same ones).
  let now = MonotonicClock.live()
  var pluginIsolation: PluginIsolation {
    .worker(executable: TopicRegistry.ownExecutable, logPath: "/dev/null", limits: .standard, now: now)
  }
  var workerSpawner: WorkerSpawner { .live(executable: TopicRegistry.ownExecutable, now: now) }

  /// Where Biki's files are (shared with biki).
  var host: HostSetup { HostSetup(fileSystem: fileSystem, environment: environment, executable: executable) }

  func searchPaths(extra: [String]) -> PackSearchPaths { host.packSearchPaths(extra: extra) }

  /// A path the user named on the command line, made absolute against the directory they are in.
  /// `path` from the root, with "." and empty steps left out (`./libx.so` is `/here/libx.so`);
  /// ".." is kept, as a link before it decides where it leads.
  func absolute(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : currentDirectory + "/" + path
    return "/" + full.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
  }
}

enum PackCommand {
  static let version = PluginABIVersion.versionLine

  static let help = """
    OVERVIEW: Check, sample and start Biki topic packs.

    USAGE: biki-pack <subcommand>

    SUBCOMMANDS:
      lint                    Check pack files and directories; report every problem.
      sample                  Print generated questions from a pack.
      new                     Write a new, lint-clean pack to start from.
      fmt                     Lay out pack files canonically, in place.

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

      See 'biki-pack help <subcommand>' for detailed help.
    """

  static func run(arguments: [String], context: PackCommandContext) -> CommandOutcome {
    guard let first = arguments.first else { return CommandOutcome(standardOutput: [help]) }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "-h", "--help": return CommandOutcome(standardOutput: [help])
    case "--version": return CommandOutcome(standardOutput: [version])
    case "help":
      switch rest.first {
      case nil: return CommandOutcome(standardOutput: [help])
      case "lint": return CommandOutcome(standardOutput: [LintCommand.help])
      case "sample": return CommandOutcome(standardOutput: [SampleCommand.help])
      case "new": return CommandOutcome(standardOutput: [NewCommand.help])
      case "fmt": return CommandOutcome(standardOutput: [FmtCommand.help])
      case let other?: return unknownSubcommand(other)
      }
    case "lint": return LintCommand.run(arguments: rest, context: context)
    case "sample": return SampleCommand.run(arguments: rest, context: context)
    case "new": return NewCommand.run(arguments: rest, context: context)
    case "fmt": return FmtCommand.run(arguments: rest, context: context)
    default: return unknownSubcommand(first)
    }
  }

  static func unknownSubcommand(_ name: String) -> CommandOutcome {
    let hint = Suggestion.didYouMean(name, among: ["lint", "sample", "new", "fmt", "help"])
    return CommandOutcome.usageError(
      "Unknown subcommand '\(name)'.\(hint)", usage: "biki-pack <subcommand>", helpCommand: "biki-pack --help")
  }
}
