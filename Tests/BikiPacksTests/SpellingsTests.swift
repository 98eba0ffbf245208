import BikiCore
import Testing

@testable import BikiPacks

/// Every spelling of the same value a native speaker writes is right, on the built-in topics a
/// learner meets: digits with 万, 億 and 兆 as newspapers write them, the display's own words
/// typed back around the number, and digits lengthened with ー in kana. The prompt typed back
/// in kanji stays refused in the reading skill.
@Suite struct SpellingsTests {
  static let packs = ["numbers", "money", "everyday"].map {
    PackCompiler.compile((try? PackFixtures.builtIn($0)) ?? [])
  }

  static func question(_ topic: String, showing display: String) throws -> Question {
    let pack = try #require(packs.first { $0.topics.contains { $0.topic.id == topic } })
    // A phone number's question is found by its place: the topic has 300,000,000.
    if topic == "numbers.phone" {
      let generator = try #require(pack.topics.first { $0.topic.id == topic }).generator()
      let question = try generator.question(seed: 2 * 100_000_000 + 1234 * 10_000 + 5678)
      try #require(question.display == display)
      return question
    }
    return try PackFixtures.question(topic, showing: display, in: pack)
  }

  @Test(
    arguments: [
      ("numbers.chou", "1,000,000,000,000", ["1兆", "1000000000000", "1,000,000,000,000", "１兆"], ["一兆", "1億"]),
      ("money.salary", "¥10,000,000", ["1000万円", "1000万", "¥10,000,000", "10000000円"], ["千万円", "100万円"]),
      ("money.salary", "¥2,600,000", ["260万円", "260万", "2,600,000円", "2600000"], ["二百六十万円", "26万円"]),
      ("everyday.timetable", "17:35発", ["17:35発", "17:35", "17時35分発", "17時35分"], ["17:35着", "十七時三十五分発", "17:30発"]),
      ("everyday.body-temperature", "体温38.6度", ["38.6", "38.6度", "体温38.6度"], ["386", "体温三十八・六度", "38.5度"]),
    ])
  func theReadingSkillTakesEverySpellingOfTheValue(
    _ topic: String, _ display: String, _ right: [String], _ wrong: [String]
  ) throws {
    let question = try Self.question(topic, showing: display)
    for typed in right {
      #expect(AnswerChecker.check(typed, against: question, skill: .reading).isCorrect, "\(typed) for \(display)")
    }
    for typed in wrong {
      #expect(!AnswerChecker.check(typed, against: question, skill: .reading).isCorrect, "\(typed) for \(display)")
    }
  }

  /// A 2 or a 5 said alone is lengthened (にい, ごお), and a learner types the long vowel as ー, as
  /// katakana writes it.
  @Test(
    arguments: [
      ("numbers.phone", "090-1234-5678", ["ぜろきゅうぜろのいちにーさんよんのごーろくななはち", "ゼロキューゼロノイチニーサンヨンノゴーロクナナハチ"])
    ])
  func lengthenedDigitsTypedWithALongVowelMarkAreRight(_ topic: String, _ display: String, _ typed: [String]) throws {
    let question = try Self.question(topic, showing: display)
    for kana in typed {
      #expect(AnswerChecker.check(kana, against: question, skill: .kana).isCorrect, "\(kana) for \(display)")
    }
    #expect(!AnswerChecker.check("ぜろきゅうぜろのいちにさんよんのごうろくななはち", against: question, skill: .kana).isCorrect)
  }
}
