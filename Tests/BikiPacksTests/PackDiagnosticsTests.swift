import BikiJSON
import Testing

@testable import BikiPacks

/// A corpus of broken packs, one per rule, each asserting the exact rule id and position
/// (1-based line:column, as `biki-pack lint` prints them).
@Suite struct PackDiagnosticsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    /// "line:col rule" for every diagnostic expected, in order.
    var expected: [String]
    var testDescription: String { name }
  }

  static func topic(_ replacements: [(String, String)], counters: String = "[]") -> String {
    var topic = PackFixtures.validTopic
    for (old, new) in replacements { topic = topic.replacingOccurrences(of: old, with: new) }
    return PackFixtures.pack(topic: topic, counters: counters)
  }

  static let cases: [Case] = [
    Case(
      name: "invalid JSON", text: "{\n  \"format\": 1,\n  \"id\": \"x\"\n  \"title\": \"T\"\n}",
      expected: ["4:3 json-syntax"]),
    // Its text is replaced below with raw bytes.
    Case(name: "invalid UTF-8", text: "{\"format\": 1, \"id\": \"\u{FFFF}\"}", expected: []),
    Case(
      name: "unsupported format",
      text: PackFixtures.pack(topic: PackFixtures.validTopic).replacingOccurrences(
        of: "\"format\": 1", with: "\"format\": 2"),
      expected: ["2:13 format-version"]),
    Case(
      name: "unknown key with a suggestion",
      text: topic([("\"title\": \"本\"", "\"titel\": \"本\"")]),
      expected: ["7:14 missing-key", "9:3 unknown-key"]),
    Case(name: "wrong type", text: topic([("\"min\": 1,", "\"min\": \"1\",")]), expected: ["13:43 wrong-type"]),
    Case(
      name: "reversed range", text: topic([("\"min\": 1, \"max\": 100", "\"min\": 100, \"max\": 1")]),
      expected: ["13:34 range-reversed"]),
    Case(
      name: "step that does not divide the range",
      text: topic([("\"max\": 100 }", "\"max\": 100, \"step\": 7 }")]), expected: ["13:66 range-step"]),
    Case(
      name: "undefined variable",
      text: topic([("\"number\": \"n\"", "\"number\": \"m\"")]), expected: ["14:39 undefined-variable"]),
    Case(
      name: "unknown counter",
      text: topic([("\"counter\": \"本\"", "\"counter\": \"犬\"")]), expected: ["14:55 unknown-counter"]),
    Case(
      name: "ambiguous counter",
      text: topic([("\"counter\": \"本\"", "\"counter\": \"日\"")]), expected: ["14:55 ambiguous-counter"]),
    Case(
      name: "unreadable value",
      text: topic([("\"counter\": \"本\"", "\"counter\": \"つ\""), ("\"postfix\": \"本\"", "\"postfix\": \"つ\"")]),
      expected: ["14:27 unreadable-value"]),
    Case(
      name: "missing description", text: topic([("\"description\": \"Counting long things.\",", "")]),
      expected: ["8:3 missing-description"]),
    Case(
      name: "few questions", text: topic([("\"max\": 100", "\"max\": 3")]), expected: ["8:9 few-questions"]),
    Case(
      name: "duplicate topic id",
      text: PackFixtures.pack(topic: PackFixtures.validTopic + ",\n" + PackFixtures.validTopic),
      expected: ["17:9 duplicate-topic-id"]),
    Case(
      name: "expression syntax",
      text: topic([("\"value\": \"n\"", "\"value\": \"n +\"")]), expected: ["14:88 expression-syntax"]),
    Case(
      name: "invalid kana in a text part",
      text: topic([
        (
          "{ \"number\": \"n\", \"counter\": \"本\" }",
          "{ \"text\": \"x\", \"reading\": \"ex\" }, { \"number\": \"n\", \"counter\": \"本\" }"
        )
      ]),
      expected: ["14:53 invalid-kana"]),
    Case(
      name: "unknown skill", text: topic([("\"kana\"]", "\"kanji\"]")]), expected: ["12:38 invalid-value"]),
    Case(
      name: "derive cycle",
      text: topic([
        (
          "{ \"n\": { \"range\": { \"min\": 1, \"max\": 100 } } }",
          "{ \"n\": { \"range\": { \"min\": 1, \"max\": 100 } }, \"a\": { \"derive\": \"b + 1\" }, \"b\": { \"derive\": \"a\" } }"
        )
      ]),
      expected: ["13:79 derive-cycle", "13:107 derive-cycle"]),
    Case(
      name: "duplicate key", text: topic([("\"title\": \"本\",", "\"title\": \"本\", \"title\": \"x\",")]),
      expected: ["9:17 duplicate-key"]),
    Case(
      name: "conflicting keys",
      text: topic([
        (
          "{ \"range\": { \"min\": 1, \"max\": 100 } }",
          "{ \"range\": { \"min\": 1, \"max\": 100 }, \"derive\": \"1\" }"
        )
      ]),
      expected: ["13:18 conflicting-keys"]),
    Case(name: "invalid id", text: topic([("\"id\": \"hon\"", "\"id\": \"Hon\"")]), expected: ["8:9 invalid-id"]),
    Case(
      name: "empty list", text: topic([("\"skills\": [\"listening\", \"reading\", \"kana\"]", "\"skills\": []")]),
      expected: ["12:13 empty-list"]),
    Case(
      name: "duplicate value", text: topic([("\"kana\"]", "\"kana\", \"kana\"]")]), expected: ["12:46 duplicate-value"]),
    Case(
      name: "wrong variable kind",
      text: topic([
        (
          "{ \"number\": \"n\", \"counter\": \"本\" }",
          "{ \"choice\": \"n\" }, { \"number\": \"n\", \"counter\": \"本\" }"
        )
      ]),
      expected: ["14:39 wrong-variable-kind"]),
    Case(
      name: "parameter target",
      text: topic([
        (
          "\"variables\"",
          "\"parameters\": { \"top\": { \"target\": \"n.top\", \"min\": 1, \"max\": 5 } },\n  \"variables\""
        )
      ]),
      expected: ["13:38 parameter-target"]),
    Case(
      name: "parameter default",
      text: topic([
        (
          "\"variables\"",
          "\"parameters\": { \"max\": { \"target\": \"n.max\", \"min\": 1, \"max\": 50 } },\n  \"variables\""
        )
      ]),
      expected: ["13:19 parameter-default"]),
    Case(
      name: "duplicate counter id",
      text: topic(
        [],
        counters:
          "[{ \"id\": \"saku\", \"symbols\": [\"柵\"], \"reading\": \"さく\" }, { \"id\": \"saku\", \"symbols\": [\"柵\"], \"reading\": \"さく\" }]"
      ),
      expected: ["6:77 duplicate-counter-id"]),
  ]

  @Test(arguments: cases.filter { $0.name != "invalid UTF-8" })
  func reportsEachRuleWhereItApplies(_ testCase: Case) {
    let compilation = PackFixtures.compile(testCase.text)
    let found = compilation.diagnostics.map { "\($0.range.start) \($0.rule)" }
    #expect(found == testCase.expected, "\(compilation.diagnostics.map(\.message))")
  }

  @Test func invalidUTF8IsReportedAtItsByte() {
    let bytes = Array("{\"format\": 1, \"id\": \"a".utf8) + [0xFF] + Array("\"}".utf8)
    let compilation = PackCompiler.compile(bytes)
    #expect(compilation.diagnostics.map { "\($0.range.start) \($0.rule)" } == ["1:23 invalid-utf8"])
  }

  @Test func unknownKeysSuggestTheClosestKey() {
    let compilation = PackFixtures.compile(Self.topic([("\"title\": \"本\"", "\"titel\": \"本\"")]))
    #expect(
      compilation.diagnostics.contains { $0.message == "unknown key \"titel\" in a topic; did you mean \"title\"?" })
  }

  @Test func severalProblemsInOneFileAreAllReported() {
    let text = Self.topic([
      ("\"title\": \"本\"", "\"titel\": \"本\""), ("\"counter\": \"本\"", "\"counter\": \"犬\""),
      ("\"min\": 1, \"max\": 100", "\"min\": 100, \"max\": 1"),
    ])
    let rules = PackFixtures.compile(text).diagnostics.map(\.rule)
    #expect(rules == ["missing-key", "unknown-key", "range-reversed", "unknown-counter"])
  }

  @Test func aTopicWithDecodingErrorsIsNeverServed() {
    let compilation = PackFixtures.compile(
      Self.topic([("\"skills\": [\"listening\", \"reading\", \"kana\"]", "\"skills\": []")]))
    #expect(compilation.topics.isEmpty)
  }

  @Test func aBrokenTopicDoesNotHideTheOthers() {
    let broken = PackFixtures.validTopic.replacingOccurrences(of: "\"hon\"", with: "\"broken\"")
      .replacingOccurrences(of: "\"counter\": \"本\"", with: "\"counter\": \"犬\"")
    let compilation = PackFixtures.compile(PackFixtures.pack(topic: broken + ",\n" + PackFixtures.validTopic))
    #expect(compilation.hasErrors)
    #expect(compilation.topics.map(\.topic.id) == ["test.hon"])
  }

  @Test func positionsCountJapaneseAndEmojiInUTF16ForEditors() {
    // On line 14, after `{ "text": "😀本", …`: the emoji is one scalar but two UTF-16 units.
    let text = Self.topic([
      ("{ \"number\"", "{ \"text\": \"😀本\", \"reading\": \"ほん\" }, { \"number\""),
      ("\"counter\": \"本\"", "\"counter\": \"犬\""),
    ])
    let diagnostic = PackFixtures.compile(text).diagnostics.first { $0.rule == "unknown-counter" }
    #expect(diagnostic?.range.start.line == 13)
    #expect(diagnostic?.range.start.column == 89)
    #expect(diagnostic?.range.start.utf16Column == 90)
  }
}
