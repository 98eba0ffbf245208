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
      --as <kind>             Read the text as: number, money, duration, date, time, counter,
                              name. Decides what the text alone cannot: '1日' is いちにち, but
                              '--as date 1日' is ついたち; '1組' is ひとくみ (one set), but
                              '--as name 1組' is いちくみ (class 1).
      -h, --help              Show help information.

    EXAMPLES:
      biki read 8本 600円 令和元年 午後4時
      biki read --as date 1日 20日
    """

  static func run(arguments: [String]) -> CommandOutcome {
    // Negative numbers are texts to read (-5), not options.
    let parsed: ParsedArguments
    switch CommandOutcome.parse(
      arguments, options: [.value("--as", "<kind>")], help: help, usage: usage, helpCommand: "biki read --help",
      allowsNegativeNumbers: true)
    {
    case .success(let found): parsed = found
    case .failure(let failure): return failure.outcome
    }
    var kind: PhraseKind?
    if let value = parsed.value("--as") {
      guard let found = PhraseKind(rawValue: value) else {
        let names = PhraseKind.allCases.map(\.rawValue)
        let hint = Suggestion.didYouMean(value, among: names)
        return usageError(
          TerminalText.safe(
            "The value '\(value)' is invalid for '--as <kind>'.\(hint) Use one of: \(names.joined(separator: ", "))."))
      }
      kind = found
    }
    let texts = parsed.positionals
    guard !texts.isEmpty else { return usageError("Missing expected argument '<text> ...'.") }

    var outcome = CommandOutcome()
    let reader = PhraseReader()
    for text in texts {
      do {
        let reading = try reader.read(text, as: kind)
        outcome.standardOutput.append("\(TerminalText.safe(text))\t\(TerminalText.safe(reading.description))")
      } catch {
        outcome.standardError.append(TerminalText.safe("Error: \(error)"))
        outcome.status = ExitStatus.dataError
      }
    }
    return outcome
  }

  private static func usageError(_ message: String) -> CommandOutcome {
    BikiCommand.usageError(message, usage: usage, helpCommand: "biki read --help")
  }
}
