import BikiJapanese
import BikiTestSupport
import Testing

@testable import BikiCore

@Suite struct GeneratorTests {
  @Test func moneyQuestionsShowYenAndReadEn() throws {
    let question = try Fixtures.money().question(seed: 70)  // 800 + 70·10
    #expect(question.display == "¥1,500")
    #expect(question.kanjiDisplay == "千五百円")
    #expect(question.spoken == "せんごひゃくえん")
    #expect(question.answer.value == 1500)
    #expect(question.prompt(for: .reading) == "千五百円")
    #expect(question.prompt(for: .kana) == "¥1,500")
    #expect(question.prompt(for: .listening) == "せんごひゃくえん")
    #expect(question.seed == 70)
  }

  /// A seed names its question: ¥800–¥6,000 in steps of 10 is 521 questions, and a seed picks
  /// the one at its place, wrapping past the end; written down here, so a change to how seeds
  /// map to questions (which would change every question a learner's history names) fails.
  @Test(arguments: [
    (UInt64(0), "¥800"), (1, "¥810"), (99, "¥1,790"), (520, "¥6,000"), (521, "¥800"), (12_345_678_901, "¥4,610"),
  ])
  func aSeedGivesTheQuestionAtItsPlace(_ seed: UInt64, _ display: String) throws {
    let generator = try Fixtures.money()
    #expect(generator.spaceSize == 521)
    let question = try generator.question(seed: seed)
    #expect(question.display == display)
    #expect(question.seed == seed)
  }

  @Test func counterQuestionsCarryTheirReadings() throws {
    let generator = try NumberPhraseGenerator(range: 1...10, phrasing: .counted(.hon))
      .generator(for: Fixtures.topic("counters.hon", .counter))
    let readings = try (0..<10).map { try generator.question(seed: $0).reading.standard }
    #expect(readings == ["いっぽん", "にほん", "さんぼん", "よんほん", "ごほん", "ろっぽん", "ななほん", "はっぽん", "きゅうほん", "じゅっぽん"])
  }

  @Test func stepsMustDivideTheRange() {
    #expect(throws: ParameterError.inconsistent("step 7 does not divide the range 1–100")) {
      try NumberPhraseGenerator(range: 1...100, step: 7, phrasing: .number)
    }
    #expect(throws: ParameterError.self) { try NumberPhraseGenerator(range: 1...10, step: 0, phrasing: .number) }
  }

  @Test func valuesACounterCannotReadFailClearly() throws {
    let generator = try NumberPhraseGenerator(range: 1...11, phrasing: .counted(.tsu))
      .generator(for: Fixtures.topic("counters.tsu", .counter))
    #expect(throws: GenerationError(topicID: "counters.tsu", reason: "11つ has no reading: つ counts only 1–10")) {
      try generator.question(seed: 10)
    }
  }

  @Test func parametersResolveWithinTheirBounds() throws {
    let topic = Topic(
      id: "numbers.custom", title: "Custom", category: .number,
      parameters: [
        .init(name: "max", defaultValue: 100, minimum: 1, maximum: 1_000_000),
        .init(name: "min", defaultValue: 1, minimum: 0, maximum: 1_000_000),
      ])
    #expect(try topic.resolve([:]) == ["max": 100, "min": 1])
    #expect(try topic.resolve(["max": 500]) == ["max": 500, "min": 1])
    #expect(throws: ParameterError.outOfBounds(name: "max", value: 0, minimum: 1, maximum: 1_000_000)) {
      try topic.resolve(["max": 0])
    }
    #expect(throws: ParameterError.unknown(name: "stpe", topic: "numbers.custom", known: ["max", "min"])) {
      try topic.resolve(["stpe": 5])
    }
  }

  @Test func groupedDigits() {
    #expect(NumberFormatting.grouped(0) == "0")
    #expect(NumberFormatting.grouped(999) == "999")
    #expect(NumberFormatting.grouped(1000) == "1,000")
    #expect(NumberFormatting.grouped(15_000_000) == "15,000,000")
  }
}
