import BikiCore
import BikiJapanese
import Testing

@testable import BikiPacks

/// `"favour": "sound-changes"`: the numbers whose reading changes with the counter come up
/// twice as often. Which numbers those are is written out here from the readings themselves
/// (docs/readings.md), not taken from the data.
@Suite struct FavourTests {
  static let builtIn: [CompiledTopic] = {
    guard let bytes = try? PackFixtures.builtIn("counters") else { return [] }
    return PackCompiler.compile(bytes, check: .sample(2)).topics
  }()

  static func generator(_ id: String, parameters: [String: Int64] = [:]) throws -> QuestionGenerator {
    try #require(builtIn.first { $0.topic.id == id }).generator(parameters: parameters)
  }

  /// The numbers of a generator's favoured questions, from their answers.
  static func favouredNumbers(_ generator: QuestionGenerator) throws -> Set<Int64> {
    Set(try (0..<generator.favouredCount).map { try generator.question(seed: $0).answer.value })
  }

  /// Sound changes before 本: いっぽん, さんぼん, ろっぽん, はっぽん, じゅっぽん, ひゃっぽん, in every
  /// compound that ends in them; 2, 4, 5, 7, 9 join ほん as they are.
  @Test func theNumbersWhoseReadingChangesWith本AreFavoured() throws {
    let generator = try Self.generator("counters.hon-100")
    let favoured = try Self.favouredNumbers(generator)
    for changed: Int64 in [1, 3, 6, 8, 10, 11, 13, 16, 18, 20, 21, 33, 46, 58, 70, 91, 100] {
      #expect(favoured.contains(changed), "\(changed)本")
    }
    for plain: Int64 in [2, 4, 5, 7, 9, 12, 14, 15, 17, 19, 22, 44, 57, 65, 99] {
      #expect(!favoured.contains(plain), "\(plain)本")
    }
    #expect(generator.favouredCount == 50)
  }

  /// 人: ひとり and ふたり are words of their own, 4 is よ and 7 しち (or なな), 9 also く,
  /// in 14, 17, 24 …; 11 じゅういちにん and 3 さんにん are plain.
  @Test func theFormsOf人AreFavoured() throws {
    let favoured = try Self.favouredNumbers(try Self.generator("counters.nin-100"))
    for changed: Int64 in [1, 2, 4, 7, 14, 17, 24, 47, 94] { #expect(favoured.contains(changed), "\(changed)人") }
    for plain: Int64 in [3, 5, 6, 8, 10, 11, 12, 13, 20, 33, 100] { #expect(!favoured.contains(plain), "\(plain)人") }
  }

  /// Numbers have forms of their own too: さんびゃく, ろっぴゃく, はっぴゃく among the hundreds.
  @Test func theHundredsThatChangeTheirSoundAreFavoured() throws {
    let compilation = PackFixtures.compile(
      PackFixtures.pack(
        topic: """
          {
            "id": "hundreds", "title": "百", "description": "d", "category": "number", "skills": ["kana"], "favour": "sound-changes",
            "variables": { "n": { "range": { "min": 100, "max": 1000, "step": 100 } } },
            "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } }
          }
          """))
    let generator = try #require(compilation.topics.first).generator()
    #expect(try Self.favouredNumbers(generator) == [300, 600, 800])
  }

  /// A session asks every sound change once in each cycle and the other numbers every other
  /// cycle, and never the same number twice in a cycle.
  @Test func aSessionAsksTheSoundChangesTwiceAsOften() throws {
    let generator = try Self.generator("counters.hon-100")
    var order = generator.order(seed: 12)
    var asked: [Int64: Int] = [:]
    for cycle in 0..<4 {
      // 50 sound changes and half of the other 50.
      let numbers = try (0..<75).map { _ in try generator.question(seed: order.next()).answer.value }
      #expect(Set(numbers).count == numbers.count, "cycle \(cycle) repeats a number")
      for number in numbers { asked[number, default: 0] += 1 }
    }
    #expect(asked[8] == 4 && asked[100] == 4 && asked[31] == 4)
    #expect(asked[2] == 2 && asked[99] == 2 && asked[45] == 2)
    // The first ten questions of a session are mostly sound changes, whatever the seed.
    var changed = 0
    for seed in UInt64(0)..<100 {
      var order = generator.order(seed: seed)
      for _ in 0..<10 where order.next() < generator.favouredCount { changed += 1 }
    }
    #expect((600...730).contains(changed), "\(changed) of 1,000 first questions were sound changes")
  }

  /// Every built-in counter topic for 1–10 whose counter changes a sound past 10 has a 1–100
  /// topic that favours them (つ stops at 10, and a counter without changes needs none).
  /// Whether a form changes a sound, rather than only choosing one of a digit's own readings
  /// (7度 ななど|しちど: `final:7:なな+d=d`).
  static func changesSound(_ form: ReadingForm) -> Bool {
    let plain = ["いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう", "じゅう"]
    let pieces = form.rule.split(separator: ":")
    guard pieces.count == 3, pieces[0] == "final", let plus = pieces[2].firstIndex(of: "+") else { return true }
    return !(plain.contains(String(pieces[2][..<plus])) && pieces[2].contains("="))
  }

  @Test func everyCounterWithSoundChangesHasAFavouringHundredTopic() throws {
    let byID = Dictionary(uniqueKeysWithValues: Self.builtIn.map { ($0.topic.id, $0) })
    var checked = 0
    for topic in Self.builtIn where topic.topic.id.hasPrefix("counters.") && !topic.topic.id.hasSuffix("-100") {
      let generator = try topic.generator()
      let symbols = Set(
        try (0..<generator.spaceSize).map { String(try generator.question(seed: $0).display.drop { $0.isNumber }) })
      guard generator.spaceSize == 10, symbols.count == 1, let symbol = symbols.first, symbol != "つ" else { continue }
      let hundred = byID[topic.topic.id + "-100"]
      let favoured = try hundred?.generator().favouredCount ?? 0
      let changes = (0..<generator.spaceSize).contains {
        generator.forms(seed: $0).contains(where: Self.changesSound)
      }
      #expect(
        !changes || favoured > 0, "\(topic.topic.id) (\(symbol)) has sound changes but no 1–100 topic favouring them")
      checked += 1
    }
    #expect(checked >= 40)
  }

  @Test func theSameSeedAsksTheSameQuestions() throws {
    let generator = try Self.generator("counters.ko-100")
    var first = generator.order(seed: 77)
    var second = generator.order(seed: 77)
    let a = try (0..<40).map { _ in try generator.question(seed: first.next()).display }
    let b = try (0..<40).map { _ in try generator.question(seed: second.next()).display }
    #expect(a == b)
  }

  static func favouringTopic(max: Int64, counter: String = "本", favour: String = "sound-changes") -> String {
    PackFixtures.pack(
      topic: """
        {
          "id": "t", "title": "T", "description": "d", "category": "counter", "skills": ["kana"], "favour": "\(favour)",
          "variables": { "n": { "range": { "min": 1, "max": \(max) } } },
          "parameters": { "max": { "target": "n.max", "min": 1, "max": 20000 } },
          "question": { "parts": [{ "number": "n", "counter": "\(counter)" }], "answer": { "value": "n", "postfix": "\(counter)" } }
        }
        """)
  }

  /// Parameters that change the range lay the questions out again.
  @Test func parametersLayOutTheFavouredQuestionsAgain() throws {
    let compilation = PackFixtures.compile(Self.favouringTopic(max: 100))
    #expect(compilation.diagnostics.isEmpty, "\(compilation.diagnostics)")
    let topic = try #require(compilation.topics.first)
    let twenty = try topic.generator(parameters: ["max": 20])
    #expect(try Self.favouredNumbers(twenty) == [1, 3, 6, 8, 10, 11, 13, 16, 18, 20])
    #expect(twenty.spaceSize == 20)
    #expect(try topic.generator(parameters: ["max": 100]).favouredCount == 50)
    #expect(
      throws: ParameterError.inconsistent(
        "a topic that favours sound-changes may have at most 10000 possible questions; these parameters give 15000")
    ) {
      try topic.generator(parameters: ["max": 15000])
    }
  }

  @Test func lintReportsFavouringThatCannotWork() throws {
    let tooLarge = PackFixtures.compile(Self.favouringTopic(max: 20000))
    #expect(tooLarge.diagnostics.map(\.rule) == ["favour-space-too-large"])
    #expect(tooLarge.topics.isEmpty)
    #expect(tooLarge.diagnostics.first?.range.start.line == 7, "on the line of \"favour\" (counted from 0)")

    let noChange = PackFixtures.compile(Self.favouringTopic(max: 100, counter: "枚"))
    #expect(noChange.diagnostics.map(\.rule) == ["favour-without-effect"])
    #expect(noChange.diagnostics.first?.message.contains("none of this topic's 100 questions") == true)
    #expect(noChange.topics.count == 1)

    let misspelt = PackFixtures.compile(Self.favouringTopic(max: 100, favour: "sound-change"))
    #expect(misspelt.diagnostics.map(\.rule) == ["invalid-value"])
    #expect(misspelt.diagnostics.first?.message.contains("sound-changes") == true)
  }
}
