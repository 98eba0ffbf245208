import Testing

@testable import BikiJSON

/// A string value read with a string the caller holds: the answer is `unescapedString`'s,
/// whether the text spells the held string or not.
@Suite struct ReusedStringTests {
  static func read(_ text: String, reusing known: String?) -> String? {
    Array(text.utf8).withUnsafeBufferPointer { JSONScan.unescapedString($0[...], reusing: known) }
  }

  static func read(_ text: String) -> String? {
    Array(text.utf8).withUnsafeBufferPointer { JSONScan.unescapedString($0[...]) }
  }

  @Test(arguments: [
    (#""numbers.beginner""#, "numbers.beginner"),
    (#""numbers.beginner""#, "numbers.beginnes"),
    (#""numbers.beginner""#, "numbers"),
    (#""かず.いち""#, "かず.いち"),
    (#""""#, ""),
    (#""a\\b""#, #"a\\b"#),
    (#""a\\b""#, #"a\b"#),
    (#""a\"b""#, #"a\"b"#),
    ("7", "7"),
    (#""x""#, "xy"),
  ])
  func theAnswerIsTheUnescapedString(text: String, known: String) {
    #expect(Self.read(text, reusing: known) == Self.read(text))
    #expect(Self.read(text, reusing: nil) == Self.read(text))
  }

  @Test func aSpeltStringIsTheOneHeld() {
    #expect(Self.read(#""numbers.beginner""#, reusing: "numbers.beginner") == "numbers.beginner")
  }
}
