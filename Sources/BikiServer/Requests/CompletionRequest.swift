/// `textDocument/completion` in a pack file. `context` (how completion was triggered) is not
/// read: the candidates are the same.
struct CompletionRequest: DocumentPositionRequest {
  static let method = "textDocument/completion"

  var uri: String
  var position: Position
}
