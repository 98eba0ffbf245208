import BikiPacks
import Foundation
import BikiSync

/// Runs work away from the message loop. The live value starts a thread; tests run the work
/// at once, so a check's result is there before the call returns.
package struct BackgroundRunner: Sendable {
  package var run: @Sendable (_ work: @escaping @Sendable () -> Void) -> Void

  package init(run: @Sendable @escaping (_ work: @escaping @Sendable () -> Void) -> Void) {
    self.run = run
  }

  package static let thread = BackgroundRunner { work in
    let thread = Thread { work() }
    // Pack checks recurse as deep as a pack nests (at most 256 levels); leave them room.
    thread.stackSize = 8 << 20
    thread.start()
  }

  package static let immediate = BackgroundRunner { work in work() }
}

/// One check of an open document, running on its own thread: the message loop starts it,
/// cancels it when a newer edit or a close supersedes it, and collects its result when done.
final class DocumentCheck: Sendable {
  /// The document version the check is of, published with its diagnostics.
  let version: Int64?
  /// Which of the document's texts it checks (see `Document.edits`).
  let edit: Int
  private let result = Locked<Result?>(nil)
  private let cancelled = Locked(false)

  /// What a finished check found; the compilation (nil for a document that is not a pack) is
  /// kept for hover.
  struct Result: Sendable {
    var diagnostics: [Diagnostic]
    var compilation: PackCompilation?
  }

  init(version: Int64?, edit: Int) {
    self.version = version
    self.edit = edit
  }

  var isCancelled: Bool { cancelled.withLock { $0 } }

  func cancel() { cancelled.withLock { $0 = true } }

  func finish(_ found: Result) { result.withLock { $0 = found } }

  /// What the check found, once it is done.
  var found: Result? { result.withLock { $0 } }
}
