import Testing

@testable import BikiJapanese

/// Readings accepted but marked uncommon: 10 said じっ where the usual reading says じゅっ, 7
/// said しち where it says なな. Where the references put the older form first (7時 しちじ, 10羽
/// じっぱ, 9年 くねん), the other is usual too, and nothing is marked. See docs/readings.md.
@Suite struct UncommonReadingTests {
  static let table: [(text: String, typed: String, uncommon: Bool)] = [
    ("10本", "じっぽん", true), ("10本", "じゅっぽん", false), ("110本", "ひゃくじっぽん", true),
    ("10分", "じっぷん", true), ("10分", "じゅっぷん", false), ("30分", "さんじっぷん", true),
    ("7人", "しちにん", true), ("7人", "ななにん", false), ("10回", "じっかい", true),
    // The older form is the standard here, and the other usual too.
    ("7時", "しちじ", false), ("7時", "ななじ", false), ("10羽", "じっぱ", false), ("10羽", "じゅっぱ", false),
    ("9年", "くねん", false), ("9年", "きゅうねん", false), ("7年", "ななねん", false),
    // く for 9 is not marked: broadcasting says くにん as often as the dictionary's きゅうにん.
    ("9人", "くにん", false),
    // Not accepted at all is not "uncommon".
    ("10本", "とおほん", false),
  ]

  @Test(arguments: table)
  func uncommonReadingsAreMarked(text: String, typed: String, uncommon: Bool) throws {
    let reading = try PhraseReader().read(text)
    #expect(reading.isUncommon(typed: typed) == uncommon, "\(text) \(typed): \(reading)")
  }
}
