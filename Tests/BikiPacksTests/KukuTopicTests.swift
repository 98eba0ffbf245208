import BikiCore
import Testing

@testable import BikiPacks

/// The 九九 topic: every line from 1×1 to 9×9, answered in kana with the chant (any form schools
/// use) or in reading with the product. Lines typed from the chant as schools teach it
/// (docs/readings.md, [KUKU]), not taken from the pack.
@Suite struct KukuTopicTests {
  static let questions: [Question] = {
    guard let bytes = try? PackFixtures.builtIn("numbers"),
      let generator = try? PackCompiler.compile(bytes, check: .sample(2)).topics.first(where: {
        $0.topic.id == "numbers.kuku"
      })?.generator()
    else { return [] }
    return (0..<generator.spaceSize).compactMap { try? generator.question(seed: $0) }
  }()

  @Test func everyLineIsAskedOnce() {
    #expect(Set(Self.questions.map(\.display)).count == 81)
  }

  @Test(arguments: [
    ("2×3", ["にさんがろく"], "6"), ("8×8", ["はっぱろくじゅうし"], "64"), ("3×3", ["さざんがく"], "9"),
    ("5×9", ["ごっくしじゅうご", "ごっくよんじゅうご", "ごくしじゅうご"], "45"), ("8×3", ["はちさんにじゅうし", "はっさんにじゅうし"], "24"),
    ("1×1", ["いんいちがいち"], "1"), ("9×9", ["くくはちじゅういち"], "81"), ("3×6", ["さぶろくじゅうはち", "さんろくじゅうはち"], "18"),
  ])
  func eachLineIsAnsweredWithTheChantOrTheProduct(_ display: String, _ chants: [String], _ product: String) throws {
    let question = try #require(Self.questions.first { $0.display == display })
    #expect(question.reading.standard == chants[0])
    for chant in chants {
      #expect(AnswerChecker.check(chant, against: question, skill: .kana).isCorrect, "\(display): \(chant)")
    }
    #expect(!AnswerChecker.check("にさんがなな", against: question, skill: .kana).isCorrect)
    #expect(AnswerChecker.check(product, against: question, skill: .reading).isCorrect)
  }
}

/// Text parts Biki can read are answered with any reading Biki gives them, as choice items are
/// (docs/topic-packs.md, "Parts").
@Suite struct ReadableTextPartTests {
  @Test func aTextPartBikiReadsAcceptsEveryReadingBikiGivesIt() throws {
    let topic = """
      { "id": "x", "title": "X", "description": "X.", "category": "counter", "skills": ["kana"],
        "variables": { "n": { "range": { "min": 3, "max": 3 } } },
        "question": { "parts": [{ "text": "8本", "reading": "はっぽん" }, { "text": "と", "reading": "と" }, { "number": "n", "counter": "本" }], "answer": { "value": "n" } } }
      """
    let compilation = PackFixtures.compile(PackFixtures.pack(topic: topic))
    let question = try #require(compilation.topics.first).generator().question(seed: 0)
    #expect(question.reading.standard == "はっぽんとさんぼん")
    #expect(AnswerChecker.check("はちほんとさんぼん", against: question, skill: .kana).isCorrect)
    #expect(!AnswerChecker.check("はちぽんとさんぼん", against: question, skill: .kana).isCorrect)
  }
}
