import BikiJSON

/// One problem found in a pack, with where it is and which rule found it. Produced once by
/// the validator; rendered as gcc-style text, JSON, or LSP diagnostics by its callers.
public struct Diagnostic: Hashable, Sendable {
  public enum Severity: String, Hashable, Sendable, Codable, Comparable {
    case error, warning

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
  }

  public var severity: Severity
  public var message: String
  /// A stable id naming the rule, e.g. `unknown-key`, `range-step`.
  public var rule: String
  public var range: SourceRange
  /// The did-you-mean correction the message offers, for an editor's quick fix.
  public var fix: Fix?

  /// Within the diagnostic's range, the name `word` (as a whole word) should read `replacement`.
  public struct Fix: Hashable, Sendable {
    public var word: String
    public var replacement: String

    public init(word: String, replacement: String) {
      self.word = word
      self.replacement = replacement
    }
  }

  public init(_ severity: Severity, _ message: String, rule: String, at range: SourceRange, fix: Fix? = nil) {
    self.severity = severity
    self.message = message
    self.rule = rule
    self.range = range
    self.fix = fix
  }

  /// `path:line:col: severity: message [rule]`, with 1-based line and column.
  public func formatted(path: String) -> String {
    "\(path):\(range.start.line + 1):\(range.start.column + 1): \(severity.rawValue): \(message) [\(rule)]"
  }
}

extension SourceRange {
  /// An empty range at the start of a file, for problems with no better place.
  public static let fileStart = SourceRange(start: .start, end: .start)
}
