import Foundation
import Testing

@testable import BikiCore

/// The live clock, against real time: it starts at zero, never runs back, and counts a real
/// wait as at least its length.
@Suite struct MonotonicClockTests {
  @Test func startsAtZeroAndCountsARealWait() {
    let clock = MonotonicClock.live()
    let start = clock()
    #expect(start >= 0 && start < 0.5)
    var last = start
    for _ in 0..<1_000 {
      let reading = clock()
      #expect(reading >= last)
      last = reading
    }
    usleep(50_000)
    let waited = clock() - start
    #expect(waited >= 0.05)
    // A generous ceiling: a busy machine may run late, but not by seconds.
    #expect(waited < 5)
  }

  @Test func twoClocksCountFromTheirOwnStart() {
    let first = MonotonicClock.live()
    usleep(30_000)
    let second = MonotonicClock.live()
    #expect(first() - second() >= 0.03)
  }
}
