import BikiProtocol

/// `textDocument/inlayHint`: the hints for the lines of a range.
struct InlayHintRequest: DocumentRangeRequest {
  static let method = "textDocument/inlayHint"

  var uri: String
  var start: Position
  var end: Position
}
