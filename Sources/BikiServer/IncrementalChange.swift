import BikiJSON
import BikiProtocol

/// One `textDocument/didChange` content change with a range (incremental sync), applied to a
/// document's UTF-8 text. LSP positions count UTF-16 code units within a line; lines end at
/// `\n`, `\r\n` or `\r`.
struct IncrementalChange: Equatable, Sendable {
  var start: Position
  var end: Position
  var text: String

  /// From an LSP `Range` object; nil when it is not one.
  init?(range: JSON, text: String) {
    func position(_ key: String) -> Position? {
      guard let line = range[key]?["line"]?.integerValue, let character = range[key]?["character"]?.integerValue,
        line >= 0, character >= 0, line <= Int64(Int32.max), character <= Int64(Int32.max)
      else { return nil }
      return Position(line: Int(line), character: Int(character))
    }
    guard let start = position("start"), let end = position("end") else { return nil }
    self.start = start
    self.end = end
    self.text = text
  }

  /// The text with the range replaced, or nil when it cannot be applied: the range ends before
  /// it starts, or names a line the text does not have. A character past the end of a line means
  /// the line's end, as the spec says, and the line just past the last means the text's end (how
  /// editors name "to the end"); a line further on means the editor's text is not this one, so
  /// the change is refused rather than guessed at. A position inside a surrogate pair means the
  /// start of that character.
  func applied(to bytes: [UInt8], encoding: PositionEncoding = .utf16) -> [UInt8]? {
    guard let from = IncrementalChange.offset(of: start, in: bytes, encoding: encoding),
      let to = IncrementalChange.offset(of: end, in: bytes, encoding: encoding), from <= to
    else {
      return nil
    }
    var result = [UInt8]()
    result.reserveCapacity(bytes.count - (to - from) + text.utf8.count)
    result += bytes[..<from]
    result += text.utf8
    result += bytes[to...]
    return result
  }

  /// The byte offset of a (line, character) position, the character counted in UTF-16 units or
  /// UTF-8 bytes; nil for a line past the one just after the last.
  static func offset(of position: Position, in bytes: [UInt8], encoding: PositionEncoding = .utf16) -> Int? {
    var index = 0
    var line = 0
    // Find the line's start.
    while line < position.line {
      guard index < bytes.count else { return position.line == line + 1 ? bytes.count : nil }
      if bytes[index] == 0x0A {
        line += 1
      } else if bytes[index] == 0x0D {
        if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
        line += 1
      }
      index += 1
    }
    // Walk the line in the client's units; a position inside a character is its start.
    var units = 0
    while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D {
      let lead = bytes[index]
      let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
      let width = encoding == .utf8 ? length : length == 4 ? 2 : 1
      guard units + width <= position.character else { break }
      units += width
      index = min(index + length, bytes.count)
    }
    return index
  }
}
