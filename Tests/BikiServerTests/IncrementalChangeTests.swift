import BikiJSON
import BikiProtocol
import Testing

@testable import BikiServer

@Suite struct IncrementalChangeTests {
  func apply(_ text: String, _ start: (Int, Int), _ end: (Int, Int), _ replacement: String) -> String? {
    let change = IncrementalChange(
      range: [
        "start": ["line": .integer(Int64(start.0)), "character": .integer(Int64(start.1))],
        "end": ["line": .integer(Int64(end.0)), "character": .integer(Int64(end.1))],
      ],
      text: replacement)
    return change?.applied(to: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func charactersAreCountedInUTF16Units() {
    // 日 and 本 are one unit each, 🎌 two: "x" sits at character 4 of line 1.
    #expect(apply("a\n日本🎌x\n", (1, 4), (1, 5), "y") == "a\n日本🎌y\n")
    #expect(apply("a\n日本🎌x\n", (1, 2), (1, 4), "") == "a\n日本x\n")
    #expect(apply("本", (0, 0), (0, 0), "8") == "8本")
  }

  @Test func everyLineEndingCounts() {
    #expect(apply("a\r\nb\rc\nd", (2, 0), (2, 1), "C") == "a\r\nb\rC\nd")
    #expect(apply("a\r\nb", (1, 0), (1, 1), "B") == "a\r\nB")
  }

  @Test func charactersPastALinesEndAndTheLineJustPastTheLastMeanTheEnd() {
    #expect(apply("ab\ncd", (0, 99), (0, 99), "!") == "ab!\ncd")
    #expect(apply("ab\ncd", (1, 9), (2, 0), "!") == "ab\ncd!")
    #expect(apply("ab\ncd\n", (0, 0), (2, 0), "x") == "x")
    // Inside a surrogate pair: the character's start.
    #expect(apply("🎌", (0, 1), (0, 1), "x") == "x🎌")
  }

  @Test func aRangeThatEndsBeforeItStartsOrNamesALineTheTextLacksIsRefused() {
    #expect(apply("abc", (0, 2), (0, 1), "x") == nil)
    // The editor's text has more lines than this one: the copies differ.
    #expect(apply("ab\ncd", (7, 0), (9, 3), "!") == nil)
    #expect(apply("ab\ncd", (1, 0), (3, 0), "!") == nil)
    #expect(
      IncrementalChange(range: ["start": ["line": -1, "character": 0], "end": ["line": 0, "character": 0]], text: "")
        == nil)
    #expect(IncrementalChange(range: "nonsense", text: "") == nil)
  }
}
