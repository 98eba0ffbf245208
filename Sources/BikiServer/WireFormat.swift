import BikiJSON
import BikiPacks

/// The LSP shapes the pack language service writes as trees (it converts their positions for a
/// UTF-8 client). The `biki/*` values are types of their own (`Responses/`).
enum WireFormat {
  /// An LSP diagnostic: 0-based lines, UTF-16 columns.
  static func diagnostic(_ diagnostic: Diagnostic) -> JSON { WireDiagnostic(diagnostic).json }

  static func range(_ range: SourceRange) -> JSON {
    [
      "start": ["line": .integer(Int64(range.start.line)), "character": .integer(Int64(range.start.utf16Column))],
      "end": ["line": .integer(Int64(range.end.line)), "character": .integer(Int64(range.end.utf16Column))],
    ]
  }
}
