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
      today                   The day's review: the forms due first, over every topic.
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
      case "today": return CommandOutcome(standardOutput: [todayHelp])
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
    case "today":
      let rest = Array(arguments.dropFirst())
      if rest.contains(where: { ["-h", "--help"].contains($0) }) { return CommandOutcome(standardOutput: [todayHelp]) }
      // Parsed as the quiz parses, to tell a topic from an option's value.
      if case .success(let parsed) = CommandOutcome.parse(
        rest, options: QuizCommand.options, help: todayHelp, usage: todayUsage, helpCommand: "biki help today"),
        !parsed.positionals.isEmpty || parsed.isSet("--mode") || parsed.isSet("--all") || parsed.isSet("--missed")
      {
        return usageError(
          "'biki today' reviews every topic; for a topic or another mode use 'biki quiz'.", usage: todayUsage,
          helpCommand: "biki help today")
      }
      return QuizCommand.run(arguments: ["--mode", "review", "--all"] + rest, environment: environment())
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
        first,
        among: ["quiz", "today", "topics", "read", "say", "stats", "export", "serve", "install", "uninstall", "help"])
      return usageError("Unknown subcommand '\(first)'.\(hint)", usage: "biki <subcommand>", helpCommand: "biki --help")
    }
  }

  static let todayUsage =
    "biki today [--skill <skill>] [--speak] [--seed <n>] [--strict] [--packs <dir>] [--plugins <dir>]"

  static let todayHelp = """
    OVERVIEW: The day's review, over every topic.

    The same as 'biki quiz --mode review --all': 20 questions, the forms you are due to
    review first (8本 はっぽん, 300 さんびゃく, 20日 はつか), then the weak ones, then new ones.
    Options other than --mode and --all are those of 'biki quiz'.

    USAGE: \(todayUsage)
    """

  static func usageError(_ message: String, usage: String, helpCommand: String) -> CommandOutcome {
    CommandOutcome.usageError(message, usage: usage, helpCommand: helpCommand)
  }

}
