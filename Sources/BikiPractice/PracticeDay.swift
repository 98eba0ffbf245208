import Foundation

/// Where a learner's day begins, as Anki counts days: at 4 a.m. local time. Two reviews of a
/// form on one such day are one sitting (FSRS's short-term memory); a review on a later day tests
/// long-term memory, however few hours have passed. A learner who practises at 21:00 and again
/// at 19:00 the next evening has come back a day later, not the same day.
package struct PracticeDay: Sendable, Hashable {
  /// Seconds east of UTC of the learner's clock.
  package var utcOffset: Int

  static let rollover = 4 * 3_600.0

  package init(utcOffset: Int) {
    self.utcOffset = utcOffset
  }

  package static let utc = PracticeDay(utcOffset: 0)

  /// The machine's time zone, as it stands now.
  package static var local: PracticeDay { PracticeDay(utcOffset: TimeZone.current.secondsFromGMT()) }

  /// The day `at` (seconds since 1970) falls on, counted from 1970.
  func number(_ at: Double) -> Int {
    let day = ((at + Double(utcOffset) - Self.rollover) / 86_400).rounded(.down)
    return day.isFinite && abs(day) < 1e12 ? Int(day) : 0
  }

  /// Whole days from the day of `earlier` to the day of `later`.
  func days(from earlier: Double, to later: Double) -> Int {
    max(0, number(later) - number(earlier))
  }
}
