import Testing

@testable import BikiJapanese

/// The sentence a learner who missed a sound change is shown, for the readings NHK's
/// pronunciation dictionary and school tables give (docs/readings.md).
@Suite struct SoundChangeNoteTests {
  static let sentences: [(String, String?)] = [
    ("本/final:6", "6 before 本 becomes ろっ, and ほん becomes ぽん: ろっぽん"),
    ("本/final:3", "After 3, ほん becomes ぼん: さんぼん"),
    ("本/final:1", "1 before 本 becomes いっ, and ほん becomes ぽん: いっぽん"),
    ("本/final:10", "10 before 本 becomes じゅっ, and ほん becomes ぽん: じゅっぽん"),
    ("本/final:1000", "After 千, ほん becomes ぼん: せんぼん"),
    ("杯/final:8", "8 before 杯 becomes はっ, and はい becomes ぱい: はっぱい"),
    ("匹/final:3", "After 3, ひき becomes びき: さんびき"),
    ("個/final:6", "6 before 個 becomes ろっ: ろっこ"),
    ("人/final:4", "4 before 人 becomes よ: よにん"),
    ("時/final:9", "9 before 時 becomes く: くじ"),
    ("人/whole:1", "1人 has a reading of its own: ひとり"),
    ("日/date:20", "20日 has a reading of its own: はつか"),
    ("百/after:3", "After 3, 百 becomes びゃく: さんびゃく"),
    ("百/after:8", "8 before 百 becomes はっ, and 百 becomes ぴゃく: はっぴゃく"),
    ("千/after:3", "After 3, 千 becomes ぜん: さんぜん"),
    // Forms no sentence is made for.
    ("era:令和/1", nil), ("本/final:x", nil), ("未知/final:6", nil),
  ]

  @Test(arguments: sentences)
  func aMissedFormIsNamedInOneSentence(id: String, sentence: String?) {
    #expect(SoundChangeNote.sentence(for: ReadingForm(id: id)) == sentence)
  }

  /// A form named for stats by what it reads; an id from a damaged history names nothing.
  @Test(arguments: [
    ("本/final:6", "6本 ろっぽん"), ("人/final:4", "4人 よにん"), ("日/date:20", "20日 はつか"), ("百/after:3", "300 さんびゃく"),
    ("千/after:8", "8000 はっせん"), ("百/after:18446744073709551615", nil), ("千/after:0", nil), ("本/zero", nil),
    ("未知/final:6", nil), ("", nil),
  ])
  func aFormIsNamedByWhatItReads(id: String, example: String?) {
    #expect(SoundChangeNote.example(forID: id) == example)
  }
}
