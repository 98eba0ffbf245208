import BikiJSON
import BikiProtocol

/// `textDocument/didClose`: the file is the disk's again.
struct DidCloseNotification: ClientMessage {
  static let method = "textDocument/didClose"

  var uri: String

  init(uri: String) { self.uri = uri }

  init(_ params: Params) throws(ResponseError) {
    uri = try Self.documentURI(params)
  }

  var params: JSON { ["textDocument": Self.textDocument(uri)] }
}
