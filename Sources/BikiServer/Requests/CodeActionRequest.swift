import BikiJSON
import BikiProtocol

/// `textDocument/codeAction`: the quick fixes for a range of a pack file. `context` is not read:
/// the fixes come from the server's own diagnostics.
struct CodeActionRequest: DocumentRangeRequest {
  static let method = "textDocument/codeAction"

  var uri: String
  var start: Position
  var end: Position

  var params: JSON {
    [
      "textDocument": Self.textDocument(uri), "range": ["start": start.json, "end": end.json],
      "context": ["diagnostics": []],
    ]
  }
}
