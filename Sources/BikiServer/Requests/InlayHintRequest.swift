import BikiJSON
import BikiProtocol

/// `textDocument/inlayHint`: the hints for the lines of a range.
struct InlayHintRequest: ClientMessage {
  static let method = "textDocument/inlayHint"

  var uri: String
  var start: Position
  var end: Position

  init(uri: String, start: Position, end: Position) {
    self.uri = uri
    self.start = start
    self.end = end
  }

  init(_ params: Params) throws(ResponseError) {
    let uri = try Self.documentURI(params)
    let range = try params.object("range")
    self.init(uri: uri, start: try Position(range.object("start")), end: try Position(range.object("end")))
  }

  var params: JSON { ["textDocument": Self.textDocument(uri), "range": ["start": start.json, "end": end.json]] }
}
