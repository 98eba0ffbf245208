import BikiJSON
import BikiProtocol

/// `textDocument/prepareRename`: whether the name under the cursor can be renamed, and its range.
struct PrepareRenameRequest: DocumentPositionRequest {
  static let method = "textDocument/prepareRename"

  var uri: String
  var position: Position
}

/// `textDocument/rename`: a name and every use of it, renamed.
struct RenameRequest: ClientMessage {
  static let method = "textDocument/rename"

  var uri: String
  var position: Position
  var newName: String

  init(uri: String, position: Position, newName: String) {
    self.uri = uri
    self.position = position
    self.newName = newName
  }

  init(_ params: Params) throws(ResponseError) {
    let uri = try Self.documentURI(params)
    self.init(uri: uri, position: try Position(params.object("position")), newName: try params.string("newName"))
  }

  var params: JSON { ["textDocument": Self.textDocument(uri), "position": position.json, "newName": .string(newName)] }
}
