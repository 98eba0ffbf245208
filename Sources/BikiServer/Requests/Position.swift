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
