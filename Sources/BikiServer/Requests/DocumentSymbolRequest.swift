import BikiJSON
import BikiProtocol

/// `textDocument/documentSymbol`: a pack file's outline.
struct DocumentSymbolRequest: ClientMessage {
  static let method = "textDocument/documentSymbol"

  var uri: String

  init(uri: String) { self.uri = uri }

  init(_ params: Params) throws(ResponseError) {
    uri = try Self.documentURI(params)
  }

  var params: JSON { ["textDocument": Self.textDocument(uri)] }
}
