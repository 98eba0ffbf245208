import BikiProtocol

/// `textDocument/definition`: where a name in a pack file is declared.
struct DefinitionRequest: DocumentPositionRequest {
  static let method = "textDocument/definition"

  var uri: String
  var position: Position

  init(uri: String, position: Position) {
    self.uri = uri
    self.position = position
  }

  /// The position is read before the document, as it always was.
  init(_ params: Params) throws(ResponseError) {
    let position = try Position(params.object("position"))
    self.init(uri: try Self.documentURI(params), position: position)
  }
}
