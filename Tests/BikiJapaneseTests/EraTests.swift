import Testing

@testable import BikiJapanese

/// Era start dates: the Imperial Household Agency and Cabinet Office notices (docs/readings.md).
@Suite struct EraTests {
  @Test(arguments: [
    (Era.meiji, 1, 1868), (.meiji, 45, 1912), (.taisho, 1, 1912), (.taisho, 15, 1926), (.showa, 1, 1926),
    (.showa, 64, 1989), (.heisei, 1, 1989), (.heisei, 31, 2019), (.reiwa, 1, 2019), (.reiwa, 8, 2026),
  ])
  func eraYearsToGregorian(_ era: Era, _ year: Int, _ gregorian: Int) {
    #expect(era.gregorianYear(year) == gregorian)
  }

  @Test(arguments: [
    (CalendarDate(1989, 1, 7), Era.showa, 64), (CalendarDate(1989, 1, 8), .heisei, 1),
    (CalendarDate(2019, 4, 30), .heisei, 31), (CalendarDate(2019, 5, 1), .reiwa, 1),
    (CalendarDate(1926, 12, 24), .taisho, 15), (CalendarDate(1926, 12, 25), .showa, 1),
    (CalendarDate(1912, 7, 29), .meiji, 45), (CalendarDate(1912, 7, 30), .taisho, 1),
    (CalendarDate(2026, 11, 21), .reiwa, 8),
  ])
  func datesToEras(_ date: CalendarDate, _ era: Era, _ year: Int) throws {
    let found = try #require(Era.of(date))
    #expect(found.era == era)
    #expect(found.year == year)
  }

  @Test func yearsSpanningTwoEras() {
    let eras = Era.eras(inGregorianYear: 1989)
    #expect(eras.map(\.era) == [.showa, .heisei])
    #expect(eras.map(\.year) == [64, 1])
    #expect(Era.eras(inGregorianYear: 2019).map(\.year) == [31, 1])
  }

  @Test func beforeMeijiThereIsNoEra() {
    #expect(Era.of(CalendarDate(1868, 10, 22)) == nil)
    #expect(Era.eras(inGregorianYear: 1867).isEmpty)
  }

  @Test func endedErasHaveALastYear() {
    #expect(Era.showa.lastYear == 64)
    #expect(Era.heisei.contains(year: 31))
    #expect(!Era.heisei.contains(year: 32))
    #expect(Era.reiwa.contains(year: 100))
  }

  /// The days an era changed: 明治 and 大正 ended on the day their successor began (the emperor
  /// died that day; the 大正 rescript is dated 明治四十五年七月三十日), while under the 元号法 平成 and
  /// 令和 began the day after 昭和 and 平成 ended [ERA].
  @Test(
    arguments: [
      (Era.meiji, 45, 7, 30, true), (.meiji, 45, 7, 31, false), (.taisho, 1, 7, 30, true), (.taisho, 1, 7, 29, false),
      (.taisho, 15, 12, 25, true), (.taisho, 15, 12, 26, false), (.showa, 1, 12, 25, true), (.showa, 1, 12, 24, false),
      (.showa, 64, 1, 7, true), (.showa, 64, 1, 8, false), (.heisei, 1, 1, 8, true), (.heisei, 1, 1, 7, false),
      (.heisei, 31, 4, 30, true), (.heisei, 31, 5, 1, false), (.reiwa, 1, 5, 1, true), (.reiwa, 1, 4, 30, false),
    ] as [(Era, Int, Int, Int, Bool)])
  func theDayAnEraChangedBelongsToTheErasThatNamedIt(_ era: Era, _ year: Int, _ month: Int, _ day: Int, _ existed: Bool)
  {
    #expect(era.contains(year: year, month: month, day: day) == existed)
  }
}
