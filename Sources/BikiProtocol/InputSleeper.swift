import BikiInputSupport

/// Lets the loop sleep in `read` itself when it waits for its client, as a C server does: one
/// system call to wait and read a request answered one at a time, where there were three (a
/// read that found nothing, `poll`, the read), and with them the system time that separated
/// the loop from a C server's (docs/performance.md). Work finished off the loop and the
/// server's next deadline still wake it: each makes the input non-blocking and signals the
/// loop's thread, so the read returns with nothing (`biki_sleeper` in BikiInputSupport says why
/// no wake-up can be lost).
///
/// Only for a blocking pipe or socket, which is what editors hand a language server; anything
/// else (a terminal, a file, a descriptor the client made non-blocking) keeps the `poll` path.
///
/// A class for its `deinit`, which must run on the loop's thread: the run that makes one holds it.
final class InputSleeper {
  private var state = biki_sleeper()
  private let wake: WakeSignal?
  /// The deadline the timer is set for: infinity when it is off, NaN when not known (after a
  /// wake-up, which may have been the timer's own). Kept so that a pass whose deadline has not
  /// moved, as in a stream of requests, sets nothing.
  private var armedFor = Double.nan

  /// Nil when `descriptor` cannot be slept on; the loop then polls.
  init?(descriptor: Int32, wake: WakeSignal?) {
    guard biki_sleeper_begin(&state, descriptor) == 0 else { return nil }
    self.wake = wake
    wake?.wakeSleeper(state.thread)
  }

  deinit {
    wake?.wakeSleeper(nil)
    biki_sleeper_end(&state)
  }

  /// Sets the timer to wake the loop at `deadline` (never when nil), `now` being the time on
  /// the same clock.
  func wake(at deadline: Double?, now: () -> Double) {
    let target = deadline ?? .infinity
    guard target != armedFor else { return }
    armedFor = target
    biki_sleeper_arm(&state, target.isFinite ? max(0, target - now()) : -1)
  }

  /// After a read that was woken rather than given input: the input blocks again.
  func settle() {
    armedFor = .nan
    biki_sleeper_settle(&state)
  }
}
