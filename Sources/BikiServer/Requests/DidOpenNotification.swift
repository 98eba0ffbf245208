import BikiJSON
import BikiProtocol

/// `textDocument/didOpen`: the editor's text of a file, which is the truth while it is open.
struct DidOpenNotification: ClientMessage {
  static let method = "textDocument/didOpen"

  var uri: String
  var text: String
  var version: Int64?

  init(uri: String, text: String, version: Int64? = nil) {
    self.uri = uri
    self.text = text
    self.version = version
  }

  /// A version that is not a whole number is dropped rather than costing the document.
  init(_ params: Params) throws(ResponseError) {
    let document = try params.object("textDocument")
    uri = try document.string("uri")
    text = try document.string("text")
    version = try? document.optionalInteger("version")
  }

  var params: JSON {
    var document: [(String, JSON)] = [("uri", .string(uri)), ("languageId", "json")]
    if let version { document.append(("version", .integer(version))) }
    document.append(("text", .string(text)))
    return ["textDocument": .object(pairs: document)]
  }
}
