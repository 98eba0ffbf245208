import BikiPacks
import Foundation
import Synchronization

/// Runs work away from the message loop. The live value starts a thread; tests run the work
/// at once, so a check's result is there before the call returns.
public struct BackgroundRunner: Sendable {
  public var run: @Sendable (_ work: @escaping @Sendable () -> Void) -> Void

  public init(run: @Sendable @escaping (_ work: @escaping @Sendable () -> Void) -> Void) {
    self.run = run
  }

  public static let thread = BackgroundRunner { work in
    let thread = Thread { work() }
    // Pack checks recurse as deep as a pack nests (at most 256 levels); leave them room.
    thread.stackSize = 8 << 20
    thread.start()
  }

  public static let immediate = BackgroundRunner { work in work() }
}

/// One check of an open document, running on its own thread: the message loop starts it,
/// cancels it when a newer edit or a close supersedes it, and collects its result when done.
final class DocumentCheck: Sendable {
  /// The document version the check is of, published with its diagnostics.
  let version: Int64?
  private let result = Mutex<[Diagnostic]?>(nil)
  private let cancelled = Atomic<Bool>(false)

  init(version: Int64?) {
    self.version = version
  }

  var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  func cancel() { cancelled.store(true, ordering: .relaxed) }

  func finish(_ diagnostics: [Diagnostic]) { result.withLock { $0 = diagnostics } }

  /// The diagnostics, once the check is done.
  var diagnostics: [Diagnostic]? { result.withLock { $0 } }
}
