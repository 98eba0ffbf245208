import Testing

@testable import BikiJSON

/// A pack file's id read from its top without parsing it: the value the parser's first member
/// of that name holds, or nothing where the parser might read another.
@Suite struct FirstMemberTests {
  static func first(_ text: String) -> String? {
    Array(text.utf8).withUnsafeBufferPointer { JSONScan.firstMemberString("id", in: $0) }
  }

  @Test(arguments: [
    (#"{"id": "numbers"}"#, "numbers"),
    (" \n\t{ \"id\"\r\n :\t\"numbers\" , \"x\": 1}", "numbers"),
    (#"{"format": 1, "title": "a } \" ] {", "list": [1, {"id": "inner"}, "]"], "id": "outer"}"#, "outer"),
    (#"{"topics": [{"id": "t"}], "nested": {"id": {"id": "deeper"}}, "id": "pack"}"#, "pack"),
    (#"{"id": "first", "id": "second"}"#, "first"),
    (#"{"ids": "no", "i": "no", "id": "yes"}"#, "yes"),
    (#"{"n": -1.5e3, "t": true, "f": false, "z": null, "id": "after-literals"}"#, "after-literals"),
    (#"{"id": "かず"}"#, "かず"),
  ])
  func theFirstMemberOfTheNameIsRead(text: String, id: String) {
    #expect(Self.first(text) == id)
  }

  /// Where the parser could read something else, or the value is no plain string, nothing is
  /// claimed: the caller then treats the file as one that could define anything.
  @Test(arguments: [
    #"{"\u0069d": "escaped-key", "id": "plain"}"#,
    #"{"id": "esc\u0061ped"}"#,
    #"{"id": 5}"#,
    #"{"id": ["a"]}"#,
    #"{"id": null}"#,
    #"{"format": 1}"#,
    #"{}"#,
    #"["id", "a"]"#,
    #""id""#,
    "",
    "   ",
    #"{"id""#,
    #"{"id": "#,
    #"{"a": 1 "id": "missing-comma"}"#,
    "\u{FEFF}{\"id\": \"after-a-byte-order-mark\"}",
  ])
  func nothingIsClaimedWhereTheParserMightDiffer(text: String) {
    #expect(Self.first(text) == nil)
  }

  /// Text that is not JSON gets some answer or none, but never a trap or an endless walk.
  @Test(arguments: [#"{"id": "a"#, #"{"x": "\"#, #"{"x": {"#, #"{"x": ]]]]"#, #"{"x":,,,,"id":"b"}"#, "{\"x\u{0}"])
  func textThatIsNotJSONIsWalkedSafely(text: String) {
    _ = Self.first(text)
  }
}
