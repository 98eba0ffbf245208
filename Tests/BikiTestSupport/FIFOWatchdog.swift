import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Frees a test that a regression leaves blocked opening or reading a FIFO: past the deadline it
/// opens each FIFO for writing and closes it again, which lets a waiting reader go on (to EOF),
/// so the test fails on what it then sees instead of hanging the suite. A time limit alone
/// cannot do this, since it cannot interrupt a thread stuck in open().
public final class FIFOWatchdog: @unchecked Sendable {
  private let paths: [String]
  private let lock = NSLock()
  private var stopped = false
  private var freed = false

  public init(_ paths: [String], seconds: Double = 5) {
    self.paths = paths
    Thread { [self] in watch(until: Date(timeIntervalSinceNow: seconds)) }.start()
  }

  private func watch(until deadline: Date) {
    while Date() < deadline {
      if lock.withLock({ stopped }) { return }
      usleep(20_000)
    }
    while !lock.withLock({ stopped }) {
      for path in paths {
        // Succeeds only while someone waits to read: that reader was stuck.
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 {
          lock.withLock { freed = true }
          close(descriptor)
        }
      }
      usleep(20_000)
    }
  }

  /// Stops watching; true if a reader had to be freed, which is the regression.
  public func stop() -> Bool {
    lock.withLock {
      stopped = true
      return freed
    }
  }
}
