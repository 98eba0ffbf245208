import BikiJSON
import BikiProtocol

/// `textDocument/formatting`: the document in its canonical layout. The options (tab size,
/// spaces) are accepted and not read: the layout is one for everyone.
struct FormattingRequest: ClientMessage {
  static let method = "textDocument/formatting"

  var uri: String

  init(uri: String) { self.uri = uri }

  init(_ params: Params) throws(ResponseError) {
    uri = try Self.documentURI(params)
  }

  var params: JSON { ["textDocument": Self.textDocument(uri), "options": ["tabSize": 2, "insertSpaces": true]] }
}
