/// The Japanese eras from 明治 on, with the days they began (proleptic Gregorian calendar).
///
/// 明治 was proclaimed on 1868-10-23 and applied to the whole of that lunar year, so 明治元年 is
/// 1868 when converting years; date lookups before the proclamation give no era.
package struct Era: Hashable, Sendable {
  package var name: String
  package var reading: String
  package var start: CalendarDate

  static let meiji = Era(name: "明治", reading: "めいじ", start: CalendarDate(1868, 10, 23))
  static let taisho = Era(name: "大正", reading: "たいしょう", start: CalendarDate(1912, 7, 30))
  static let showa = Era(name: "昭和", reading: "しょうわ", start: CalendarDate(1926, 12, 25))
  static let heisei = Era(name: "平成", reading: "へいせい", start: CalendarDate(1989, 1, 8))
  static let reiwa = Era(name: "令和", reading: "れいわ", start: CalendarDate(2019, 5, 1))

  /// Oldest first.
  package static let all: [Era] = [.meiji, .taisho, .showa, .heisei, .reiwa]

  /// The era written `name`, matched by its bytes (era names have one spelling).
  package static func named(_ name: String) -> Era? {
    all.first { $0.name.hasSameBytes(as: name) }
  }

  /// The era that follows this one, if any. Eras are told apart by the day they began, which
  /// is cheaper to compare than their names.
  package var successor: Era? {
    Era.all.firstIndex { $0.start == start }.flatMap { $0 + 1 < Era.all.count ? Era.all[$0 + 1] : nil }
  }

  /// The Gregorian year of the era's `year` (1 is 元年): 令和元年 → 2019, 昭和64年 → 1989.
  package func gregorianYear(_ year: Int) -> Int {
    start.year + year - 1
  }

  /// The last year of this era that was (or, for the current era, can be) written, if it ended.
  package var lastYear: Int? {
    successor.map { $0.start.year - start.year + 1 }
  }

  /// Whether `year` of this era existed: 平成31年 did, 平成32年 did not, 令和 has no end.
  func contains(year: Int) -> Bool {
    year >= 1 && lastYear.map { year <= $0 } ?? true
  }

  /// Whether some day of `year` of this era (1 is 元年), in `month` and on `day` where given,
  /// fell within the era: 昭和64年1月7日 did, 昭和64年1月8日 (平成元年) did not, nor did
  /// 令和元年4月30日; 明治45年7月30日 did, the day 大正 began. 明治元年 counts from the first day of
  /// 1868, as the proclamation made it.
  package func contains(year: Int, month: Int?, day: Int?) -> Bool {
    guard contains(year: year) else { return false }
    let gregorian = gregorianYear(year)
    let first = start == Era.meiji.start ? CalendarDate(start.year, 1, 1) : start
    // The latest and earliest days the written date could mean.
    let latest = CalendarDate(gregorian, month ?? 12, day ?? 31)
    let earliest = CalendarDate(gregorian, month ?? 1, day ?? 1)
    return latest >= first
      && successor.map { endsOnItsSuccessorsFirstDay ? earliest <= $0.start : earliest < $0.start } ?? true
  }

  /// 明治 and 大正 changed on the day an emperor died, so that day has both names: the 大正
  /// rescript is dated 明治四十五年七月三十日, and 大正十五年十二月二十五日 is 昭和元年十二月二十五日.
  /// Under the 元号法 (1979) an era begins the day after the change is announced (平成 on
  /// 1989-01-08, after 昭和64年1月7日; 令和 on 2019-05-01), so 昭和 and 平成 end the day before.
  var endsOnItsSuccessorsFirstDay: Bool {
    start == Era.meiji.start || start == Era.taisho.start
  }

  /// The era and era year of a date: 2019-04-30 → (平成, 31), 2019-05-01 → (令和, 1).
  static func of(_ date: CalendarDate) -> (era: Era, year: Int)? {
    guard let era = all.last(where: { $0.start <= date }) else { return nil }
    return (era, date.year - era.start.year + 1)
  }

  /// Every era year that falls in a Gregorian year: 1989 → [(昭和, 64), (平成, 1)].
  static func eras(inGregorianYear year: Int) -> [(era: Era, year: Int)] {
    all.compactMap { era in
      let eraYear = year - era.start.year + 1
      return era.contains(year: eraYear) ? (era, eraYear) : nil
    }
  }
}

/// A day of the proleptic Gregorian calendar, without time or zone.
package struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  package var year: Int
  var month: Int
  var day: Int

  init(_ year: Int, _ month: Int, _ day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  package static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  /// Days in `month` (1–12) of `year`, Gregorian leap years; nil for a month that is not one.
  /// A year of nil allows 29 days in February.
  package static func daysIn(month: Int, year: Int?) -> Int? {
    guard (1...12).contains(month) else { return nil }
    let leap = year.map { $0 % 4 == 0 && ($0 % 100 != 0 || $0 % 400 == 0) } ?? true
    return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  }

  package var description: String {
    func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(year)-\(pad(month))-\(pad(day))"
  }
}
