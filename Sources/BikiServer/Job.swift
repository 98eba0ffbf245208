import BikiProtocol
import BikiSync
import Foundation

/// Runs work away from the message loop. The live value starts a thread and signals the loop's
/// `WakeSignal` when the work is done, so its result goes out at once; tests run the work at
/// once (its result is there before the call returns) or hold it to run later.
package struct BackgroundRunner: Sendable {
  var run: @Sendable (_ work: @escaping @Sendable () -> Void) -> Void

  init(run: @Sendable @escaping (_ work: @escaping @Sendable () -> Void) -> Void) {
    self.run = run
  }

  /// A thread per piece of work, which wakes `wake` when it ends.
  package static func threads(waking wake: WakeSignal?) -> BackgroundRunner {
    BackgroundRunner { work in
      let thread = Thread {
        work()
        wake?.signal()
      }
      // Pack checks recurse as deep as a pack nests (at most 256 levels); leave them room.
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  static let immediate = BackgroundRunner { work in work() }

  /// Starts `make` off the loop; the job holds its value once it is done.
  func start<Value: Sendable>(_ make: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Value)
    -> Job<Value>
  {
    let job = Job<Value>()
    run { job.finish(make { job.isCancelled }) }
    return job
  }
}

/// Work running off the message loop: the loop starts it, may cancel it (the work checks the
/// flag where it can stop early; a plugin call in progress runs to its own time limit), and
/// collects its value once it is done. A cancelled job's value is never collected.
final class Job<Value: Sendable>: Sendable {
  private let value = Locked<Value?>(nil)
  private let cancelled = Locked(false)

  var isCancelled: Bool { cancelled.withLock { $0 } }

  func cancel() { cancelled.withLock { $0 = true } }

  func finish(_ made: Value) { value.withLock { $0 = made } }

  /// The value, once the work is done.
  var found: Value? { value.withLock { $0 } }
}
