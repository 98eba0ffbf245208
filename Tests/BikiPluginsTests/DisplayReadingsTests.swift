import BikiCore
import BikiJapanese
import Foundation
import Testing

@testable import BikiPlugins

/// Biki's readings of displays, remembered between a plugin's questions: a display met again
/// is not read again, but every question is still checked against the reading.
@Suite struct DisplayReadingsTests {
  static func question(display: String, kanji: String, readings: [String], year: Int) -> [UInt8] {
    let list = readings.map { "\"\($0)\"" }.joined(separator: ", ")
    return Array(
      #"{"display": "\#(display)", "kanjiDisplay": "\#(kanji)", "spoken": "\#(readings[0])", "readings": [\#(list)], "answer": {"value": \#(year), "postfix": "年"}}"#
        .utf8)
  }

  func check(_ bytes: [UInt8], _ displayReadings: DisplayReadings) -> Result<Question, PluginError> {
    Result { () throws(PluginError) in
      try PluginTopics.question(
        bytes, topicID: "test.eras", seed: 1, path: "/plugins/libtest.so", displayReadings: displayReadings)
    }
  }

  @Test func aDisplayMetBeforeStillHasEveryReadingChecked() throws {
    let remembered = DisplayReadings()
    _ = try check(Self.question(display: "令和5年", kanji: "令和五年", readings: ["れいわごねん"], year: 2023), remembered).get()
    // Both displays are read whole: the one in digits and the one in kanji.
    #expect(remembered.count == 2)
    // The same display, now with a reading Biki does not give: refused as the first time would.
    let lie = check(Self.question(display: "令和5年", kanji: "令和五年", readings: ["れいわろくねん"], year: 2023), remembered)
    guard case .failure(let error) = lie else {
      Issue.record("a wrong reading was served for a remembered display")
      return
    }
    #expect(error.kind == .readingMismatch)
    #expect("\(error)".contains(#"reading "れいわろくねん" is not one Biki gives for "令和5年" (れいわごねん)"#), "\(error)")
    #expect(remembered.count == 2)
  }

  @Test func remembersWhatBikiReads() {
    let remembered = DisplayReadings()
    #expect(remembered.reading(of: "令和元年")?.all() == ["れいわがんねん"])
    #expect(remembered.reading(of: "令和元年")?.all() == ["れいわがんねん"])
    #expect(remembered.reading(of: "8本")?.all() == ["はっぽん", "はちほん"])
    #expect(remembered.count == 2)
  }

  @Test func aDisplayBikiCannotReadIsRememberedAsUnreadable() {
    let remembered = DisplayReadings()
    #expect(remembered.reading(of: "月曜日") == nil)
    #expect(remembered.reading(of: "月曜日") == nil)
    #expect(remembered.count == 1)
  }

  @Test func displaysAreToldApartByTheirBytes() {
    // ペ written as one scalar and as ヘ + a combining mark: Biki reads both alike, and each is
    // kept under its own bytes, so neither answers for the other's text.
    let remembered = DisplayReadings()
    let composed = remembered.reading(of: "3ページ")
    let decomposed = remembered.reading(of: "3ヘ\u{309A}ージ")
    #expect(composed != nil && composed == decomposed)
    #expect(remembered.count == 2)
  }

  @Test func keepsAtMostItsCapacity() {
    let remembered = DisplayReadings()
    for number in 0...DisplayReadings.capacity { _ = remembered.reading(of: "\(number)本") }
    #expect(remembered.count <= DisplayReadings.capacity)
    #expect(remembered.reading(of: "3本")?.all() == ["さんぼん"])
  }

  @Test func aLongDisplayIsReadButNotKept() {
    let remembered = DisplayReadings()
    let long = String(repeating: "本", count: DisplayReadings.longestKept) + "3本"
    #expect(remembered.reading(of: long) == nil)
    #expect(remembered.reading(of: "3本")?.all() == ["さんぼん"])
    #expect(remembered.count == 1)
  }

  @Test func aPluginsGeneratorsShareOne() throws {
    let bytes = Self.question(display: "平成31年", kanji: "平成三十一年", readings: ["へいせいさんじゅういちねん"], year: 2019)
    let backend = PluginBackend(
      path: "/plugins/libtest.so",
      describe: { () throws(PluginError) in
        (
          PluginIdentity(id: "test", name: "Test", version: "1", abiVersion: 1),
          Array(
            #"{"topics": [{"id": "eras", "title": "Eras", "category": "dateTime", "skills": ["reading"], "questionCount": 3, "parameters": []}]}"#
              .utf8)
        )
      },
      generate: { _, _, seeds throws(PluginError) in seeds.map { _ in .success(bytes) } })
    let topics = try PluginTopics(backend: backend)
    let copy = topics
    _ = try topics.generator(for: topics.topics[0]).question(seed: 0)
    _ = try copy.generator(for: copy.topics[0]).question(seed: 1)
    #expect(topics.displayReadings.count == 2)  // 平成31年 and 平成三十一年, each read once
    #expect(copy.displayReadings === topics.displayReadings)
  }

  /// A question declares at most 64 words; more is bad output, named.
  @Test func aQuestionDeclaresAtMost64Words() {
    func question(words: Int) -> [UInt8] {
      let list = (0..<words).map { _ in #"{"text": "税込", "reading": "ぜいこみ"}"# }.joined(separator: ", ")
      return Array(
        #"{"display": "税込¥286", "kanjiDisplay": "税込二百八十六円", "spoken": "ぜいこみにひゃくはちじゅうろくえん", "readings": ["ぜいこみにひゃくはちじゅうろくえん"], "answer": {"value": 286, "prefix": "¥"}, "words": [\#(list)]}"#
          .utf8)
    }
    #expect((try? check(question(words: 64), DisplayReadings()).get()) != nil)
    guard case .failure(let error) = check(question(words: 65), DisplayReadings()) else {
      Issue.record("65 words were accepted")
      return
    }
    #expect(error.kind == .badOutput)
    #expect("\(error)".contains("at most 64"), "\(error)")
  }
}
