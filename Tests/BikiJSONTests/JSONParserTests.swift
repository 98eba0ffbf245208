import Testing

@testable import BikiJSON

@Suite struct JSONParserTests {
  @Test func parsesEveryKindOfValue() throws {
    let node = try JSONParser.parse(#"{"a": [1, -2.5e3, "x", true, false, null], "b": {}}"#)
    let a = try #require(node["a"]?.value.arrayValue)
    #expect(a.map(\.value) == [.number("1"), .number("-2.5e3"), .string("x"), .bool(true), .bool(false), .null])
    #expect(node["b"]?.value.members == [])
  }

  @Test func recordsPositionsInScalarsAndUTF16() throws {
    // "本" is one scalar and one UTF-16 unit; "😀" is one scalar and two UTF-16 units.
    let text = "{\n  \"本😀\": \"x\",\n  \"max\": 10\n}"
    let node = try JSONParser.parse(text)
    let first = try #require(node.members?.first)
    #expect(first.keyRange.start == SourcePosition(line: 1, column: 2, utf16Column: 2, offset: 4))
    #expect(first.value.range.start.line == 1)
    #expect(first.value.range.start.column == 8)  // after `  "本😀": `
    #expect(first.value.range.start.utf16Column == 9)
    let max = try #require(node["max"])
    #expect(max.value.range.start.description == "3:10")
    #expect(max.value.integerValue == 10)
  }

  /// Lines end at \n, \r\n or \r, as LSP and editors count them: a file saved with old Mac line
  /// ends is not one long line.
  @Test(arguments: ["\n", "\r\n", "\r"]) func everyLineEndEndsALine(_ end: String) throws {
    let text = ["{", "  \"a\": 1,", "", "  \"本\": [true,", "    2]", "}"].joined(separator: end)
    let node = try JSONParser.parse(text)
    #expect(node["a"]?.value.range.start.description == "2:8")
    let element = try #require(node["本"]?.value.arrayValue?.last)
    #expect(
      element.range.start == SourcePosition(line: 4, column: 4, utf16Column: 4, offset: element.range.start.offset))
    // Errors found from a byte offset count lines the same way.
    let broken = ["[", "  1,", "  ]"].joined(separator: end)
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(broken) }
    do { _ = try JSONParser.parse(broken) } catch { #expect(error.position.description == "3:3", "\(error)") }
    do { _ = try JSONParser.value(Array(broken.utf8)) } catch {
      #expect(error.position.description == "3:3", "\(error)")
    }
    let badByte = Array("[\(end)\(end)\"".utf8) + [0xFF] + Array("\"]".utf8)
    do { _ = try JSONParser.parse(badByte) } catch { #expect(error.position.description == "3:2", "\(error)") }
  }

  @Test func aLineEndInsideAStringLeavesItUnterminated() {
    for end in ["\n", "\r"] {
      do { _ = try JSONParser.parse("[\"ab\(end)\"]") } catch {
        #expect(error.message.hasPrefix("unterminated string"), "\(error)")
        #expect(error.position.description == "1:5")
      }
    }
  }

  /// Long strings are scanned eight bytes at a time; the columns after them must count every
  /// scalar (and UTF-16 unit) as a byte-by-byte scan does, wherever a chunk boundary falls.
  @Test(arguments: 0..<9) func positionsAfterLongStringsCountEveryScalar(_ padding: Int) throws {
    let word = String(repeating: "a", count: padding) + "𝄞漢é" + String(repeating: "本x😀", count: 5) + "tail"
    let text = "[\"\(word)\", 1]"
    let node = try JSONParser.parse(text)
    let number = try #require(node.arrayValue?.last)
    let before = "[\"\(word)\", "
    #expect(number.range.start.column == before.unicodeScalars.count)
    #expect(number.range.start.utf16Column == before.utf16.count)
    #expect(number.range.start.offset == before.utf8.count)
    #expect(node.arrayValue?.first?.stringValue == word)
  }

  @Test func aQuoteOrEscapeInsideALongStringEndsTheFastScan() throws {
    let node = try JSONParser.parse(#"["abcdefghijklmnop\"qrstuvwx", "abcdefgh\u00e9ijklmnop"]"#)
    #expect(node.arrayValue?.map(\.value) == [.string("abcdefghijklmnop\"qrstuvwx"), .string("abcdefghéijklmnop")])
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("[\"abcdefghijklmnop\u{01}qrstuvwx\"]") }
  }

  @Test func keepsDuplicateKeysForTheValidator() throws {
    let node = try JSONParser.parse(#"{"id": "a", "id": "b"}"#)
    #expect(node.members?.map(\.key) == ["id", "id"])
  }

  @Test func keepsIntegerLiteralsExact() throws {
    let node = try JSONParser.parse("[9007199254740993, 1e3, 1.5, 99999999999999999999]")
    let values = try #require(node.arrayValue)
    #expect(values[0].integerValue == 9_007_199_254_740_993)
    #expect(values[1].integerValue == 1000)
    #expect(values[2].integerValue == nil)
    #expect(values[3].integerValue == nil)
  }

  @Test func decodesEscapesAndSurrogatePairs() throws {
    let node = try JSONParser.parse(#"["\u672c\ud83d\ude00\n\t\"\\\/"]"#)
    #expect(node.arrayValue?.first?.stringValue == "本😀\n\t\"\\/")
  }

  @Test func skipsAByteOrderMark() throws {
    #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("1".utf8)).value == .number("1"))
  }

  @Test(arguments: [
    (#"{"a": 1 "b": 2}"#, "1:9", "expected ',' or '}' after a member, found '\"'"),
    (#"{"a": 1,}"#, "1:9", "trailing comma before '}'"),
    ("[1, 2,]", "1:7", "trailing comma before ']'"),
    (#"{"a" 1}"#, "1:6", "expected ':' after key \"a\""),
    (#"{a: 1}"#, "1:2", "expected a key in double quotes, found 'a'"),
    (#"{"a": "x"#, "1:9", "unterminated string"),
    ("{\"a\": \"x\ny\"}", "1:9", "a line break must be written \\n"),
    ("[01]", "1:3", "leading zeros"),
    ("[1.]", "1:4", "expected a digit after '.'"),
    ("[tru]", "1:5", "expected 'true'"),
    (#"["\q"]"#, "1:3", "invalid escape \\q"),
    (#"["\ud83d"]"#, "1:9", "unpaired surrogate"),
    ("", "1:1", "expected a value, found end of file"),
    ("[1, 2", "1:6", "unclosed array"),
    ("{\"a\": [1]", "1:10", "unclosed object"),
    ("1 2", "1:3", "after the end of the JSON value"),
    ("{\"本\": ?}", "1:7", "expected a value, found '?'"),
  ])
  func reportsSyntaxErrorsWhereTheyAre(_ text: String, _ position: String, _ fragment: String) {
    do {
      let node = try JSONParser.parse(text)
      Issue.record("parsed \(node)")
    } catch {
      #expect(error.position.description == position, "\(error)")
      #expect(error.message.contains(fragment), "\(error)")
      #expect(!error.isEncodingError)
      #expect(throws: error) { try JSONParser.value(Array(text.utf8)) }
    }
  }

  @Test(arguments: [
    [0x22, 0xFF, 0x22] as [UInt8],  // a byte that never starts UTF-8
    [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
    [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
    [0x22, 0xE6, 0x9C, 0x22],  // truncated 本
    [0x5B, 0xE6, 0x9C, 0xAC, 0x5D],  // 本 outside a string
  ])
  func reportsInvalidUTF8AtItsByte(_ bytes: [UInt8]) {
    do {
      _ = try JSONParser.parse(bytes)
      Issue.record("parsed invalid input")
    } catch {
      #expect(error.position.offset == 1, "\(error)")
      #expect(throws: error) { try JSONParser.value(bytes) }
    }
  }

  @Test func invalidUTF8InsideAStringIsAnEncodingError() {
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    do { _ = try JSONParser.parse([0x22, 0x41, 0xFF, 0x22]) } catch {
      #expect(error.isEncodingError)
      #expect(error.message.hasPrefix("invalid UTF-8"))
      #expect(error.position.description == "1:3")
    }
  }

  @Test func invalidUTF8IsFoundWhereverItIs() {
    // After a syntax error, and on a later line after Japanese text: the encoding comes first.
    let bytes = Array("{\n  \"本\": [1,, 2],\n  \"x\": \"".utf8) + [0xE6, 0x9C] + Array("\"\n}".utf8)
    do {
      _ = try JSONParser.parse(bytes)
      Issue.record("parsed invalid input")
    } catch {
      #expect(error.isEncodingError)
      #expect(error.position.line == 2)
      #expect(error.position.column == 8)
      #expect(throws: error) { try JSONParser.value(bytes) }
    }
  }

  @Test func refusesHostileNesting() {
    let deep = String(repeating: "[", count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    #expect(throws: Never.self) { try JSONParser.parse(fine) }
  }

  /// The value-only parse reads what the placed parse reads, value for value, and fails where
  /// it fails with the same message; only the ranges are left out.
  @Test(arguments: [
    #"{"a": [1, -0, 12.5, 1e3, -9223372036854775808, 9223372036854775808, true, false, null], "b": {"c": "本\n😀"}}"#,
    "\u{FEFF}[\"x\"]",
    "  {\n \"鍵\" : \"値\" ,\n \"k\": [ ]\n }\n",
    "[\"\u{FEFF}\", 1]\n\n  x",
    "{\n  \"本\": \"いっぽん\",\n  \"x\": tru }",
    "[\"長い長い長い長い文字列\", \"😀😀😀😀\", 1.]",
  ])
  func valuesAgreeWithThePlacedParse(_ text: String) {
    let bytes = Array(text.utf8)
    switch (
      Result { () throws(JSONSyntaxError) in try JSONParser.parse(bytes) },
      Result { () throws(JSONSyntaxError) in try JSONParser.value(bytes) }
    ) {
    case (.success(let node), .success(let value)): #expect(JSON(node) == value)
    case (.failure(let placed), .failure(let bare)): #expect(placed == bare)
    case (let placed, let bare): Issue.record("\(placed) against \(bare)")
    }
  }

  /// Whole literals that fit Int64 are integers; 2^63 to 2^64−1 (a seed) stay exact as
  /// unsigned; anything else, past 2^64 or with a point or an exponent, is a double.
  @Test func integersThatFitAreIntegersAndOthersAreDoubles() throws {
    #expect(
      try JSONParser.value(
        Array(
          "[-9223372036854775808, 9223372036854775807, 9223372036854775808, 18446744073709551615, 18446744073709551616, -9223372036854775809, 1e3, -0]"
            .utf8))
        == [
          .integer(.min), .integer(.max), .unsigned(9_223_372_036_854_775_808), .unsigned(.max),
          .double(18_446_744_073_709_551_616), .double(-9_223_372_036_854_775_809), .double(1000), .integer(0),
        ])
    #expect(JSON.unsigned(.max).serialized == "18446744073709551615")
    #expect(JSON.double(5).unsignedValue == 5 && JSON.double(1000).unsignedValue == 1000)
    #expect(JSON.double(1.5).unsignedValue == nil && JSON.integer(-1).unsignedValue == nil)
    #expect(JSON.double(18_446_744_073_709_551_616).numberDescription == "a number of 2^64 or more")
    #expect(JSON.double(9_223_372_036_854_775_808).numberDescription == "9223372036854775808")
  }
}
