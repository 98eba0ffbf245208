import Testing

@testable import BikiJapanese

/// Which forms a reading exercises, and which share a rule: a table of real readings.
@Suite struct ReadingFormTests {
  func ids(_ value: UInt128, _ counter: Counter? = nil) -> [String] {
    (counter.map { ReadingForms.of(value, counter: $0) } ?? ReadingForms.of(value)).map(\.id)
  }
  func rule(_ value: UInt128, _ counter: Counter) -> String? { ReadingForms.of(value, counter: counter).last?.rule }

  @Test func countersFinalForms() {
    #expect(ids(8, .hon) == ["本/final:8"])  // はっぽん
    #expect(ids(3, .hon) == ["本/final:3"])  // さんぼん
    #expect(ids(6, .hon) == ["本/final:6"])  // ろっぽん
    #expect(ids(10, .hon) == ["本/final:10"])  // じゅっぽん
    #expect(ids(2, .hon) == [])  // にほん: nothing changes
    #expect(ids(18, .hon) == ["本/final:8"])  // じゅうはっぽん: the same form, ending a longer number
  }

  /// 8本 はっぽん, 8杯 はっぱい, 8匹 はっぴき change the same way; 8個 はっこ does not change its kana.
  @Test func rulesAreSharedWhereTheDataAgrees() {
    #expect(rule(8, .hon) == "final:8:はっ+h→p")
    #expect(rule(8, .hai) == rule(8, .hon))
    #expect(rule(8, .hiki) == rule(8, .hon))
    #expect(rule(3, .hai) == rule(3, .hon))  // さんばい, さんぼん: h→b
    #expect(rule(3, .hon) == "final:3:さん+h→b")
    #expect(rule(8, .ko) == "final:8:はっ+k=k")
    #expect(rule(8, .ko) != rule(8, .hon))
  }

  @Test func numbersOwnSoundChanges() {
    #expect(ids(300) == ["百/after:3"])  // さんびゃく
    #expect(ids(600) == ["百/after:6"])  // ろっぴゃく
    #expect(ids(800) == ["百/after:8"])  // はっぴゃく
    #expect(ids(3000) == ["千/after:3"])  // さんぜん
    #expect(ids(8000) == ["千/after:8"])  // はっせん
    #expect(ids(3800) == ["百/after:8", "千/after:3"])  // さんぜんはっぴゃく
    #expect(ids(1_000_000_000_000) == ["兆/final:1"])  // いっちょう
    #expect(ids(10_000_000) == ["万/final:1000"])  // いっせんまん
    #expect(ids(123) == [])
  }

  @Test func wholeValueForms() {
    #expect(ids(20, .dayOfMonth) == ["日/date:20"])  // はつか
    #expect(ids(1, .dayOfMonth) == ["日/date:1"])  // ついたち
    #expect(ids(1, .nin) == ["人/whole:1"])  // ひとり
    #expect(ids(4, .hour) == ["時/final:4"])  // よじ
    #expect(ids(0, .hour) == ["時/zero"])  // れいじ
    #expect(ReadingForms.firstYear(of: .reiwa).id == "era:令和/1")
    #expect(ReadingForms.firstYear(of: .heisei).rule == ReadingForms.firstYear(of: .reiwa).rule)
  }
}
