#if canImport(Glibc)
  import Glibc
#endif

/// The live clock that sessions, plugin timeouts and benchmarks are given: seconds on the
/// monotonic clock since it was made. Tests inject their own `() -> Double` instead.
package enum MonotonicClock {
  package static func live() -> @Sendable () -> Double {
    // The clock `ContinuousClock` reads (it goes on while the machine sleeps), read directly:
    // the message loop reads it on every pass, and a `Duration`'s 128-bit parts cost more
    // than the reading itself.
    let start = reading()
    return { reading() - start }
  }

  private static func reading() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_BOOTTIME, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
