import BikiCore
import Testing

@testable import BikiPacks

/// The built-in money pack (TopicPacks/money.json), as a learner meets it: an amount is right
/// however it is written, as long as it is that amount.
@Suite struct MoneyTopicTests {
  static let compilation = PackCompiler.compile((try? PackFixtures.builtIn("money")) ?? [])

  static func question(_ topic: String, showing display: String) throws -> Question {
    try PackFixtures.question("money." + topic, showing: display, in: compilation)
  }

  @Test(arguments: [
    "1500", "¥1500", "￥1500", "1500円", "1,500", "1，500", "１５００", "千五百", "一千五百", " 1500 ", "¥1,500円", "1500えん",
    "千五百円",
  ])
  func anAmountIsRightHoweverItIsWritten(_ input: String) throws {
    let conbini = try Self.question("conbini", showing: "¥1,500")
    #expect(AnswerChecker.check(input, against: conbini, skill: .listening).isCorrect, "\(input)")
    // The reading skill shows 千五百円: kanji typed back are a copy of the prompt, not an answer.
    let copiesThePrompt = ["千五百", "一千五百", "千五百円"].contains(input)
    #expect(AnswerChecker.check(input, against: conbini, skill: .reading).isCorrect == !copiesThePrompt, "\(input)")
  }

  @Test(arguments: ["1400", "¥15000", "1500ドル", "150", "15000", "1,50", "1500本", "", "abc", "¥", "1500円円"])
  func anotherAmountOrAMalformedOneIsWrong(_ input: String) throws {
    let conbini = try Self.question("conbini", showing: "¥1,500")
    let verdict = AnswerChecker.check(input, against: conbini, skill: .listening)
    #expect(!verdict.isCorrect, "\(input)")
    #expect(verdict.expected == "¥1,500")
  }

  /// Kana is checked as kana: the reading of the amount with its えん. Listening asks for the
  /// number, so its reading typed in kana is not that answer.
  @Test func theKanaSkillTakesTheReading() throws {
    let conbini = try Self.question("conbini", showing: "¥1,500")
    #expect(AnswerChecker.check("せんごひゃくえん", against: conbini, skill: .kana).isCorrect)
    #expect(!AnswerChecker.check("せんごひゃく", against: conbini, skill: .kana).isCorrect)
    #expect(!AnswerChecker.check("せんごひゃくえん", against: conbini, skill: .listening).isCorrect)
  }
}
