import BikiCore
import Testing

@testable import BikiPacks

/// Packs written to break the compiler: extreme numbers, deep expressions, misused functions,
/// huge spaces and repeated mistakes. Each is a positioned diagnostic, the topic is not
/// served, and the process goes on.
@Suite struct HostilePackTests {
  /// A pack around one topic with these variables, parts and answer.
  static func pack(variables: String, parts: String = #"[{ "number": "n" }]"#, answer: String = "n", extra: String = "")
    -> String
  {
    PackFixtures.pack(
      topic: """
        {
          "id": "t", "title": "T", "description": "d", "category": "number", "skills": ["reading"],\(extra)
          "variables": \(variables),
          "question": { "parts": \(parts), "answer": { "value": "\(answer)" } }
        }
        """)
  }

  static let small = #""n": { "range": { "min": 1, "max": 10 } }"#

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var rule: String
    /// Part of the message a pack author reads.
    var fragment: String
    var testDescription: String { name }
  }

  static let int64Max = "9223372036854775807"
  static let cases: [Case] = [
    Case(
      name: "a range across the whole Int64 line",
      text: pack(variables: #"{ "n": { "range": { "min": -9223372036854775807, "max": 9223372036854775807 } } }"#),
      rule: "space-too-large", fragment: "more possible questions than can be counted"),
    Case(
      name: "a range of 2^63 values",
      text: pack(variables: #"{ "n": { "range": { "min": 0, "max": \#(int64Max) } } }"#),
      rule: "space-too-large", fragment: "narrow its variables"),
    Case(
      name: "a step that does not divide an extreme range",
      text: pack(variables: #"{ "n": { "range": { "min": 0, "max": \#(int64Max), "step": 10 } } }"#),
      rule: "range-step", fragment: "end it at 9223372036854775800"),
    Case(
      name: "spaces whose product overflows",
      text: pack(
        variables:
          #"{ "a": { "range": { "min": 0, "max": 4000000000 } }, "b": { "range": { "min": 0, "max": 4000000000 } }, \#(small) }"#
      ),
      rule: "space-too-large", fragment: "narrow its variables"),
    Case(
      name: "100,000 unary minus signs",
      text: pack(variables: #"{ \#(small), "d": { "derive": "\#(String(repeating: "-", count: 100_000))n" } }"#),
      rule: "expression-syntax", fragment: "more than 100 operations deep"),
    Case(
      name: "a sum of 100,000 terms",
      text: pack(
        variables:
          #"{ \#(small), "d": { "derive": "\#(Array(repeating: "n", count: 100_000).joined(separator: "+"))" } }"#),
      rule: "expression-syntax", fragment: "split it into derived variables"),
    Case(
      name: "parentheses 10,000 deep",
      text: pack(
        variables:
          #"{ \#(small), "d": { "derive": "\#(String(repeating: "(", count: 10_000))n\#(String(repeating: ")", count: 10_000))" } }"#
      ),
      rule: "expression-syntax", fragment: "more than 100 operations deep"),
    Case(
      name: "a function called with a number",
      text: pack(variables: #"{ \#(small), "d": { "derive": "gregorian(1)" } }"#),
      rule: "expression-syntax", fragment: "gregorian() takes one argument: the name of an eraYear variable"),
    Case(
      name: "a function called with two arguments",
      text: pack(
        variables: #"{ \#(small), "y": { "eraYear": { "eras": ["昭和"] } }, "d": { "derive": "eraYear(y, n)" } }"#),
      rule: "expression-syntax", fragment: "eraYear() takes one argument"),
    Case(
      name: "nested calls",
      text: pack(
        variables:
          #"{ \#(small), "y": { "eraYear": { "eras": ["昭和"] } }, "d": { "derive": "gregorian(gregorian(y))" } }"#),
      rule: "expression-syntax", fragment: "takes one argument"),
    Case(
      name: "a call on a range variable, as the answer",
      text: pack(variables: #"{ \#(small), "y": { "eraYear": { "eras": ["昭和"] } } }"#, answer: "gregorian(n)"),
      rule: "wrong-variable-kind", fragment: "\"n\" is a range variable"),
    Case(
      name: "a literal too large for Int64",
      text: pack(variables: #"{ \#(small), "d": { "derive": "n + 99999999999999999999" } }"#),
      rule: "expression-syntax", fragment: "too large for a 64-bit integer"),
    Case(
      name: "an open era through a year 4 exabytes away",
      text: pack(
        variables: #"{ "y": { "eraYear": { "eras": ["令和"], "through": 9000000000000000000 } } }"#,
        parts: #"[{ "eraYear": "y" }]"#,
        answer: "eraYear(y)"),
      rule: "invalid-value", fragment: "past 9999"),
    Case(
      name: "a parameter whose min is above its max",
      text: pack(
        variables: "{ \(small) }", extra: #" "parameters": { "max": { "target": "n.max", "min": 20, "max": 5 } },"#),
      rule: "range-reversed", fragment: "min 20 above max 5"),
    Case(
      name: "a text part whose reading disagrees with its text",
      text: pack(variables: "{ \(small) }", parts: #"[{ "text": "8本", "reading": "いっぽん" }, { "number": "n" }]"#),
      rule: "reading-mismatch", fragment: "is read はっぽん or はちほん, not いっぽん"),
    Case(
      name: "a choice whose reading disagrees with its text",
      text: pack(
        variables:
          #"{ "m": { "choice": [{ "text": "4月", "reading": "よんがつ", "value": 4 }, { "text": "5月", "reading": "ごがつ", "value": 5 }] } }"#,
        parts: #"[{ "choice": "m" }]"#, answer: "m"),
      rule: "reading-mismatch", fragment: "\"4月\" is read しがつ"),
  ]

  static func counterPack(_ counter: String) -> String {
    PackFixtures.pack(
      topic: #"""
        { "id": "t", "title": "T", "description": "d", "category": "counter", "skills": ["kana"],
          "variables": { "n": { "range": { "min": 1, "max": 10 } } },
          "question": { "parts": [{ "number": "n", "counter": "x" }], "answer": { "value": "n" } } }
        """#, counters: "[\(counter)]")
  }

  static let semanticCases: [Case] = [
    Case(
      name: "a counter reading with a combining sound mark",
      text: counterPack(#"{ "id": "x", "symbols": ["個目"], "reading": "ろく\#u{309A}" }"#),
      rule: "invalid-kana", fragment: "combining sound mark"),
    Case(
      name: "a counter reading in katakana",
      text: counterPack(#"{ "id": "x", "symbols": ["個目"], "reading": "コメ" }"#),
      rule: "invalid-kana", fragment: "must be written in hiragana: \"こめ\""),
    Case(
      name: "a counter with an empty symbol",
      text: counterPack(#"{ "id": "x", "symbols": [""], "reading": "こ" }"#),
      rule: "invalid-value", fragment: "symbol \"\" must be written text"),
    Case(
      name: "a counter symbol with a numeral in it",
      text: counterPack(#"{ "id": "x", "symbols": ["万個"], "reading": "こ" }"#),
      rule: "invalid-value", fragment: "no spaces, digits or numerals"),
    Case(
      name: "independent months and days",
      text: pack(
        variables: #"{ "m": { "range": { "min": 1, "max": 12 } }, "d": { "range": { "min": 1, "max": 31 } } }"#,
        parts: #"[{ "number": "m", "counter": "month" }, { "number": "d", "counter": "dayOfMonth" }]"#, answer: "d"),
      rule: "unreadable-value", fragment: "2月30日 is not a date: 2月 has 29 days"),
    Case(
      name: "an era year with months it never had",
      text: pack(
        variables:
          #"{ "y": { "eraYear": { "eras": ["令和"], "through": 2021 } }, "m": { "range": { "min": 1, "max": 12 } } }"#,
        parts: #"[{ "eraYear": "y" }, { "number": "m", "counter": "month" }]"#, answer: "m"),
      rule: "unreadable-value", fragment: "令和元年1月 did not exist"),
  ]

  @Test(arguments: semanticCases)
  func semanticHolesAreErrors(_ testCase: Case) {
    becomesADiagnosticAndTheTopicIsNotServed(testCase)
  }

  @Test func formsThatCanNeverApplyAreWarnedAbout() {
    let compilation = PackFixtures.compile(
      Self.counterPack(
        #"{ "id": "x", "symbols": ["柵目"], "reading": "さくめ", "final": { "11": "じゅういっこめ" }, "whole": { "20": "はつかめ" }, "values": { "min": 1, "max": 10 } }"#
      ))
    #expect(compilation.diagnostics.map(\.rule) == ["unused-form", "unused-form"])
    #expect(compilation.diagnostics.allSatisfy { $0.severity == .warning })
    #expect(compilation.diagnostics.first?.message.contains("final form 11 never applies") == true)
    #expect(compilation.diagnostics.last?.message.contains("the counter's values are 1–10") == true)
  }

  @Test func datesThatExistAreServed() throws {
    let text = Self.pack(
      variables:
        #"{ "y": { "eraYear": { "eras": ["令和"], "through": 2021 } }, "m": { "range": { "min": 5, "max": 12 } } }"#,
      parts: #"[{ "eraYear": "y" }, { "number": "m", "counter": "month" }]"#, answer: "m")
    let compilation = PackFixtures.compile(text)
    #expect(!compilation.hasErrors, "\(compilation.diagnostics.map(\.message))")
  }

  @Test(arguments: cases)
  func becomesADiagnosticAndTheTopicIsNotServed(_ testCase: Case) {
    let compilation = PackFixtures.compile(testCase.text)
    let errors = compilation.diagnostics.filter { $0.severity == .error }
    #expect(errors.map(\.rule) == [testCase.rule], "\(errors.map(\.message))")
    #expect(errors.first?.message.contains(testCase.fragment) == true, "\(errors.map(\.message))")
    #expect(compilation.topics.isEmpty)
    // A message quotes at most a short excerpt, however long the input.
    #expect(errors.allSatisfy { $0.message.count < 300 }, "\(errors.map(\.message.count))")
  }

  @Test func aTextWhoseReadingAgreesWithTheHostsIsClean() {
    let text = Self.pack(
      variables: "{ \(Self.small) }",
      parts: #"[{ "text": "8本", "reading": "はちほん" }, { "text": "と", "reading": "と" }, { "number": "n" }]"#)
    #expect(!PackFixtures.compile(text).hasErrors)
  }

  @Test func anExpressionAtTheDepthLimitCompiles() throws {
    let terms = Array(repeating: "n", count: 100).joined(separator: "+")
    let compilation = PackFixtures.compile(
      Self.pack(variables: #"{ \#(Self.small), "d": { "derive": "\#(terms)" } }"#, answer: "d"))
    #expect(!compilation.hasErrors, "\(compilation.diagnostics.map(\.message))")
    #expect(try compilation.topics.first?.generator().question(seed: 0).answer.value == 100)
  }

  @Test func overflowAtGenerationIsAnErrorNotATrap() {
    let variables = #"{ "n": { "range": { "min": 1, "max": 10 } }, "d": { "derive": "n * 9223372036854775807" } }"#
    let compilation = PackFixtures.compile(Self.pack(variables: variables, answer: "d"))
    #expect(compilation.diagnostics.map(\.rule) == ["unreadable-value"])
    #expect(compilation.diagnostics.first?.message.contains("overflows a 64-bit integer") == true)
  }

  @Test func threeThousandChainedDerivesCompileInAnyOrder() throws {
    // Written last to first, so every variable is defined after the one that reads it.
    var variables = (1...3000).reversed().map { #""v\#($0)": { "derive": "v\#($0 - 1) + 1" }"# }
    variables.append(#""v0": { "range": { "min": 1, "max": 10 } }"#)
    let compilation = PackFixtures.compile(
      Self.pack(
        variables: "{ \(variables.joined(separator: ", ")) }", parts: #"[{ "number": "v3000" }]"#, answer: "v3000"))
    #expect(!compilation.hasErrors, "\(compilation.diagnostics.prefix(3).map(\.message))")
    #expect(try compilation.topics.first?.generator().question(seed: 0).answer.value == 3001)
  }

  @Test func aNameRepeatedInOneExpressionIsReportedOnce() {
    let sum = Array(repeating: "missing", count: 50).joined(separator: "+")
    let compilation = PackFixtures.compile(Self.pack(variables: #"{ \#(Self.small), "d": { "derive": "\#(sum)" } }"#))
    #expect(compilation.diagnostics.map(\.rule) == ["undefined-variable"])
  }

  @Test func thousandsOfUnknownNamesAreAllReportedAndHintsStopAtTheAllowance() {
    let variables = (0..<3000).map { #""v\#($0)": { "derive": "unknownname\#($0)" }"# }.joined(separator: ", ")
    let compilation = PackFixtures.compile(Self.pack(variables: "{ \(Self.small), \(variables) }"))
    let undefined = compilation.diagnostics.filter { $0.rule == "undefined-variable" }
    #expect(undefined.count == 3000)
    #expect(undefined.filter { $0.message.contains("did you mean") }.count < 3000)
  }

  @Test func aLongCycleIsNamedBriefly() {
    let variables = (0..<1000).map { #""v\#($0)": { "derive": "v\#(($0 + 1) % 1000)" }"# }.joined(separator: ", ")
    let compilation = PackFixtures.compile(Self.pack(variables: "{ \(Self.small), \(variables) }"))
    let cycles = compilation.diagnostics.filter { $0.rule == "derive-cycle" }
    #expect(cycles.count == 1000)
    #expect(cycles.allSatisfy { $0.message.contains("1000 in the cycle") && $0.message.count < 200 })
  }

  @Test func readingChecksInOneFileAreSharedOutAndReported() {
    let topics = (0..<100).map { index in
      """
      { "id": "t\(index)", "title": "T", "description": "d", "category": "number", "skills": ["reading"],
        "variables": { "n": { "range": { "min": 0, "max": 1000000000000 } } },
        "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } } }
      """
    }
    let compilation = PackFixtures.compile(PackFixtures.pack(topic: topics.joined(separator: ",\n")))
    #expect(!compilation.hasErrors)
    #expect(compilation.topics.count == 100)
    #expect(compilation.readingCoverage.checked <= 250_000)
    #expect(compilation.readingCoverage.possible == 100 * 1_000_000_000_001)
    #expect(compilation.readingCoverage.isSample)
  }

  @Test func parametersThatWouldOverflowTheSpaceAreRefused() throws {
    let text = Self.pack(
      variables: "{ \(Self.small) }",
      extra:
        #" "parameters": { "min": { "target": "n.min", "min": -9223372036854775807, "max": 10 }, "max": { "target": "n.max", "min": 1, "max": 9223372036854775807 } },"#
    )
    let topic = try #require(PackFixtures.compile(text).topics.first)
    #expect(throws: ParameterError.self) {
      try topic.generator(parameters: ["min": -9_223_372_036_854_775_807, "max": Int64.max])
    }
    // The widest space that can be counted still generates, at both ends.
    let wide = try topic.generator(parameters: ["min": 0, "max": Int64.max - 1])
    #expect(try wide.question(seed: wide.spaceSize - 1).answer.value == Int64.max - 1)
    // Below zero, a number is read with マイナス.
    let negative = try topic.generator(parameters: ["min": -5, "max": 1])
    #expect(try negative.question(seed: 0).reading.standard == "まいなすご")
  }
}

/// The built-in drills' answers, after an independent audit of every topic.
@Suite struct BuiltInAnswerTests {
  static func topic(_ pack: String, _ id: String) throws -> QuestionGenerator {
    let compilation = PackCompiler.compile(try PackFixtures.builtIn(pack), check: .sample(4))
    return try #require(compilation.topics.first { $0.topic.id == "\(pack).\(id)" }).generator()
  }

  @Test func mixedCountersAcceptOnlyTheCounterShown() throws {
    let mixed = try Self.topic("counters", "mixed")
    var checked = 0
    for seed in 0..<mixed.spaceSize {
      let question = try mixed.question(seed: seed)
      let value = question.answer.value
      let shown = String(question.display.drop { $0.isNumber })
      #expect(
        AnswerChecker.check("\(value)\(shown)", against: question, skill: .reading).isCorrect, "\(question.display)")
      for other in ["本", "匹", "通"] where other != shown {
        #expect(
          !AnswerChecker.check("\(value)\(other)", against: question, skill: .reading).isCorrect,
          "\(question.display) took \(other)")
      }
      checked += 1
    }
    #expect(checked > 100)
  }

  @Test func tenWithTsuIsWrittenAsTen() throws {
    let tsu = try Self.topic("counters", "tsu")
    let ten = try (0..<tsu.spaceSize).map { try tsu.question(seed: $0) }.first { $0.answer.value == 10 }
    #expect(ten?.display == "十")
    #expect(ten?.kanjiDisplay == "十")
    #expect(ten?.reading.description == "とお")
    #expect(try (0..<tsu.spaceSize).map { try tsu.question(seed: $0).display }.allSatisfy { !$0.contains("10") })
  }

  @Test func moneyTopicsAcceptEverySpellingOfYen() throws {
    let conbini = try Self.topic("money", "conbini")
    let question = try conbini.question(seed: 3)
    for input in ["\(question.answer.value)円", "¥\(question.answer.value)", "￥\(question.answer.value)"] {
      #expect(AnswerChecker.check(input, against: question, skill: .listening).isCorrect, "\(input)")
    }
  }
}
