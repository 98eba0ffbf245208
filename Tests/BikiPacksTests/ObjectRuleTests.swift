import BikiCore
import BikiJSON
import Testing

@testable import BikiPacks

/// The "which counter?" objects as pack authors can get them wrong.
@Suite struct ObjectRuleTests {
  /// A pack with these objects and one topic counting them.
  static func pack(objects: String, variables: String, parts: String, answer: String = "n") -> String {
    """
    {
      "format": 1, "id": "things", "title": "Things", "version": "1",
      "objects": \(objects),
      "topics": [
        {
          "id": "t", "title": "T", "description": "d", "category": "counter", "skills": ["counter"],
          "variables": \(variables),
          "question": { "parts": \(parts), "answer": { "value": "\(answer)" } }
        }
      ]
    }
    """
  }

  static let things =
    #"[{ "name": "鉛筆", "reading": "えんぴつ", "counters": ["本"] }, { "name": "猫", "reading": "ねこ", "counters": ["匹"] }]"#
  static let counted = #"{ "number": "n", "counter": "o" }"#

  /// `line:column` (1-based) of the first occurrence of `needle` at or after `after`.
  static func place(of needle: String, in text: String, after: String? = nil) -> String {
    let from = after.flatMap { text.range(of: $0)?.upperBound } ?? text.startIndex
    guard let found = text.range(of: needle, range: from..<text.endIndex) else { return "?" }
    let before = text[..<found.lowerBound]
    let line = before.filter { $0 == "\n" }.count + 1
    let column =
      before.count - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
    return "\(line):\(column)"
  }

  static func found(_ compilation: PackCompilation) -> [String] {
    compilation.diagnostics.map { "\($0.range.start) \($0.rule)" }
  }

  static let objectsAndCount = #"{ "o": { "objects": ["鉛筆", "猫"] }, "n": { "range": { "min": 1, "max": 9 } }"#

  /// As a number, an `objects` or `counters` variable would be its position in the list: a
  /// question showing "0" with nothing to count. The error is at the string that uses it: the
  /// first `value` after `key`.
  @Test(arguments: [
    (
      "a number part's value", objectsAndCount + " }", #"[\#(counted), { "number": "o" }]"#, "n", #"}, { "number": "#,
      #""o""#
    ),
    ("the answer", objectsAndCount + " }", "[\(counted)]", "o + 1", #""value": "#, #""o + 1""#),
    (
      "a derived variable", objectsAndCount + #", "m": { "derive": "n * o" } }"#, "[\(counted), { \"number\": \"m\" }]",
      "n", #""derive": "#, #""n * o""#
    ),
    ("a money part", objectsAndCount + " }", #"[\#(counted), { "money": "o" }]"#, "n", #""money": "#, #""o""#),
    (
      "a counters variable as the answer", objectsAndCount + #", "c": { "counters": ["本", "枚"] } }"#,
      #"[\#(counted), { "number": "n", "counter": "c" }]"#, "c", #""value": "#, #""c""#
    ),
  ])
  func aThingOrACounterUsedAsANumberIsTheWrongKind(
    _ name: String, _ variables: String, _ parts: String, _ answer: String, _ key: String, _ value: String
  ) {
    let text = Self.pack(objects: Self.things, variables: variables, parts: parts, answer: answer)
    let compilation = PackFixtures.compile(text)
    #expect(
      Self.found(compilation) == ["\(Self.place(of: value, in: text, after: key)) wrong-variable-kind"],
      "\(name): \(compilation.diagnostics)")
    let message = compilation.diagnostics.first?.message ?? ""
    #expect(message.contains("not a number"), "\(message)")
    #expect(message.contains(answer == "c" ? "is a counters variable" : "is an objects variable"), "\(message)")
    #expect(compilation.topics.isEmpty)
  }

  @Test func usedAsTheCounterAndCountedByARangeIsFine() {
    let text = Self.pack(
      objects: Self.things,
      variables: #"{ "o": { "objects": ["鉛筆", "猫"] }, "n": { "range": { "min": 1, "max": 9 } } }"#,
      parts: "[\(Self.counted)]")
    let compilation = PackFixtures.compile(text)
    #expect(Self.found(compilation) == [])
    #expect(compilation.topics.count == 1)
  }

  /// The answer shown after a miss gives every counter of the thing: a counter listed 1,000
  /// times made a line of 28,011 characters.
  /// `uncommon` counters are counters too: each once among them all, and each one Biki knows.
  @Test func anUncommonCounterIsListedOnceAndKnown() {
    let objects = """
      [
        { "name": "鉛筆", "reading": "えんぴつ", "counters": ["本"], "uncommon": ["本"] },
        { "name": "猫", "reading": "ねこ", "counters": ["匹"], "uncommon": ["ほげ"] }
      ]
      """
    let text = Self.pack(
      objects: objects,
      variables: #"{ "o": { "objects": ["鉛筆", "猫"] }, "n": { "range": { "min": 1, "max": 9 } } }"#,
      parts: "[\(Self.counted)]")
    let compilation = PackFixtures.compile(text)
    #expect(
      Self.found(compilation) == [
        "\(Self.place(of: #""本""#, in: text, after: #""uncommon": ["#)) duplicate-value",
        "\(Self.place(of: #""ほげ""#, in: text)) unknown-counter",
      ], "\(compilation.diagnostics)")
    #expect(compilation.topics.isEmpty)
  }

  @Test func aThingListsEachCounterOnceAndAtMostEight() {
    let repeated = Array(repeating: #""本""#, count: 1000).joined(separator: ", ")
    let nine = ["個", "つ", "本", "枚", "冊", "台", "回", "階", "匹"].map { "\"\($0)\"" }.joined(separator: ", ")
    let eight = ["個", "つ", "本", "枚", "冊", "台", "回", "階"].map { "\"\($0)\"" }.joined(separator: ", ")
    let objects = """
      [
        { "name": "鉛筆", "reading": "えんぴつ", "counters": [\(repeated)] },
        { "name": "猫", "reading": "ねこ", "counters": ["匹", "羽", "匹"] },
        { "name": "卵", "reading": "たまご", "counters": [\(nine)] },
        { "name": "箱", "reading": "はこ", "counters": [\(eight)] }
      ]
      """
    let text = Self.pack(
      objects: objects,
      variables: #"{ "o": { "objects": ["鉛筆", "猫", "卵", "箱"] }, "n": { "range": { "min": 1, "max": 9 } } }"#,
      parts: "[\(Self.counted)]")
    let compilation = PackFixtures.compile(text)
    #expect(
      Self.found(compilation) == [
        "\(Self.place(of: #"["本", "本""#, in: text)) too-many-counters",
        "\(Self.place(of: #""本""#, in: text, after: #"["本", "#)) duplicate-value",
        "\(Self.place(of: #""匹""#, in: text, after: #""羽", "#)) duplicate-value",
        "\(Self.place(of: #"["個", "つ""#, in: text)) too-many-counters",
      ], "\(compilation.diagnostics)")
    let messages = compilation.diagnostics.map(\.message)
    #expect(messages.contains("counter \"本\" is listed 1000 times for \"鉛筆\"; list each counter the thing takes once"))
    #expect(messages.contains("counter \"匹\" is listed twice for \"猫\"; list each counter the thing takes once"))
    #expect(messages.contains { $0.hasPrefix("\"卵\" lists 9 counters; an object takes at most 8") })
    #expect(compilation.topics.isEmpty)
  }

  /// By id and by symbol, one counter is still one: reported once, however many topics count
  /// the thing, and none of them is served.
  @Test func oneCounterByTwoNamesIsListedTwice() {
    let topic =
      #"{ "id": "%@", "title": "T", "description": "d", "category": "counter", "skills": ["counter"], "variables": { "o": { "objects": ["猫"] }, "n": { "range": { "min": 1, "max": 20 } } }, "question": { "parts": [{ "number": "n", "counter": "o" }], "answer": { "value": "n" } } }"#
    let text = """
      {
        "format": 1, "id": "things", "title": "Things", "version": "1",
        "objects": [{ "name": "猫", "reading": "ねこ", "counters": ["匹", "hiki"] }],
        "topics": [\(topic.replacingOccurrences(of: "%@", with: "a")), \(topic.replacingOccurrences(of: "%@", with: "b"))]
      }
      """
    let compilation = PackFixtures.compile(text)
    #expect(
      Self.found(compilation) == ["\(Self.place(of: #""hiki""#, in: text)) duplicate-value"],
      "\(compilation.diagnostics)")
    #expect(
      compilation.diagnostics.first?.message
        == "\"hiki\" and \"匹\" are the same counter; list each counter \"猫\" takes once")
    #expect(compilation.topics.isEmpty)
  }

  /// An object is checked where it is declared, counted or not: one whose counter is unknown is
  /// an error at that counter before any topic uses it, and once however many topics do; the
  /// topics that count other things still serve.
  @Test func anUnknownCounterIsAnErrorWhetherOrNotATopicCountsTheThing() {
    let objects =
      #"[{ "name": "鉛筆", "reading": "えんぴつ", "counters": ["本"] }, { "name": "謎", "reading": "なぞ", "counters": ["ぬ"] }]"#
    let unused = Self.pack(
      objects: objects, variables: #"{ "o": { "objects": ["鉛筆"] }, "n": { "range": { "min": 1, "max": 20 } } }"#,
      parts: "[\(Self.counted)]")
    let compilation = PackFixtures.compile(unused)
    #expect(Self.found(compilation) == ["\(Self.place(of: #""ぬ""#, in: unused)) unknown-counter"])
    #expect(
      compilation.diagnostics.first?.message == #"unknown counter "ぬ"; declare it in the pack's "counters""#)
    #expect(compilation.topics.map(\.topic.id) == ["things.t"])

    let countedTwice = unused.replacingOccurrences(of: #""objects": ["鉛筆"]"#, with: #""objects": ["謎", "謎"]"#)
    let twice = PackFixtures.compile(countedTwice)
    #expect(Self.found(twice).filter { $0.hasSuffix("unknown-counter") }.count == 1, "\(twice.diagnostics)")
    #expect(twice.topics.isEmpty)
  }

  /// Things are looked up by name: 20,000 of them, the last one repeated, compile with every
  /// name found and the repeat placed; each lookup used to scan every thing.
  @Test func manyThingsAreFoundByName() {
    let count = 20_000
    let objects =
      (0..<count).map { #"{ "name": "物\#($0)", "reading": "もの", "counters": ["個"] }"# } + [
        #"{ "name": "物\#(count - 1)", "reading": "もの", "counters": ["個"] }"#
      ]
    let names = (0..<count).map { "\"物\($0)\"" }.joined(separator: ", ")
    let text = Self.pack(
      objects: "[\n" + objects.joined(separator: ",\n") + "\n]",
      variables: #"{ "o": { "objects": [\#(names), "物x"] }, "n": { "range": { "min": 1, "max": 1 } } }"#,
      parts: "[\(Self.counted)]")
    let compilation = PackCompiler.compile(Array(text.utf8), check: .sample(2))
    #expect(
      compilation.diagnostics.map(\.rule) == ["duplicate-object", "unknown-object"],
      "\(compilation.diagnostics.prefix(3))")
    #expect(
      compilation.diagnostics.first?.message
        == "object \"物\(count - 1)\" is already declared at line \(count + 3) of this pack")
    #expect(compilation.pack?.things.count == count)
  }
}
