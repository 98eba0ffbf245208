import BikiJSON

/// One problem found in a pack, with where it is and which rule found it. Produced once by
/// the validator; rendered as gcc-style text, JSON, or LSP diagnostics by its callers.
package struct Diagnostic: Hashable, Sendable {
  package enum Severity: String, Hashable, Sendable, Codable, Comparable {
    case error, warning

    package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
  }

  package var severity: Severity
  package var message: String
  /// A stable id naming the rule, e.g. `unknown-key`, `range-step`.
  package var rule: String
  package var range: SourceRange
  /// The did-you-mean correction the message offers, for an editor's quick fix.
  package var fix: Fix?

  /// Within the diagnostic's range, the name `word` (as a whole word) should read `replacement`.
  package struct Fix: Hashable, Sendable {
    package var word: String
    package var replacement: String
  }

  package init(_ severity: Severity, _ message: String, rule: String, at range: SourceRange, fix: Fix? = nil) {
    self.severity = severity
    self.message = message
    self.rule = rule
    self.range = range
    self.fix = fix
  }

  /// `path:line:col: severity: message [rule]`, with 1-based line and column.
  package func formatted(path: String) -> String {
    "\(path):\(range.start.line + 1):\(range.start.column + 1): \(severity.rawValue): \(message) [\(rule)]"
  }
}

extension SourceRange {
  /// An empty range at the start of a file, for problems with no better place.
  package static let fileStart = SourceRange(start: .start, end: .start)
}
