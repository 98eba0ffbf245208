import BikiJSON
import BikiProtocol

/// `textDocument/definition`: where a name in a pack file is declared.
struct DefinitionRequest: ClientMessage {
  static let method = "textDocument/definition"

  var uri: String
  var position: Position

  init(uri: String, position: Position) {
    self.uri = uri
    self.position = position
  }

  /// The position is read before the document, as it always was.
  init(_ params: Params) throws(ResponseError) {
    position = try Position(params.object("position"))
    uri = try Self.documentURI(params)
  }

  var params: JSON { ["textDocument": Self.textDocument(uri), "position": position.json] }
}
