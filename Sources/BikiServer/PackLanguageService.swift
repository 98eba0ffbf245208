import BikiHost
import BikiProtocol

/// Pack files as a language: the documents open in the client, their checks and diagnostics,
/// hover, completion, definitions, symbols, formatting, renames, inlay hints and code lenses.
/// It shares the catalog and the message loop with the quiz service and nothing else: the quiz
/// side never reads a document, and this side never reads a session or an open request. Its
/// checks run off the loop and report to the loop's mailbox.
struct PackLanguageService {
  let dependencies: ServerDependencies
  /// Where a document's check reports when done; the loop hands it back (`checkFinished`).
  let mailbox: Mailbox
  /// The catalog documents are checked against: the one the server serves, set when it changes.
  var catalog: Catalog
  var documents: [String: Document] = [:]
  /// The bytes of text in `documents`, kept so each change is checked against the cap cheaply.
  var openBytes = 0
  /// Checks of open documents still running, by URI.
  var checks: [String: DocumentCheck] = [:]
  /// Whether the client renders Markdown in hovers (it says so in `initialize`); plain text if not.
  var hoverMarkdown = false
  /// Whether the client shows document symbols as a tree (else a flat list with containers).
  var hierarchicalSymbols = false
  /// How the client counts columns, agreed in `initialize`.
  var positionEncoding = PositionEncoding.utf16
  /// Whether the client pulls diagnostics (LSP 3.17, said in `initialize`): none are then pushed.
  var pullsDiagnostics = false
  /// Diagnostic results made so far: the next one's `resultId`.
  var reportsMade = 0
  /// The client's settings: inlay readings shown or not, and a fixed wait before a check.
  var inlayHintsEnabled = true
  var diagnosticsDelay: Double?

  /// How long after the first unchecked edit a document is checked: edits typed within it are
  /// checked together. A document whose last check took longer waits as long as that check took
  /// (up to `slowestDebounce`), so a large pack is not re-checked, and the check cancelled, at
  /// every keystroke; a small one is checked almost at once.
  static let debounce = 0.05
  static let slowestDebounce = 0.5

  /// The wait before checking a document whose last check took `lastCheck` seconds.
  static func debounce(afterACheckOf lastCheck: Double?) -> Double {
    guard let lastCheck, lastCheck.isFinite else { return debounce }
    return min(max(lastCheck, debounce), slowestDebounce)
  }

  /// The wait before checking an edited document: the client's setting, else as long as its last
  /// check took (`debounce(afterACheckOf:)`).
  func delay(afterACheckOf lastCheck: Double?) -> Double {
    diagnosticsDelay ?? Self.debounce(afterACheckOf: lastCheck)
  }

  init(dependencies: ServerDependencies, mailbox: Mailbox, catalog: Catalog) {
    self.dependencies = dependencies
    self.mailbox = mailbox
    self.catalog = catalog
  }

  /// When the next debounced check is due, if any is.
  var nextCheck: Double? { documents.isEmpty ? nil : documents.values.compactMap(\.checkAt).min() }

  /// Every open document is checked again at `now`: the catalog it is checked against changed.
  mutating func checkAllAgain(now: Double) {
    for uri in documents.keys { documents[uri]?.checkAt = now }
  }
}
