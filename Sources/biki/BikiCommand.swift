import BikiCLI
import BikiCore
import BikiJapanese
import BikiPlugins
import BikiServer

enum BikiCommand {
  static let version = PluginABIVersion.versionLine

  static let help = """
    OVERVIEW: Drill Japanese numbers: amounts, dates, times, durations and counters.

    USAGE: biki <subcommand>

    SUBCOMMANDS:
      quiz                    Drill a topic: answer questions, see what you missed.
      topics                  List every loaded topic.
      read                    Print how numbers and counted phrases are read in Japanese.
      say                     Say a reading aloud (Open JTalk, else espeak-ng).
      stats                   Show accuracy over your answer history.
      export                  Export what you missed or are due to review, for Anki.
      serve                   Serve quizzes and pack diagnostics over JSON-RPC (for editors).
      install                 Install this Biki into a prefix (default ~/.local).
      uninstall               Remove an install.

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

      See 'biki help <subcommand>' for detailed help.
    """

  static func run(arguments: [String], environment: @autoclosure () -> BikiEnvironment) -> CommandOutcome {
    guard let first = arguments.first else {
      return CommandOutcome(standardOutput: [help])
    }
    switch first {
    case "-h", "--help":
      return CommandOutcome(standardOutput: [help])
    case "--version":
      return CommandOutcome(standardOutput: [version])
    case "help":
      guard arguments.count > 1 else { return CommandOutcome(standardOutput: [help]) }
      switch arguments[1] {
      case "read": return CommandOutcome(standardOutput: [ReadCommand.help])
      case "say": return CommandOutcome(standardOutput: [SayCommand.help])
      case "quiz": return CommandOutcome(standardOutput: [QuizCommand.help])
      case "topics": return CommandOutcome(standardOutput: [TopicsCommand.help])
      case "stats": return CommandOutcome(standardOutput: [StatsCommand.help])
      case "export": return CommandOutcome(standardOutput: [ExportCommand.help])
      case "serve": return CommandOutcome(standardOutput: [ServeCommand.help])
      case "install": return CommandOutcome(standardOutput: [InstallCommand.installHelp])
      case "uninstall": return CommandOutcome(standardOutput: [InstallCommand.uninstallHelp])
      default:
        return usageError(
          "Unknown subcommand '\(arguments[1])'.", usage: "biki <subcommand>", helpCommand: "biki --help")
      }
    case "read":
      return ReadCommand.run(arguments: Array(arguments.dropFirst()))
    case "say":
      return SayCommand.run(arguments: Array(arguments.dropFirst()), environment: environment())
    case "quiz":
      return QuizCommand.run(arguments: Array(arguments.dropFirst()), environment: environment())
    case "topics":
      return TopicsCommand.run(arguments: Array(arguments.dropFirst()), environment: environment())
    case "stats":
      let environment = environment()
      return StatsCommand.run(
        arguments: Array(arguments.dropFirst()), history: environment.history, now: environment.wallClock(),
        defaultReport: environment.host.reportPath)
    case "export":
      return ExportCommand.run(arguments: Array(arguments.dropFirst()), environment: environment())
    case "serve":
      return ServeCommand.run(arguments: Array(arguments.dropFirst()), environment: environment())
    case "install":
      return InstallCommand.install(arguments: Array(arguments.dropFirst()), environment: environment())
    case "uninstall":
      return InstallCommand.uninstall(arguments: Array(arguments.dropFirst()), environment: environment())
    default:
      let hint = Suggestion.didYouMean(
        first, among: ["quiz", "topics", "read", "say", "stats", "export", "serve", "install", "uninstall", "help"])
      return usageError("Unknown subcommand '\(first)'.\(hint)", usage: "biki <subcommand>", helpCommand: "biki --help")
    }
  }

  static func usageError(_ message: String, usage: String, helpCommand: String) -> CommandOutcome {
    CommandOutcome.usageError(message, usage: usage, helpCommand: helpCommand)
  }

}
