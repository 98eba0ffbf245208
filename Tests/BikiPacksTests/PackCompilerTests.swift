import BikiCore
import BikiJSON
import Foundation
import Testing

@testable import BikiPacks

@Suite struct PackCompilerTests {
  @Test func aValidPackCompilesCleanly() throws {
    let compilation = PackFixtures.compile(PackFixtures.pack(topic: PackFixtures.validTopic))
    #expect(compilation.diagnostics == [])
    let topic = try #require(compilation.topics.first)
    #expect(topic.topic.id == "test.hon")
    let generator = try topic.generator()
    #expect(generator.spaceSize == 100)
    let question = try generator.question(seed: 7)  // 8本
    #expect(question.display == "8本")
    #expect(question.kanjiDisplay == "八本")
    #expect(question.reading.description == "はっぽん|はちほん")
    #expect(question.answer.value == 8)
    #expect(AnswerChecker.check("8本", against: question, skill: .reading).isCorrect)
  }

  @Test func theNumbersPackIsClean() throws {
    let compilation = PackCompiler.compile(try PackFixtures.builtIn("numbers"))
    #expect(compilation.diagnostics.map { $0.formatted(path: "numbers.json") } == [])
    #expect(
      compilation.topics.map(\.topic.id) == [
        "numbers.beginner", "numbers.tens", "numbers.hundreds", "numbers.thousands", "numbers.ten-thousands",
        "numbers.oku", "numbers.chou", "numbers.custom", "numbers.kuku", "numbers.phone",
      ])
    let chou = try #require(compilation.topics.first { $0.topic.id == "numbers.chou" }).generator()
    #expect(chou.spaceSize == 1000)
    #expect(try chou.question(seed: 99).reading.standard == "いっちょう")
  }

  /// A generator asked for no overrides and one given every default explicitly ask the same
  /// questions: the first skips resolving parameters, so every built-in topic must agree.
  @Test func noOverridesAndExplicitDefaultsAgreeForEveryBuiltInTopic() throws {
    let packs = try FileManager.default.contentsOfDirectory(atPath: PackFixtures.builtInDirectory.path).filter {
      $0.hasSuffix(".json")
    }
    var compared = 0
    for pack in packs {
      for compiled in PackCompiler.compile(try PackFixtures.builtIn(String(pack.dropLast(5)))).topics
      where !compiled.topic.parameters.isEmpty {
        let defaults = Dictionary(uniqueKeysWithValues: compiled.topic.parameters.map { ($0.name, $0.defaultValue) })
        let plain = try compiled.generator()
        let explicit = try compiled.generator(parameters: defaults)
        #expect(plain.spaceSize == explicit.spaceSize, "\(compiled.topic.id)")
        for seed in [0, 1, 7, 99] as [UInt64] {
          #expect(try plain.question(seed: seed) == explicit.question(seed: seed), "\(compiled.topic.id) seed \(seed)")
        }
        compared += 1
      }
    }
    #expect(compared > 0)
  }

  @Test func parametersOverrideTheRangeWithinBounds() throws {
    let compilation = PackCompiler.compile(try PackFixtures.builtIn("numbers"))
    let custom = try #require(compilation.topics.first { $0.topic.id == "numbers.custom" })
    let generator = try custom.generator(parameters: ["min": 1, "max": 500, "step": 5])
    #expect(generator.spaceSize == 100)
    #expect(try generator.question(seed: 99).answer.value == 496)
    #expect(try custom.generator(parameters: ["min": 1, "max": 500, "step": 7]).spaceSize == 72)  // 1 … 498
    #expect(throws: ParameterError.outOfBounds(name: "step", value: 0, minimum: 1, maximum: 1_000_000_000)) {
      try custom.generator(parameters: ["step": 0])
    }
    #expect(throws: ParameterError.inconsistent("min 500 is above max 100")) {
      try custom.generator(parameters: ["min": 500])
    }
  }
}

@Suite struct BuiltInPackTests {
  static let names = ["numbers", "money", "durations", "dates", "counters"]

  @Test(arguments: names)
  func builtInPacksAreClean(_ name: String) throws {
    let compilation = PackCompiler.compile(try PackFixtures.builtIn(name))
    #expect(compilation.diagnostics.map { $0.formatted(path: "\(name).json") } == [])
    #expect(!compilation.topics.isEmpty)
  }

  /// Every built-in topic generates for 10,000 seeds, each question with a reading and an answer.
  @Test(arguments: names)
  func everyTopicGeneratesForTenThousandSeeds(_ name: String) throws {
    let compilation = PackCompiler.compile(try PackFixtures.builtIn(name), check: .sample(2))
    for topic in compilation.topics {
      let generator = try topic.generator()
      var random = SeededRandom(seed: 7)
      for _ in 0..<10_000 {
        let question = try generator.question(seed: random.next())
        #expect(!question.reading.standard.isEmpty)
        #expect(!question.display.isEmpty)
      }
    }
  }
}

@Suite struct DocumentationExampleTests {
  /// The complete example in docs/topic-packs.md lints clean and is laid out as `biki-pack fmt`
  /// lays it out, so the docs never drift and a copy passes `fmt --check`.
  @Test func theDocumentedExamplePackIsClean() throws {
    let docs = PackFixtures.builtInDirectory.deletingLastPathComponent().appendingPathComponent("docs/topic-packs.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let start = try #require(text.range(of: "```json\n"))
    let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
    let compilation = PackFixtures.compile(String(text[start.upperBound..<end.lowerBound]))
    #expect(compilation.diagnostics.map(\.message) == [])
    #expect(compilation.topics.map(\.topic.id) == ["kitchen.cups", "kitchen.plates", "kitchen.lunch-time"])
    let example = Array((String(text[start.upperBound..<end.lowerBound]) + "\n").utf8)
    #expect(try JSONLayout.format(example) == example)
  }
}
