import BikiCLI
import BikiCore
import BikiJapanese

/// `biki read [--as KIND] TEXT...`: one line per text, the text, a tab, its readings joined by `|`.
enum ReadCommand {
  static let usage = "biki read [--as <kind>] <text> ..."

  static let help = """
    OVERVIEW: Print how numbers and counted phrases are read in Japanese.

    Prints one line per TEXT: the text, a tab, then its readings separated by '|', the most
    standard first. Text that cannot be read is reported on stderr (exit status 65); the other
    lines are still printed.

    USAGE: \(usage)

    ARGUMENTS:
      <text>                  A number or phrase: 3,000  8本  ¥1,500  令和元年  午後4時  9時半  5月5日

    OPTIONS:
      --as <kind>             Read the text as: number, money, duration, date, time, counter.
                              Decides what the text alone cannot: '1日' is いちにち, but
                              '--as date 1日' is ついたち.
      -h, --help              Show help information.

    EXAMPLES:
      biki read 8本 600円 令和元年 午後4時
      biki read --as date 1日 20日
    """

  static func run(arguments: [String]) -> CommandOutcome {
    var kind: PhraseKind?
    var texts: [String] = []
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument.count == 1 || argument.dropFirst().first!.isNumber {
        texts.append(argument)
        continue
      }
      switch argument {
      case "--":
        optionsEnded = true
      case "-h", "--help":
        return CommandOutcome(standardOutput: [help])
      case "--as":
        guard index < arguments.count else { return usageError("Missing value for '--as <kind>'.") }
        let value = arguments[index]
        index += 1
        guard let parsed = PhraseKind(rawValue: value) else {
          let names = PhraseKind.allCases.map(\.rawValue)
          let hint = Suggestion.didYouMean(value, among: names)
          return usageError("The value '\(value)' is invalid for '--as <kind>'.\(hint) Use one of: \(names.joined(separator: ", ")).")
        }
        kind = parsed
      default:
        if argument.hasPrefix("--as=") {
          return run(arguments: Array(arguments[..<(index - 1)]) + ["--as", String(argument.dropFirst(5))] + Array(arguments[index...]))
        }
        return CommandOutcome.unknownOption(argument, known: ["--as", "--help"], usage: usage, helpCommand: "biki read --help")
      }
    }
    guard !texts.isEmpty else { return usageError("Missing expected argument '<text> ...'.") }

    var outcome = CommandOutcome()
    let reader = PhraseReader()
    for text in texts {
      do {
        let reading = try reader.read(text, as: kind)
        outcome.standardOutput.append("\(text)\t\(reading)")
      } catch {
        outcome.standardError.append("Error: \(error)")
        outcome.status = ExitStatus.dataError
      }
    }
    return outcome
  }

  private static func usageError(_ message: String) -> CommandOutcome {
    BikiCommand.usageError(message, usage: usage, helpCommand: "biki read --help")
  }
}
