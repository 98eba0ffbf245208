import BikiCore
import Foundation
import Testing

@testable import BikiPacks

/// Numbers read digit by digit (`"style": "digits"`), as phone numbers and postcodes are: the
/// pack format's part for them, its checks, and the built-in topics that use it. Readings as
/// docs/readings.md gives them ([PHONE]: 0 ぜろ|れい, 2 に|にい, 5 ご|ごお, 4 よん, 7 なな, 9 きゅう).
@Suite struct DigitsStyleTests {
  static func topic(_ part: String) -> String {
    """
    { "id": "codes", "title": "Codes", "description": "Codes.", "category": "number", "skills": ["kana"],
      "variables": { "n": { "range": { "min": 857, "max": 857 } } },
      "question": { "parts": [\(part)], "answer": { "value": "n" } } }
    """
  }

  @Test func aDigitsNumberIsShownWithItsWidthAndReadDigitByDigit() throws {
    let compilation = PackFixtures.compile(
      PackFixtures.pack(topic: Self.topic(#"{ "number": "n", "style": "digits", "width": 4 }"#)))
    #expect(compilation.diagnostics.filter { $0.severity == .error }.isEmpty, "\(compilation.diagnostics)")
    let question = try #require(compilation.topics.first).generator().question(seed: 0)
    #expect(question.display == "0857")
    #expect(question.reading.standard == "ぜろはちごなな")
    for typed in ["ぜろはちごなな", "れいはちごおなな", "レイハチゴナナ"] {
      #expect(AnswerChecker.check(typed, against: question, skill: .kana).isCorrect, "\(typed)")
    }
    #expect(!AnswerChecker.check("はっぴゃくごじゅうなな", against: question, skill: .kana).isCorrect)
  }

  @Test(arguments: [
    (#"{ "number": "n", "width": 4 }"#, "\"width\" applies to a number with \"style\": \"digits\""),
    (#"{ "number": "n", "style": "digits", "width": 30 }"#, "the width must be 1 to 18 digits, not 30"),
    (#"{ "number": "n", "style": "digits", "counter": "番" }"#, "a number read digit by digit takes no counter"),
  ])
  func misuseIsDiagnosed(_ part: String, _ message: String) {
    let compilation = PackFixtures.compile(PackFixtures.pack(topic: Self.topic(part)))
    #expect(
      compilation.diagnostics.contains { $0.message.contains(message) }, "\(compilation.diagnostics.map(\.message))")
  }

  static func questions(_ id: String) throws -> [Question] {
    let compilation = PackCompiler.compile(try PackFixtures.builtIn("numbers"), check: .sample(2))
    let generator = try #require(compilation.topics.first { $0.topic.id == id }).generator()
    return try (0..<20).map { try generator.question(seed: $0 * 7_919) }
  }

  @Test func phoneNumbersAreMobileNumbersReadWithNoBetweenTheGroups() throws {
    for question in try Self.questions("numbers.phone") {
      #expect(
        question.display.range(of: #"^0[789]0-\d{4}-\d{4}$"#, options: .regularExpression) != nil, "\(question.display)"
      )
      #expect(question.reading.standard.hasPrefix("ぜろ"))
      #expect(question.reading.standard.components(separatedBy: "の").count == 3, "\(question.reading.standard)")
      // 4 is よん, 9 きゅう: never し or く (the く of ろく aside).
      #expect(
        question.reading.standard.range(of: "し|(?<!ろ)く", options: .regularExpression) == nil,
        "\(question.reading.standard)")
    }
  }
}
