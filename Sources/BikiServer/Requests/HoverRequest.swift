/// `textDocument/hover` in a pack file.
struct HoverRequest: DocumentPositionRequest {
  static let method = "textDocument/hover"

  var uri: String
  var position: Position
}
