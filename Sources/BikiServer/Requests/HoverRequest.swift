import BikiJSON
import BikiProtocol

/// `textDocument/hover` in a pack file.
struct HoverRequest: ClientMessage {
  static let method = "textDocument/hover"

  var uri: String
  var position: Position

  init(uri: String, position: Position) {
    self.uri = uri
    self.position = position
  }

  init(_ params: Params) throws(ResponseError) {
    uri = try Self.documentURI(params)
    position = try Position(params.object("position"))
  }

  var params: JSON { ["textDocument": Self.textDocument(uri), "position": position.json] }
}
