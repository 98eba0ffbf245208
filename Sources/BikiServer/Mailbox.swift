import BikiCore
import BikiJSON
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

  /// Threads for the work, each waking `wake` when a piece of work ends: at most `limit` at once
  /// (the rest wait their turn, in order), so 200 documents opened together are not 200
  /// threads each holding its own memory. A thread takes the next waiting work when done, and
  /// ends when none waits.
  package static func threads(waking wake: WakeSignal?, limit: Int = 4) -> BackgroundRunner {
    let pool = Locked<(waiting: [@Sendable () -> Void], running: Int)>(([], 0))
    @Sendable func next() -> (@Sendable () -> Void)? {
      pool.withLock { pool in
        guard !pool.waiting.isEmpty else {
          pool.running -= 1
          return nil
        }
        return pool.waiting.removeFirst()
      }
    }
    return BackgroundRunner { work in
      let startsThread = pool.withLock { pool in
        guard pool.running < max(limit, 1) else {
          pool.waiting.append(work)
          return false
        }
        pool.running += 1
        return true
      }
      guard startsThread else { return }
      let thread = Thread {
        var current: (@Sendable () -> Void)? = work
        while let piece = current {
          piece()
          wake?.signal()
          current = next()
        }
      }
      // Pack checks recurse as deep as a pack nests (at most 256 levels); leave them room.
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  package static let immediate = BackgroundRunner { work in work() }

  /// Starts `make` off the loop; what it makes is posted to `mailbox` as `report` words it,
  /// unless the work was cancelled meanwhile. The ticket is the loop's handle on the work.
  func start<Value: Sendable>(
    _ make: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Value,
    reporting report: @escaping @Sendable (WorkTicket, Value) -> Completion, to mailbox: Mailbox
  ) -> WorkTicket {
    let ticket = WorkTicket()
    run {
      let made = make { ticket.isCancelled }
      if !ticket.isCancelled { mailbox.post(report(ticket, made)) }
    }
    return ticket
  }
}

/// Work running off the message loop, as the loop holds it: the loop may cancel it (the work
/// checks the flag where it can stop early; a plugin call in progress runs to its own time
/// limit), and its completion carries the ticket back, so a completion for work since cancelled
/// or superseded, or for a request whose id a client has used again, is told apart by identity.
final class WorkTicket: Sendable {
  private let cancelled = Locked(false)

  var isCancelled: Bool { cancelled.withLock { $0 } }

  func cancel() { cancelled.withLock { $0 = true } }
}

/// What work off the loop reports when it is done. The loop drains these in one place
/// (`BikiServer.drainCompletions`) and hands each to the part of the server that started it.
enum Completion: Sendable {
  /// A session's plan, for the start request `RequestID`.
  case plan(RequestID, WorkTicket, Result<SessionPlan, ResponseError>)
  /// A session's next question, for the request waiting for it.
  case question(RequestID, WorkTicket, Result<Question, GenerationError>)
  /// A `biki/generate` request's answer.
  case questions(RequestID, WorkTicket, Result<JSON, ResponseError>)
  /// A reload's catalog.
  case catalog(WorkTicket, Catalog)
  /// An open document's check.
  case check(uri: String, WorkTicket, DocumentCheck.Result)
}

/// Where work off the loop posts its completions; threads post, the loop takes them all at once.
final class Mailbox: Sendable {
  private let posted = Locked<[Completion]>([])

  func post(_ completion: Completion) { posted.withLock { $0.append(completion) } }

  /// Everything posted so far, oldest first, leaving the mailbox empty.
  func takeAll() -> [Completion] {
    posted.withLock { posted in
      defer { posted.removeAll() }
      return posted
    }
  }

  var isEmpty: Bool { posted.withLock { $0.isEmpty } }
}
