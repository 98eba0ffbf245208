import BikiCore
import Testing

@testable import BikiPacks

/// The themed topics mix the counters of one situation. Each is checked for the counters it
/// mixes and for readings typed from the references (docs/readings.md), right and wrong.
@Suite struct ThemedTopicTests {
  static let topics: [CompiledTopic] = {
    guard let bytes = try? PackFixtures.builtIn("counters") else { return [] }
    return PackCompiler.compile(bytes, check: .sample(2)).topics
  }()

  static func questions(_ id: String) throws -> [Question] {
    let generator = try #require(topics.first { $0.topic.id == id }).generator()
    return try (0..<generator.spaceSize).map { try generator.question(seed: $0) }
  }

  @Test(arguments: [
    ("counters.theme-table", ["皿", "杯", "人前", "切れ", "個"]),
    ("counters.theme-shopping", ["個", "本", "枚", "箱", "円", "%引き"]),
    ("counters.theme-travel", ["泊", "枚", "番線", "号車", "キロ"]),
    ("counters.theme-school", ["課", "部", "ページ", "名", "点", "問"]),
  ])
  func eachThemeMixesItsSituationsCounters(id: String, symbols: [String]) throws {
    let questions = try Self.questions(id)
    let shown = Set(questions.map { String($0.display.drop { $0.isNumber }) })
    #expect(shown == Set(symbols))
    #expect(questions.count == 10 * symbols.count, "1 to 10 with each counter")
  }

  static let table: [(topic: String, display: String, right: [String], wrong: [String])] = [
    ("theme-table", "3皿", ["さんさら", "みさら", "サンサラ"], ["さんざら"]),
    ("theme-table", "10皿", ["じゅっさら", "じっさら"], ["じゅうさら"]),
    ("theme-table", "6杯", ["ろっぱい"], ["ろくはい"]),
    ("theme-table", "1人前", ["いちにんまえ", "ひとりまえ"], ["いっにんまえ"]),
    ("theme-table", "2人前", ["ににんまえ", "ふたりまえ"], ["にんにんまえ"]),
    ("theme-table", "4人前", ["よにんまえ"], ["よんにんまえ"]),
    ("theme-table", "2切れ", ["ふたきれ"], ["にきれ"]),
    ("theme-table", "8個", ["はっこ", "はちこ"], ["はっこう"]),
    ("theme-shopping", "4円", ["よえん"], ["よんえん"]),
    ("theme-shopping", "1箱", ["ひとはこ", "いっぱこ"], ["いちはこ"]),
    ("theme-shopping", "10%引き", ["じゅっぱーせんとびき", "じっぱーせんとびき", "ジュッパーセントビキ"], ["じゅっぱーせんとひき", "じゅっぱーせんと"]),
    ("theme-shopping", "3本", ["さんぼん"], ["さんほん"]),
    ("theme-travel", "3泊", ["さんぱく", "さんばく"], ["さんはく"]),
    ("theme-travel", "8番線", ["はちばんせん"], ["はっばんせん"]),
    ("theme-travel", "6号車", ["ろくごうしゃ"], ["ろっごうしゃ"]),
    ("theme-travel", "10キロ", ["じゅっきろ", "じっきろ"], ["じゅうきろ"]),
    ("theme-school", "1課", ["いっか"], ["いちか"]),
    ("theme-school", "10点", ["じゅってん", "じってん"], ["じゅうてん"]),
  ]

  @Test(arguments: table)
  func readingsFromTheReferences(topic: String, display: String, right: [String], wrong: [String]) throws {
    let question = try #require(try Self.questions("counters." + topic).first { $0.display == display }, "\(display)")
    for answer in right {
      #expect(AnswerChecker.check(answer, against: question, skill: .kana).isCorrect, "\(display): \(answer)")
    }
    for answer in wrong {
      #expect(!AnswerChecker.check(answer, against: question, skill: .kana).isCorrect, "\(display): \(answer)")
    }
  }
}
