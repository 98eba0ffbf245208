import BikiJSON
import BikiProtocol

/// `textDocument/codeAction`: the quick fixes for a range of a pack file.
struct CodeActionRequest: ClientMessage {
  static let method = "textDocument/codeAction"

  var uri: String
  var start: Position
  var end: Position

  init(uri: String, start: Position, end: Position) {
    self.uri = uri
    self.start = start
    self.end = end
  }

  /// The range is read before the document, as it always was. `context` is not read: the
  /// fixes come from the server's own diagnostics.
  init(_ params: Params) throws(ResponseError) {
    let range = try params.object("range")
    start = try Position(range.object("start"))
    end = try Position(range.object("end"))
    uri = try Self.documentURI(params)
  }

  var params: JSON {
    [
      "textDocument": Self.textDocument(uri), "range": ["start": start.json, "end": end.json],
      "context": ["diagnostics": []],
    ]
  }
}
