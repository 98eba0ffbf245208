/// The live clock that sessions, plugin timeouts and benchmarks are given: seconds on the
/// monotonic clock since it was made. Tests inject their own `() -> Double` instead.
package enum MonotonicClock {
  package static func live() -> @Sendable () -> Double {
    let start = ContinuousClock.now
    return {
      let elapsed = start.duration(to: ContinuousClock.now)
      return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
  }
}
