import Synchronization

/// A clock a test moves by hand: the one stand-in for the monotonic clock that sessions, the
/// server and plugins are given, so no test sleeps to make time pass.
public final class ManualClock: Sendable {
  private let seconds: Mutex<Double>

  public init(at start: Double) { seconds = Mutex(start) }

  /// Its reading, as the code under test is given a clock.
  public var now: @Sendable () -> Double { { self.seconds.withLock { $0 } } }

  public func advance(_ by: Double) { seconds.withLock { $0 += by } }
}
