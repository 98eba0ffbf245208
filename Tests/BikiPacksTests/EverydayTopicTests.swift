import BikiCore
import Testing

@testable import BikiPacks

/// The built-in everyday pack (TopicPacks/everyday.json): each topic asks what its title says and
/// reads it as people say it. Readings typed from docs/readings.md ("Everyday numbers"), not
/// taken from the pack.
@Suite struct EverydayTopicTests {
  static let compilation = PackCompiler.compile((try? PackFixtures.builtIn("everyday")) ?? [])

  static func question(_ topic: String, showing display: String) throws -> Question {
    try PackFixtures.question("everyday." + topic, showing: display, in: compilation)
  }

  @Test func thePackIsLintClean() {
    #expect(Self.compilation.diagnostics.isEmpty, "\(Self.compilation.diagnostics.map(\.message))")
    #expect(Self.compilation.topics.count == 15)
  }

  static let readings: [(String, String, [String], String?)] = [
    ("temperatures", "気温-5度", ["きおんまいなすごど"], "-5"),
    ("temperatures", "気温0度", ["きおんれいど", "きおんぜろど"], "0"),
    ("temperatures", "気温35度", ["きおんさんじゅうごど"], "35度"),
    ("body-temperature", "体温37.5度", ["たいおんさんじゅうななてんごど"], "37.5"),
    ("body-temperature", "体温38.0度", ["たいおんさんじゅうはちてんれいど", "たいおんさんじゅうはってんれいど"], "38.0"),
    ("timetable", "16:05発", ["じゅうろくじごふんはつ"], "16:05"),
    ("timetable", "8:30発", ["はちじはんはつ", "はちじさんじゅっぷんはつ"], "8時半"),
    ("timetable", "23:00発", ["にじゅうさんじはつ"], "23:00"),
    ("addresses", "4丁目8番10号", ["よんちょうめはちばんじゅうごう"], nil),
    ("addresses", "6丁目1番1号", ["ろくちょうめいちばんいちごう"], nil),
    ("addresses", "10丁目3番6号", ["じゅっちょうめさんばんろくごう", "じっちょうめさんばんろくごう"], nil),
    ("scores", "2対0", ["にたいれい", "にたいぜろ"], nil),
    ("scores", "9対4", ["きゅうたいよん"], nil),
    ("recipes", "大さじ1/2", ["おおさじにぶんのいち"], "1/2"),
    ("recipes", "カップ3/4", ["かっぷよんぶんのさん"], "4分の3"),
    ("recipes", "小さじ2/3", ["こさじさんぶんのに"], "2/3"),
    ("shopping", "0.5キロ", ["れいてんごきろ", "ぜろてんごきろ"], "0.5"),
    ("shopping", "1.5リットル", ["いちてんごりっとる", "いってんごりっとる"], "1.5リットル"),
    // Numbers in the wild (docs/readings.md): 分 after 割 or 度 is ぶ, 厘 りん.
    ("batting-average", "打率3割2分1厘", ["だりつさんわりにぶいちりん"], nil),
    ("batting-average", "打率2割8分9厘", ["だりつにわりはちぶきゅうりん", "だりつにわりはちぶくりん"], nil),
    ("fever-bu", "体温37度5分", ["たいおんさんじゅうななどごぶ", "たいおんさんじゅうしちどごぶ"], nil),
    ("fever-bu", "体温38度2分", ["たいおんさんじゅうはちどにぶ"], nil),
    ("rain-chance", "降水確率30%", ["こうすいかくりつさんじゅっぱーせんと", "こうすいかくりつさんじっぱーせんと"], "30"),
    ("rain-chance", "降水確率0%", ["こうすいかくりつれいぱーせんと", "こうすいかくりつぜろぱーせんと"], "0%"),
    ("seismic-intensity", "震度5強", ["しんどごきょう"], nil),
    ("seismic-intensity", "震度7", ["しんどなな"], nil),
    ("seismic-intensity", "震度4", ["しんどよん"], nil),
    ("receipt", "税込1,980円", ["ぜいこみせんきゅうひゃくはちじゅうえん"], "1980"),
    ("class-list", "1年1組", ["いちねんいちくみ"], nil),
    ("class-list", "4年8組", ["よねんはちくみ", "よねんはっくみ"], nil),
    ("innings", "9回表", ["きゅうかいおもて"], nil),
    ("innings", "6回裏", ["ろっかいうら"], nil),
    ("fiscal-years", "2026年度", ["にせんにじゅうろくねんど"], "2026"),
  ]

  /// The two counters docs/topic-packs.md says a pack names by id only: 分 as a tenth after 割
  /// or 度 (`bu-tenth`), and 時 past 24 on a late-night timetable (`hour-late`). 分 by its
  /// symbol stays minutes.
  @Test func aPackNamesTheContextCountersById() throws {
    let topic = """
      { "id": "late", "title": "Late", "description": "Late hours and fevers.", "category": "everyday",
        "skills": ["kana"],
        "variables": { "h": { "range": { "min": 25, "max": 30 } }, "b": { "range": { "min": 1, "max": 9 } } },
        "question": { "parts": [{ "number": "h", "counter": "hour-late" }, { "number": "37", "counter": "度" },
          { "number": "b", "counter": "bu-tenth" }],
          "answer": { "value": "h", "postfix": "時" } } }
      """
    let compilation = PackFixtures.compile(PackFixtures.pack(topic: topic))
    #expect(compilation.diagnostics.isEmpty, "\(compilation.diagnostics.map(\.message))")
    let question = try PackFixtures.question("test.late", showing: "25時37度5分", in: compilation)
    #expect(question.reading.standard == "にじゅうごじさんじゅうななどごぶ")
    #expect(!question.reading.acceptsTyped("にじゅうごじさんじゅうななどごふん"))
  }

  /// What a learner must not be taught in the wild topics: 分 as minutes, 組 as sets, 震度 with
  /// counting forms.
  @Test(arguments: [
    ("batting-average", "打率3割5分1厘", "だりつさんわりごふんいちりん"),
    ("fever-bu", "体温37度5分", "たいおんさんじゅうななどごふん"),
    ("class-list", "1年1組", "いちねんひとくみ"),
    ("seismic-intensity", "震度7", "しんどしち"),
    ("seismic-intensity", "震度4", "しんどし"),
    ("innings", "9回表", "きゅうかいひょう"),
  ])
  func theWildTopicsRefuseWhatIsWrong(_ topic: String, _ display: String, _ wrong: String) throws {
    let question = try Self.question(topic, showing: display)
    #expect(!AnswerChecker.check(wrong, against: question, skill: .kana).isCorrect, "\(display): \(wrong)")
  }

  @Test(arguments: readings)
  func eachTopicReadsWhatItShows(_ topic: String, _ display: String, _ readings: [String], _ typed: String?) throws {
    let question = try Self.question(topic, showing: display)
    #expect(question.reading.standard == readings[0])
    for reading in readings {
      #expect(AnswerChecker.check(reading, against: question, skill: .kana).isCorrect, "\(display): \(reading)")
    }
    if let typed {
      #expect(AnswerChecker.check(typed, against: question, skill: .listening).isCorrect, "\(display): \(typed)")
    }
  }

  /// A score, a fraction and a count said inside a phrase never take the forms of counting aloud.
  @Test func noPhraseIsReadWithCountingForms() throws {
    for topic in ["scores", "recipes"] {
      let generator = try #require(Self.compilation.topics.first { $0.topic.id == "everyday." + topic }).generator()
      for seed in 0..<generator.spaceSize {
        let question = try generator.question(seed: seed)
        for reading in question.reading.all() {
          #expect(
            !reading.contains("しぶん") && !reading.contains("くぶん") && !reading.hasSuffix("たいく")
              && !reading.hasSuffix("たいし"), "\(question.display): \(reading)")
        }
      }
    }
  }
}
