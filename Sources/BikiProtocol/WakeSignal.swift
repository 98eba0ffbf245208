import BikiInputSupport
import BikiSync
import Glibc

/// Wakes the connection's loop from another thread. Work finished off the loop (a pack check,
/// a plugin's question) signals here, and the loop, which sleeps in `poll` on this descriptor as
/// well as on the client's input, wakes at once to send the result.
///
/// A self-pipe, made of a socket pair: a signal writes a byte, which stays readable until the
/// loop reads it, so a signal sent while the loop is busy is not lost (the next `poll` returns at
/// once). The loop drains it before it collects results, so a result finished after the drain
/// leaves a byte behind and wakes it again. Both ends are non-blocking: a full one is readable
/// already, so a signal that finds it full has nothing left to do. A socket pair rather than a
/// pipe because it is made close-on-exec and non-blocking in one call: a plugin worker spawned
/// by another thread in between cannot inherit it, as it could a pipe before `fcntl`.
///
/// A loop that finds the client's next message waiting does not `poll` at all (see
/// `Connection`), so a signal is also kept as a flag it can read without a system call.
package final class WakeSignal: Sendable {
  /// What the loop polls.
  package let descriptor: Int32
  private let writeEnd: Int32
  /// Set by `signal`, cleared by `drain`: set first and cleared first, so a signal that
  /// crosses a drain leaves the flag or a byte behind, never neither.
  private let pending = Locked(false)
  /// The loop's thread while it sleeps in `read` rather than `poll` (`InputSleeper`): a signal
  /// then also interrupts that read.
  private let sleeper = Locked<pid_t?>(nil)

  /// Nil when the process cannot make one (out of descriptors).
  package init?() {
    var ends: [Int32] = [-1, -1]
    let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    guard socketpair(AF_UNIX, kind, 0, &ends) == 0 else { return nil }
    descriptor = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(descriptor)
    close(writeEnd)
  }

  /// Callable from any thread.
  package func signal() {
    let wasPending = pending.withLock { pending in
      defer { pending = true }
      return pending
    }
    var byte: UInt8 = 1
    while write(writeEnd, &byte, 1) < 0 && errno == EINTR {}
    // Once between drains: the loop reads the flag before it sleeps again.
    if !wasPending, let thread = sleeper.withLock({ $0 }) { biki_sleeper_interrupt(thread) }
  }

  /// Names the thread whose sleeping read a signal interrupts (nil: none).
  func wakeSleeper(_ thread: pid_t?) {
    sleeper.withLock { $0 = thread }
  }

  /// Whether a signal came since the last `drain`.
  var isPending: Bool { pending.withLock { $0 } }

  /// Clears pending signals; only the loop calls it.
  package func drain() {
    pending.withLock { $0 = false }
    var bytes = [UInt8](repeating: 0, count: 256)
    while true {
      let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count < bytes.count { return }
    }
  }
}
