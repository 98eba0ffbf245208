import Testing

@testable import BikiJapanese

/// Bare numbers. Sources: NHK日本語発音アクセント新辞典, appendix on numerals; the counting
/// alternates し and く only where 4 or 9 ends a number below 20 (Jorden, Basic Japanese §6.8;
/// 十四 is じゅうよん, じゅうし occasionally), しち wherever 7 ends one (docs/readings.md).
@Suite struct NumberReadingTests {
  static let table = ReadingTable.rows(
    """
    0 れい|ぜろ
    1 いち
    2 に
    3 さん
    4 よん|し
    5 ご
    6 ろく
    7 なな|しち
    8 はち
    9 きゅう|く
    10 じゅう
    11 じゅういち
    14 じゅうよん|じゅうし
    17 じゅうなな|じゅうしち
    19 じゅうきゅう|じゅうく
    20 にじゅう
    24 にじゅうよん
    27 にじゅうなな|にじゅうしち
    29 にじゅうきゅう
    704 ななひゃくよん
    707 ななひゃくなな|ななひゃくしち
    709 ななひゃくきゅう
    1004 せんよん
    40009 よんまんきゅう
    40 よんじゅう
    70 ななじゅう|しちじゅう
    90 きゅうじゅう
    100 ひゃく
    200 にひゃく
    300 さんびゃく
    400 よんひゃく
    600 ろっぴゃく
    700 ななひゃく
    800 はっぴゃく
    900 きゅうひゃく
    350 さんびゃくごじゅう
    1000 せん
    2000 にせん
    3000 さんぜん
    4000 よんせん
    8000 はっせん
    9000 きゅうせん
    1500 せんごひゃく
    2024 にせんにじゅうよん
    10000 いちまん
    80000 はちまん
    100000 じゅうまん
    1000000 ひゃくまん
    10000000 いっせんまん|せんまん
    20000000 にせんまん
    15000000 せんごひゃくまん
    100000000 いちおく
    120000000 いちおくにせんまん
    800000000 はちおく
    1000000000 じゅうおく
    100000000000 いっせんおく|せんおく
    1000000000000 いっちょう
    6000000000000 ろくちょう
    8000000000000 はっちょう
    10000000000000 じゅっちょう|じっちょう
    11000000000000 じゅういっちょう
    100000000000000 ひゃくちょう
    1000000000000000 いっせんちょう|せんちょう
    10000000000000000 いっけい
    60000000000000000 ろっけい
    80000000000000000 はっけい
    100000000000000000 じゅっけい|じっけい
    1000000000000000000 ひゃっけい
    10000000000000000000 いっせんけい|せんけい
    10001 いちまんいち
    1001000 ひゃくまんせん
    100010001 いちおくいちまんいち
    """)

  @Test(arguments: table)
  func reads(_ row: ReadingTable.Row) throws {
    let reading = try JapaneseNumber.reading(of: row.value)
    #expect(reading.standard == row.readings[0])
    #expect(Set(reading.all()) == Set(row.readings))
  }

  @Test func largestNumberReads() throws {
    let reading = try JapaneseNumber.reading(of: 99_999_999_999_999_999_999)
    #expect(reading.standard.hasPrefix("きゅうせんきゅうひゃくきゅうじゅうきゅうけい"))
    #expect(reading.standard.hasSuffix("きゅうまんきゅうせんきゅうひゃくきゅうじゅうきゅう"))
  }

  @Test func numbersFromTenToTheTwentyAreRefused() {
    #expect(throws: ReadingError.self) { try JapaneseNumber.reading(of: 100_000_000_000_000_000_000) }
  }

  @Test(
    arguments: [
      (350, "三百五十"), (2024, "二千二十四"), (120_000_000, "一億二千万"), (1500, "千五百"), (10, "十"),
      (0, "〇"), (10_000, "一万"), (10_000_000, "千万"), (1_000_000_000_000, "一兆"), (101, "百一"),
      (30_005, "三万五"), (10_000_000_000_000_000, "一京"),
    ] as [(UInt128, String)])
  func kanjiNumerals(_ value: UInt128, _ kanji: String) {
    #expect(JapaneseNumber.kanji(value) == kanji)
  }

  @Test func theLongestKanjiNumeralsAreWrittenWhole() {
    #expect(JapaneseNumber.kanji(99_999_999_999_999_999_999) == "九千九百九十九京九千九百九十九兆九千九百九十九億九千九百九十九万九千九百九十九")
    #expect(JapaneseNumber.kanji(UInt128(Int64.max)) == "九百二十二京三千三百七十二兆三百六十八億五千四百七十七万五千八百七")
    #expect(JapaneseNumber.kanji(77_777_777_777_777_777_777) == "七千七百七十七京七千七百七十七兆七千七百七十七億七千七百七十七万七千七百七十七")
  }

  @Test func kanjiDigitsAsYearsAreWritten() {
    #expect(JapaneseNumber.kanjiDigits(2024) == "二〇二四")
    #expect(JapaneseNumber.kanjiDigits(1989) == "一九八九")
  }

  @Test func everyKanjiNumeralParsesBack() {
    for value in Array(0...12_000) + [99_999_999, 100_000_001, 123_456_789_012_345_678] as [UInt128] {
      #expect(KanjiNumeral.parse(JapaneseNumber.kanji(value)) == value)
    }
  }
}
