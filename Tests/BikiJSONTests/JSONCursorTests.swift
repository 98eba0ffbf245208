import Testing

@testable import BikiJSON

@Suite struct JSONCursorTests {
  /// The context where `|` stands (the bar itself is removed).
  func cursor(_ marked: String) -> JSONCursor? {
    let bytes = Array(marked.utf8)
    let at = bytes.firstIndex(of: UInt8(ascii: "|"))!
    return JSONCursor.at(at, in: bytes.filter { $0 != UInt8(ascii: "|") })
  }

  @Test func keysAndValuesOnUnfinishedText() {
    #expect(
      cursor(#"{"format": 1, |"#)
        == JSONCursor(path: [], slot: .key, stringStart: nil, typed: "", siblingKeys: ["format"]))
    #expect(
      cursor(#"{"topics": [{"id": "a", "ca|"#)
        == JSONCursor(path: [.key("topics"), .element], slot: .key, stringStart: 25, typed: "ca", siblingKeys: ["id"]))
    #expect(cursor(#"{"topics": [{"category": "|"#)?.path == [.key("topics"), .element, .key("category")])
    #expect(cursor(#"{"topics": [{"category": "|"#)?.slot == .value(key: "category"))
    #expect(
      cursor(#"{"topics": [{"skills": ["kana", "|"#)?.path == [.key("topics"), .element, .key("skills"), .element])
    #expect(cursor(#"{"topics": [{"skills": ["kana", "|"#)?.slot == .value(key: nil))
  }

  /// Keys after the cursor count too (completion must not offer a key the object already has),
  /// but not nested objects' keys, the parent's, or the key being typed.
  @Test func siblingKeysAfterTheCursorAreFoundAndNestedOnesAreNot() {
    #expect(
      cursor(#"{"id": "a", |  "title": "T", "variables": {"n": {"range": {}}}, "category": "counter"}, "x": 1"#)?
        .siblingKeys == ["id", "title", "variables", "category"])
    #expect(cursor(#"{"id": "a", "ti|tle": "T", "category": "c"}"#)?.siblingKeys == ["id", "category"])
    #expect(cursor(#"{"id": "a", "|"#)?.siblingKeys == ["id"])
    #expect(
      cursor(#"{"id": "a", | "s": "x\"y:", "list": ["k", "v"], "b": "}"}"#)?.siblingKeys == ["id", "s", "list", "b"])
  }

  @Test func closedContainersAndEscapesAreSkipped() {
    #expect(cursor(#"{"a": {"b": [1, {"c": "}\"]"}]}, "d": |"#)?.path == [.key("d")])
    #expect(cursor(#"{"a": "x\"y", |"#)?.siblingKeys == ["a"])
  }

  /// A quote left open ends at the line's end, whichever line end the file uses.
  @Test(arguments: ["\n", "\r\n", "\r"]) func anOpenQuoteEndsAtTheLineEnd(_ end: String) {
    let found = cursor("{\"a\": \"x\(end), \"b\": |")
    #expect(found?.slot == .value(key: "b"))
    #expect(found?.siblingKeys == ["a", "b"])
    #expect(found?.stringStart == nil)
  }

  @Test func outsideEveryContainerThereIsNoContext() {
    #expect(cursor("|{}") == nil)
    #expect(cursor("{}|") == nil)
    #expect(cursor("|") == nil)
  }

  @Test func deepNestingIsScannedWithoutRecursion() {
    let deep = String(repeating: "[", count: 200_000) + "|"
    #expect(cursor(deep)?.path.count == 200_000)
  }
}
