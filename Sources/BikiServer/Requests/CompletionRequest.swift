import BikiJSON
import BikiProtocol

/// `textDocument/completion` in a pack file.
struct CompletionRequest: ClientMessage {
  static let method = "textDocument/completion"

  var uri: String
  var position: Position

  init(uri: String, position: Position) {
    self.uri = uri
    self.position = position
  }

  /// `context` (how completion was triggered) is not read: the candidates are the same.
  init(_ params: Params) throws(ResponseError) {
    uri = try Self.documentURI(params)
    position = try Position(params.object("position"))
  }

  var params: JSON { ["textDocument": Self.textDocument(uri), "position": position.json] }
}
