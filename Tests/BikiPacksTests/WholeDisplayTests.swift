import BikiCore
import Testing

@testable import BikiPacks

/// A display is read whole and its answer compared by value and shape: packs that pass each
/// part's own check but teach a wrong answer or reading once the parts stand side by side, or
/// once the answer is named another way, are refused with the rule and where.
@Suite struct WholeDisplayTests {
  static func pack(variables: String, parts: String, answer: String, skills: String = #"["listening", "kana"]"#)
    -> String
  {
    PackFixtures.pack(
      topic: """
        { "id": "t", "title": "T", "description": "d", "category": "number", "skills": \(skills),
          "variables": \(variables),
          "question": { "parts": \(parts), "answer": \(answer) } }
        """)
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var rule: String
    var fragment: String
    var testDescription: String { name }
  }

  static let temperature = #"{ "t": { "range": { "min": 355, "max": 420 } } }"#
  static let cases: [Case] = [
    // The answer named another way than the part that shows it.
    Case(
      name: "a derived copy of the decimal shown",
      text: pack(
        variables: #"{ "t": { "range": { "min": 355, "max": 420 } }, "u": { "derive": "t" } }"#,
        parts: #"[{ "text": "体温", "reading": "たいおん" }, { "number": "t", "counter": "度", "decimals": 1 }]"#,
        answer: #"{ "value": "u", "postfix": "度" }"#),
      rule: "answer-shape",
      fragment: "shows 35.5度 (a decimal with 1 digit after the point) and its answer is 355 (a whole number)"),
    Case(
      name: "the decimal's variable with a space before it",
      text: pack(
        variables: temperature, parts: #"[{ "number": "t", "counter": "度", "decimals": 1 }]"#,
        answer: #"{ "value": " t", "postfix": "度" }"#),
      rule: "answer-shape", fragment: "give the answer the part's \"decimals\": 1"),
    Case(
      name: "the decimal's variable in brackets",
      text: pack(
        variables: temperature, parts: #"[{ "number": "t", "counter": "度", "decimals": 1 }]"#,
        answer: #"{ "value": "(t)", "postfix": "度" }"#),
      rule: "answer-shape", fragment: "(a decimal with 1 digit after the point)"),
    Case(
      name: "a fraction answered with another denominator",
      text: pack(
        variables: #"{ "n": { "range": { "min": 1, "max": 4 } }, "d": { "range": { "min": 5, "max": 9 } } }"#,
        parts: #"[{ "number": "n", "denominator": "d" }]"#,
        answer: #"{ "value": "n", "denominator": "d+1" }"#),
      rule: "answer-shape", fragment: "shows 5分の1 (a fraction) and its answer is 6分の1"),
    Case(
      name: "a clock shown and a whole number answered",
      text: pack(
        variables: #"{ "t": { "range": { "min": 300, "max": 400 } } }"#, parts: #"[{ "clock": "t" }]"#,
        answer: #"{ "value": "t" }"#),
      rule: "answer-shape", fragment: "give the answer the part's \"style\": \"clock\""),
    // Parts side by side that Biki reads as another number.
    Case(
      name: "a number before a clock",
      text: pack(
        variables: #"{ "n": { "range": { "min": 1, "max": 1 } }, "t": { "range": { "min": 66, "max": 70 } } }"#,
        parts: #"[{ "number": "n" }, { "clock": "t" }]"#, answer: #"{ "value": "t", "style": "clock" }"#),
      rule: "parts-run-together",
      fragment: #"the parts "1" and "1:06" run together: Biki reads "11:06" じゅういちじろっぷん"#),
    Case(
      name: "a decimal before a number",
      text: pack(
        variables: #"{ "a": { "range": { "min": 15, "max": 15 } }, "b": { "range": { "min": 2, "max": 9 } } }"#,
        parts: #"[{ "number": "a", "decimals": 1 }, { "number": "b" }]"#,
        answer: #"{ "value": "a", "decimals": 1 }"#),
      rule: "parts-run-together", fragment: #"Biki reads "1.52""#),
    Case(
      name: "a number before a number below zero",
      text: pack(
        variables: #"{ "a": { "range": { "min": 2, "max": 2 } }, "b": { "range": { "min": -9, "max": -5 } } }"#,
        parts: #"[{ "number": "a" }, { "number": "b" }]"#, answer: #"{ "value": "a" }"#),
      rule: "parts-run-together", fragment: #"the parts "2" and "-9" run together: Biki reads "2-9" にのきゅう"#),
    Case(
      name: "two numbers side by side",
      text: pack(
        variables: #"{ "a": { "range": { "min": 13, "max": 13 } }, "b": { "range": { "min": 34, "max": 40 } } }"#,
        parts: #"[{ "number": "a" }, { "number": "b" }]"#, answer: #"{ "value": "a" }"#),
      rule: "parts-run-together", fragment: #"Biki reads "1334" せんさんびゃくさんじゅうよん (1334)"#),
    // Text beside a number that Biki reads with it.
    Case(
      name: "a hyphen read as の before a number",
      text: pack(
        variables: #"{ "n": { "range": { "min": 1, "max": 9 } } }"#,
        parts: #"[{ "text": "-", "reading": "の" }, { "number": "n" }]"#, answer: #"{ "value": "n" }"#),
      rule: "parts-run-together", fragment: #""-1" is not read as its parts say (のいち)"#),
    Case(
      name: "an en dash read as minus before a temperature",
      text: pack(
        variables: #"{ "n": { "range": { "min": 1, "max": 9 } } }"#,
        parts: #"[{ "text": "–", "reading": "まいなす" }, { "number": "n", "counter": "度" }]"#,
        answer: #"{ "value": "n", "postfix": "度" }"#),
      rule: "parts-run-together", fragment: "ends in '–' U+2013 EN DASH right before a number"),
    Case(
      name: "the accounting minus read as a word",
      text: pack(
        variables: #"{ "n": { "range": { "min": 1, "max": 9 } } }"#,
        parts: #"[{ "text": "▲", "reading": "さんかく" }, { "number": "n", "counter": "度" }]"#,
        answer: #"{ "value": "n", "postfix": "度" }"#),
      rule: "parts-run-together", fragment: "ends in '▲' U+25B2"),
    // Digits said one by one where Biki reads a quantity.
    Case(
      name: "digits said one by one without a leading zero",
      text: pack(
        variables: #"{ "n": { "range": { "min": 1000, "max": 1009 } } }"#,
        parts: #"[{ "number": "n", "style": "digits", "width": 4 }]"#, answer: #"{ "value": "n" }"#),
      rule: "reading-mismatch", fragment: #"Biki reads "1000" せん (1000), not いちぜろぜろぜろ"#),
    // What an answer may never be.
    Case(
      name: "a clock answer before midnight",
      text: pack(
        variables: #"{ "t": { "range": { "min": 0, "max": 10 } } }"#,
        parts: #"[{ "number": "t", "counter": "分" }]"#, answer: #"{ "value": "t - 5", "style": "clock" }"#),
      rule: "answer-shape", fragment: "question 0's is -5"),
    Case(
      name: "a clock answer past any day",
      text: pack(
        variables: #"{ "t": { "range": { "min": 0, "max": 10 } } }"#,
        parts: #"[{ "number": "t", "counter": "分" }]"#,
        answer: #"{ "value": "t + 1000000000", "style": "clock" }"#),
      rule: "answer-shape", fragment: "0 to 1439 minutes after midnight"),
    Case(
      name: "an amount below zero in a number part",
      text: pack(
        variables: #"{ "n": { "range": { "min": -10, "max": 10 } } }"#,
        parts: #"[{ "number": "n", "counter": "円" }]"#, answer: #"{ "value": "n", "postfix": "円" }"#),
      rule: "unreadable-value", fragment: "an amount of money is never below zero"),
    Case(
      name: "a decimal amount below zero",
      text: pack(
        variables: #"{ "n": { "range": { "min": -15, "max": 15 } } }"#,
        parts: #"[{ "number": "n", "counter": "円", "decimals": 1 }]"#,
        answer: #"{ "value": "n", "postfix": "円", "decimals": 1 }"#),
      rule: "unreadable-value", fragment: "an amount of money is never below zero"),
    Case(
      name: "an answer in yen below zero",
      text: pack(
        variables: #"{ "n": { "range": { "min": 0, "max": 10 } } }"#,
        parts: #"[{ "money": "n" }]"#, answer: #"{ "value": "n - 20", "prefix": "¥" }"#),
      rule: "answer-shape", fragment: "an amount of money, never below zero"),
  ]

  @Test(arguments: cases)
  func isRefusedNamingTheRule(_ hostile: Case) {
    let compilation = PackFixtures.compile(hostile.text)
    let errors = compilation.diagnostics.filter { $0.severity == .error }
    #expect(errors.map(\.rule) == [hostile.rule], "\(errors.map(\.message))")
    #expect(errors.first?.message.contains(hostile.fragment) == true, "\(errors.map(\.message))")
    #expect(compilation.topics.isEmpty)
  }

  /// The run-together error stands on the second part, where the author puts a separator.
  @Test func theRunTogetherErrorIsOnTheSecondPart() throws {
    let text = Self.cases.first { $0.name == "two numbers side by side" }?.text ?? ""
    let error = try #require(PackFixtures.compile(text).diagnostics.first { $0.rule == "parts-run-together" })
    let line = text.split(separator: "\n", omittingEmptySubsequences: false)[error.range.start.line]
    #expect(line.dropFirst(error.range.start.column).hasPrefix(#"{ "number": "b" }"#), "\(line)")
  }

  /// What passes: parts that stand apart, text Biki reads with the number as the parts say,
  /// words beside numbers Biki reads apart, and an answer that is not a part's number.
  @Test(
    arguments: [
      (#"[{ "clock": "t" }, { "text": "発", "reading": "はつ" }]"#, #"{ "value": "t", "style": "clock" }"#),
      (
        #"[{ "text": "気温", "reading": "きおん" }, { "number": "t - 400", "counter": "度" }]"#,
        #"{ "value": "t - 400", "postfix": "度" }"#
      ),
      (
        #"[{ "text": "体温", "reading": "たいおん" }, { "number": "t", "counter": "度", "decimals": 1 }]"#,
        #"{ "value": "t", "postfix": "度", "decimals": 1 }"#
      ),
      (
        #"[{ "number": "t", "counter": "分" }, { "text": "と", "reading": "と" }, { "number": "t", "counter": "秒" }]"#,
        #"{ "value": "t" }"#
      ),
      (#"[{ "number": "t", "counter": "時間" }, { "number": "t - 355", "counter": "分" }]"#, #"{ "value": "t" }"#),
      (#"[{ "number": "t", "counter": "本" }]"#, #"{ "value": "t * 2" }"#),
      (
        #"[{ "text": "電話", "reading": "でんわ" }, { "number": "t - 360", "style": "digits", "width": 3 }, { "text": "-", "reading": "の" }, { "number": "t", "style": "digits", "width": 4 }]"#,
        #"{ "value": "t" }"#
      ),
    ])
  func displaysThatReadAsTheirPartsSayPass(_ parts: String, _ answer: String) {
    let compilation = PackFixtures.compile(
      Self.pack(variables: #"{ "t": { "range": { "min": 360, "max": 420 } } }"#, parts: parts, answer: answer))
    #expect(!compilation.hasErrors, "\(compilation.diagnostics.map(\.message))")
    #expect(compilation.topics.count == 1)
  }
}
