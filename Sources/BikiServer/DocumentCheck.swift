import BikiPacks

/// One check of an open document, running off the message loop: the loop starts it, cancels
/// it when a newer edit or a close supersedes it, and publishes its result when done.
struct DocumentCheck {
  /// The document version the check is of, published with its diagnostics.
  let version: Int64?
  /// Which of the document's texts it checks (see `Document.edits`).
  let edit: Int
  /// The text checked, whose lines the diagnostics' columns count.
  let text: [UInt8]
  let startedAt: Double
  let work: WorkTicket

  /// What a finished check found; the compilation (nil for a document that is not a pack) is
  /// kept for hover.
  struct Result: Sendable {
    var diagnostics: [Diagnostic]
    var compilation: PackCompilation?
  }
}
