import BikiJSON
import BikiProtocol

/// An LSP position: a 0-based line and a column in UTF-16 code units.
struct Position: Equatable, Sendable {
  var line: Int
  var character: Int

  init(line: Int, character: Int) {
    self.line = line
    self.character = character
  }

  init(_ params: Params) throws(ResponseError) {
    line = Int(try params.integer("line", in: 0...Int64(Int32.max)))
    character = Int(try params.integer("character", in: 0...Int64(Int32.max)))
  }

  var json: JSON { ["line": .integer(Int64(line)), "character": .integer(Int64(character))] }
}

/// A request about one place in a document (LSP's `TextDocumentPositionParams`): hover,
/// definition, completion.
protocol DocumentPositionRequest: ClientMessage {
  var uri: String { get }
  var position: Position { get }
  init(uri: String, position: Position)
}

extension DocumentPositionRequest {
  init(_ params: Params) throws(ResponseError) {
    let uri = try Self.documentURI(params)
    self.init(uri: uri, position: try Position(params.object("position")))
  }

  var params: JSON { ["textDocument": Self.textDocument(uri), "position": position.json] }
}

/// A request about a range of a document (LSP's `Range`): code actions, inlay hints.
protocol DocumentRangeRequest: ClientMessage {
  var uri: String { get }
  var start: Position { get }
  var end: Position { get }
  init(uri: String, start: Position, end: Position)
}

extension DocumentRangeRequest {
  /// The range is read before the document, as code actions always read it.
  init(_ params: Params) throws(ResponseError) {
    let range = try params.object("range")
    let start = try Position(range.object("start"))
    let end = try Position(range.object("end"))
    self.init(uri: try Self.documentURI(params), start: start, end: end)
  }

  var params: JSON { ["textDocument": Self.textDocument(uri), "range": ["start": start.json, "end": end.json]] }
}
