import BikiCore
import BikiJapanese
import Testing

@testable import BikiPacks

/// The "which counter?" skill on the built-in things: what a learner types for a thing and a
/// count, checked against readings from counter references (docs/readings.md), not against the
/// data the topic is built from.
@Suite struct WhichCounterTests {
  static let topic: CompiledTopic? = {
    guard let bytes = try? PackFixtures.builtIn("counters") else { return nil }
    return PackCompiler.compile(bytes, check: .sample(2)).topics.first { $0.topic.id == "counters.which-counter" }
  }()

  /// The question counting `count` of `thing`.
  static func question(_ thing: String, _ count: Int64) throws -> Question {
    let generator = try #require(topic).generator()
    for seed in 0..<generator.spaceSize {
      let question = try generator.question(seed: seed)
      if question.counted?.name == thing && question.counted?.count == count { return question }
    }
    throw Missing(thing: thing, count: count)
  }

  /// Every thing the topic counts has, for each counter it usually takes, a sentence saying
  /// what that counter counts, the reason a learner who chose another is shown.
  @Test func everyUsualCounterSaysWhatItCounts() throws {
    let generator = try #require(Self.topic).generator()
    var missing: Set<String> = []
    for seed in 0..<min(generator.spaceSize, 20_000) {
      for symbol in try generator.question(seed: seed).counted?.usualCounters ?? []
      where CounterUses.sentence(for: symbol) == nil {
        missing.insert(symbol)
      }
    }
    #expect(missing.isEmpty, "\(missing.sorted())")
    #expect(CounterUses.sentence(for: "部") == "部 counts copies of printed matter: newspapers, documents")
  }

  struct Missing: Error { var thing: String, count: Int64 }

  static let table: [(thing: String, count: Int64, right: [String], wrong: [String])] = [
    ("鉛筆", 1, ["1本", "一本", "１本", "いっぽん", "イッポン", " 1 本 "], ["いちほん", "1枚", "1", "いっぽ", "2本"]),
    ("鉛筆", 6, ["6本", "ろっぽん"], ["ろくほん", "6匹"]),
    ("傘", 8, ["8本", "はっぽん", "はちほん"], ["はちぽん"]),
    ("映画", 10, ["10本", "十本", "じゅっぽん", "じっぽん"], ["10枚"]),
    ("猫", 3, ["3匹", "さんびき"], ["さんひき", "3頭", "3本"]),
    ("犬", 6, ["6匹", "ろっぴき"], ["ろくひき"]),
    ("うさぎ", 3, ["3匹", "さんびき", "3羽", "さんわ", "さんば"], ["3頭", "さんとう"]),
    ("鳥", 6, ["6羽", "ろっぱ", "ろくわ"], ["6匹"]),
    ("馬", 1, ["1頭", "いっとう"], ["1匹", "いちとう"]),
    ("象", 8, ["8頭", "はっとう"], ["8匹"]),
    ("切符", 2, ["2枚", "にまい", "二枚"], ["2本", "ふたまい"]),
    ("シャツ", 3, ["3枚", "さんまい", "3着", "さんちゃく"], ["3本"]),
    ("服", 3, ["3着", "さんちゃく", "3枚", "さんまい"], ["3本", "3足"]),
    ("本", 1, ["1冊", "いっさつ"], ["1本", "いちさつ"]),
    ("雑誌", 10, ["10冊", "じゅっさつ", "じっさつ"], ["10本"]),
    ("車", 1, ["1台", "いちだい"], ["1個"]),
    ("家", 3, ["3軒", "さんげん"], ["3個"]),
    ("靴", 3, ["3足", "さんぞく"], ["さんそく", "3枚"]),
    ("靴下", 8, ["8足", "はっそく"], ["8枚"]),
    ("コーヒー", 6, ["6杯", "ろっぱい"], ["ろくはい", "6本"]),
    ("学生", 1, ["1人", "ひとり", "1名", "いちめい"], ["いちにん", "1個"]),
    ("学生", 4, ["4人", "よにん", "4名", "よんめい"], ["よんにん", "しにん"]),
    ("りんご", 1, ["1個", "いっこ", "1つ", "ひとつ", "一つ"], ["いちこ", "1本"]),
    ("りんご", 10, ["10個", "じゅっこ", "十", "とお"], ["10つ", "じゅうつ"]),
    ("卵", 9, ["9個", "きゅうこ", "9つ", "ここのつ"], ["くこ"]),
    ("手紙", 1, ["1通", "いっつう"], ["いちつう", "1枚"]),
    ("国", 1, ["1ヶ国", "1か国", "1カ国", "いっかこく"], ["1個", "いちかこく"]),
    ("椅子", 6, ["6脚", "ろっきゃく"], ["ろくきゃく", "6個"]),
    ("歌", 1, ["1曲", "いっきょく"], ["1本"]),
    // Everyday things with the counters of 数え方単位辞典 and ものの数え方 (docs/readings.md).
    ("豆腐", 3, ["3丁", "さんちょう"], ["3個", "さんじょう"]),
    ("船", 1, ["1隻", "いっせき", "1艘", "いっそう"], ["1台", "いちせき"]),
    ("ビル", 8, ["8棟", "はっとう", "はちとう"], ["8軒", "はちどう"]),
    ("寿司", 1, ["1貫", "いっかん", "1個", "いっこ"], ["いちかん", "1枚"]),
    ("ほうれん草", 10, ["10把", "じゅっぱ", "じっぱ", "10束", "じゅったば"], ["じゅうわ", "10本"]),
    ("飛行機", 6, ["6機", "ろっき", "ろくき", "6台", "ろくだい"], ["6本"]),
    ("食パン", 1, ["1斤", "いっきん"], ["いちきん", "1枚"]),
    ("短歌", 1, ["1首", "いっしゅ"], ["いちしゅ"]),
    ("俳句", 6, ["6句", "ろっく"], ["ろくく"]),
    ("会社", 8, ["8社", "はっしゃ", "はちしゃ"], ["8軒"]),
    ("墓", 1, ["1基", "いっき"], ["1個"]),
    ("花束", 3, ["3束", "さんたば", "みたば", "3つ", "みっつ"], ["3本"]),
    ("ぶどう", 2, ["2房", "ふたふさ", "2粒", "ふたつぶ"], ["にふさ", "2本"]),
    ("車両", 4, ["4両", "よんりょう"], ["4台", "しりょう"]),
    // つ wherever 個 counts a thing; every counter a native speaker accepts (docs/readings.md).
    ("ケーキ", 7, ["7個", "ななこ", "7つ", "ななつ"], ["7切れ", "7本"]),
    ("荷物", 2, ["2個", "にこ", "2つ", "ふたつ", "2点", "にてん"], ["2本"]),
    ("消しゴム", 3, ["3個", "さんこ", "3つ", "みっつ"], ["3本"]),
    ("茶碗", 4, ["4個", "よんこ", "4つ", "よっつ"], ["4杯"]),
    ("ご飯", 2, ["2杯", "にはい", "2膳", "にぜん"], ["2個"]),
    ("ホームラン", 3, ["3本", "さんぼん", "3発", "さんぱつ", "3弾", "さんだん"], ["3個", "さんほん"]),
  ]

  /// A counter a speaker accepts but seldom uses is right, and shown after the usual ones as
  /// less usual.
  @Test func theLessUsualCountersAreAcceptedAndMarked() throws {
    let homeRuns = try Self.question("ホームラン", 3)
    #expect(AnswerChecker.check("3弾", against: homeRuns, skill: .counter).isCorrect)
    #expect(homeRuns.expected(for: .counter) == "3本 or 3発 (さんぼん or さんぱつ); less usual: 3弾 (さんだん)")
  }

  @Test(arguments: table.indices)
  func whatALearnerTypesIsJudgedByTheCountersTheThingTakes(_ index: Int) throws {
    let row = Self.table[index]
    let question = try Self.question(row.thing, row.count)
    for input in row.right {
      #expect(
        AnswerChecker.check(input, against: question, skill: .counter).isCorrect,
        "\(row.thing) × \(row.count): \(input) should be right")
    }
    for input in row.wrong {
      #expect(
        !AnswerChecker.check(input, against: question, skill: .counter).isCorrect,
        "\(row.thing) × \(row.count): \(input) should be wrong")
    }
  }

  @Test func thePromptShowsTheThingAndTheAnswerEveryCounter() throws {
    let pencils = try Self.question("鉛筆", 5)
    #expect(pencils.prompt(for: .counter) == "鉛筆 (えんぴつ, pencil) × 5")
    #expect(pencils.expected(for: .counter) == "5本 (ごほん)")
    let rabbits = try Self.question("うさぎ", 3)
    #expect(rabbits.expected(for: .counter) == "3匹 or 3羽 (さんびき or さんば)")
    #expect(try #require(Self.topic).topic.skills == [.counter])
  }

  @Test func aPackAddsItsOwnThings() throws {
    let text = """
      {
        "format": 1, "id": "kitchen", "title": "Kitchen", "version": "1.0.0",
        "objects": [
          { "name": "箸", "reading": "はし", "meaning": "pair of chopsticks", "counters": ["膳"] },
          { "name": "皿", "reading": "さら", "counters": ["枚"] }
        ],
        "counters": [{ "id": "zen", "symbols": ["膳"], "reading": "ぜん" }],
        "topics": [{
          "id": "things", "title": "Kitchen things", "category": "counter", "skills": ["counter", "kana"],
          "variables": { "thing": { "objects": ["箸", "皿"] }, "n": { "range": { "min": 1, "max": 10 } } },
          "question": { "parts": [{ "number": "n", "counter": "thing" }], "answer": { "value": "n" } }
        }]
      }
      """
    let compilation = PackFixtures.compile(text)
    #expect(compilation.diagnostics.filter { $0.severity == .error }.map(\.message) == [])
    let generator = try #require(compilation.topics.first).generator()
    let questions = try (0..<generator.spaceSize).map { try generator.question(seed: $0) }
    let chopsticks = try #require(questions.first { $0.counted?.name == "箸" && $0.counted?.count == 3 })
    #expect(AnswerChecker.check("3膳", against: chopsticks, skill: .counter).isCorrect)
    #expect(AnswerChecker.check("さんぜん", against: chopsticks, skill: .counter).isCorrect)
    // The kana skill asks for the reading of what is shown, as everywhere.
    #expect(chopsticks.prompt(for: .kana) == "3膳")
    #expect(AnswerChecker.check("さんぜん", against: chopsticks, skill: .kana).isCorrect)
  }

  @Test func mistakesWithThingsAreReportedWhereTheyAre() {
    let unknown = PackFixtures.compile(
      PackFixtures.pack(
        topic: """
          { "id": "t", "title": "T", "category": "counter", "skills": ["counter"],
            "variables": { "thing": { "objects": ["鉛筆"] }, "n": { "range": { "min": 1, "max": 10 } } },
            "question": { "parts": [{ "number": "n", "counter": "thing" }], "answer": { "value": "n" } } }
          """))
    #expect(unknown.diagnostics.contains { $0.rule == "unknown-object" && $0.message.contains("鉛筆") })
    let noThing = PackFixtures.compile(
      PackFixtures.pack(
        topic: PackFixtures.validTopic.replacingOccurrences(
          of: #"["listening", "reading", "kana"]"#, with: #"["counter"]"#)))
    #expect(noThing.diagnostics.map(\.rule).contains("counter-skill-without-objects"))
    #expect(noThing.topics.isEmpty)
    let katakana = PackFixtures.compile(
      """
      { "format": 1, "id": "p", "title": "P", "version": "1", "objects": [{ "name": "猫", "reading": "ネコ", "counters": ["匹"] }],
        "topics": [\(PackFixtures.validTopic)] }
      """)
    #expect(katakana.diagnostics.contains { $0.rule == "invalid-kana" && $0.message.contains("ねこ") })
    // An object with a mistake is reported where it is written, once; the topic counting it is
    // left out without a second message about it.
    let broken = PackFixtures.compile(
      """
      { "format": 1, "id": "p", "title": "P", "version": "1", "objects": [{ "name": "猫", "reading": "ねこ" }],
        "topics": [{ "id": "t", "title": "T", "category": "counter", "skills": ["counter"],
          "variables": { "thing": { "objects": ["猫"] }, "n": { "range": { "min": 1, "max": 10 } } },
          "question": { "parts": [{ "number": "n", "counter": "thing" }], "answer": { "value": "n" } } }] }
      """)
    #expect(broken.diagnostics.filter { $0.severity == .error }.count == 1, "\(broken.diagnostics.map(\.message))")
    #expect(broken.diagnostics.first?.message.contains("counters") == true)
    #expect(broken.topics.isEmpty)
    let misspelt = PackFixtures.compile(
      """
      { "format": 1, "id": "p", "title": "P", "version": "1",
        "objects": [{ "name": "pencil", "reading": "えんぴつ", "counters": ["本"] }, { "name": "pencil", "reading": "えんぴつ", "counters": ["本"] }],
        "topics": [{ "id": "t", "title": "T", "category": "counter", "skills": ["counter"],
          "variables": { "thing": { "objects": ["pencils"] }, "n": { "range": { "min": 1, "max": 10 } } },
          "question": { "parts": [{ "number": "n", "counter": "thing" }], "answer": { "value": "n" } } }] }
      """)
    #expect(
      misspelt.diagnostics.contains { $0.rule == "unknown-object" && $0.message.contains("did you mean \"pencil\"") },
      "\(misspelt.diagnostics.map(\.message))")
    #expect(
      misspelt.diagnostics.contains {
        $0.rule == "duplicate-object" && $0.message.contains("already declared at line 2")
      })
  }
}
