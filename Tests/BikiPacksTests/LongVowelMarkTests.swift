import BikiJapanese
import Testing

@testable import BikiPacks

/// ー, the long-vowel mark, lengthens the kana before it: a reading in a pack never begins
/// with one, wherever the reading is (`ーと` after 11 was served as じゅういちーと).
@Suite struct LongVowelMarkTests {
  @Test func aReadingBeginsWithAKanaNotTheMark() {
    for reading in ["ー", "ーと", "ーー", "ｰと"] { #expect(KanaText.startsWithLongVowelMark(reading), "\(reading)") }
    for reading in ["", "らーめん", "けーき", "と", "とー"] { #expect(!KanaText.startsWithLongVowelMark(reading), "\(reading)") }
  }

  @Test func everyReadingInAPackIsHeldToIt() {
    let text = """
      {
        "format": 1, "id": "lv", "title": "L", "version": "1",
        "counters": [{ "id": "ten", "symbols": ["点x"], "reading": "ーと", "whole": { "1": "ー" }, "final": { "8": ["ーぱと"] }, "zero": ["ーー"] }],
        "objects": [{ "name": "ケーキ", "reading": "ーき", "counters": ["個"] }],
        "topics": [
          {
            "id": "a", "title": "A", "description": "d", "category": "counter", "skills": ["reading"],
            "variables": { "n": { "range": { "min": 1, "max": 20 } }, "c": { "choice": [{ "text": "朝", "reading": "ーさ", "value": 1 }] } },
            "question": { "parts": [{ "text": "ノート", "reading": "ーと" }, { "choice": "c" }, { "number": "n", "counter": "本" }], "answer": { "value": "n" } }
          }
        ]
      }
      """
    let compilation = PackFixtures.compile(text)
    let places = ["\"ーと\"", "\"ー\"", "\"ーぱと\"", "\"ーー\"", "\"ーき\"", "\"ーさ\"", "\"ーと\" }"].map { needle in
      ObjectRuleTests.place(of: needle, in: text, after: needle == "\"ーと\" }" ? "\"ノート\"" : nil)
    }
    #expect(
      compilation.diagnostics.map { "\($0.range.start) \($0.rule)" } == places.map { "\($0) invalid-kana" },
      "\(compilation.diagnostics)")
    #expect(
      compilation.diagnostics.first?.message.hasPrefix(
        "reading \"ーと\" begins with ー, the long-vowel mark, which lengthens the kana before it") == true)
    #expect(compilation.topics.isEmpty)
  }

  @Test func theMarkAfterAKanaIsFine() {
    let text = PackFixtures.pack(
      topic: PackFixtures.validTopic.replacingOccurrences(
        of: #"[{ "number": "n", "counter": "本" }]"#,
        with: #"[{ "text": "ケーキ", "reading": "けーき" }, { "number": "n", "counter": "本" }]"#))
    let compilation = PackFixtures.compile(text)
    #expect(compilation.diagnostics.isEmpty, "\(compilation.diagnostics)")
    #expect(compilation.topics.count == 1)
  }
}
