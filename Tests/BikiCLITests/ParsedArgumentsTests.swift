import Testing

@testable import BikiCLI

@Suite struct ParsedArgumentsTests {
  let options: [ParsedArguments.Option] = [
    .value("--packs", "<dir>"), .flag("--strict"), .value("--count", "<n>", short: "-n"),
  ]

  func parse(_ arguments: [String], negatives: Bool = false) throws(ParsedArguments.UsageError) -> ParsedArguments {
    try ParsedArguments(arguments, options: options, allowsNegativeNumbers: negatives)
  }

  func message(_ arguments: [String]) -> String? {
    do {
      _ = try parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func valuesFlagsAndPositionalsInEverySpelling() throws {
    let parsed = try parse(["a.json", "--packs", "one", "--packs=two", "--strict", "-n", "3", "--", "--not-an-option"])
    #expect(parsed.values("--packs") == ["one", "two"])
    #expect(parsed.isSet("--strict"))
    #expect(parsed.value("--count") == "3")
    #expect(parsed.positionals == ["a.json", "--not-an-option"])
    #expect(!parsed.helpRequested)
    #expect(try parse(["-h"]).helpRequested)
    #expect(try parse(["--packs", "--strict"]).value("--packs") == "--strict")  // the next word is the value, as asked
  }

  /// The old `biki topics --packs` said "Unknown option '--packs'. Did you mean '--packs'?".
  @Test func mistakesSayWhatIsWrong() {
    #expect(message(["--packs"]) == "Missing value for '--packs <dir>'.")
    #expect(message(["--pack", "x"]) == "Unknown option '--pack'. Did you mean '--packs'?")
    #expect(message(["--strict=yes"]) == "The flag '--strict' takes no value.")
    #expect(message(["-x"]) == "Unknown option '-x'.")
  }

  /// `--html` or `--html=<file>`: the value comes only after "=", so the next word stays a positional.
  @Test func anOptionalValueIsTakenOnlyAfterEquals() throws {
    let options: [ParsedArguments.Option] = [.optionalValue("--html", "<file>")]
    let bare = try ParsedArguments(["--html", "counters.hon"], options: options)
    #expect(bare.value("--html") == "")
    #expect(bare.positionals == ["counters.hon"])
    #expect(try ParsedArguments(["--html=a b.html"], options: options).value("--html") == "a b.html")
    #expect(try ParsedArguments([], options: options).value("--html") == nil)
    #expect(throws: ParsedArguments.UsageError(message: "Missing value after '--html='.")) {
      try ParsedArguments(["--html="], options: options)
    }
  }

  @Test func negativeNumbersArePositionalsWhereACommandReadsNumbers() throws {
    #expect(try parse(["-5", "-"], negatives: true).positionals == ["-5", "-"])
    #expect(message(["-5"]) == "Unknown option '-5'.")
  }
}
