import BikiJSON

/// How the client counts a position's `character`: UTF-16 code units (LSP's default) or UTF-8
/// bytes (LSP 3.17's `positionEncoding`, which Neovim 0.10+ prefers and Vim's ALE assumes
/// without saying). The server works in UTF-16 throughout; a UTF-8 client's positions are
/// converted where messages cross the wire, against the text the positions are in.
enum PositionEncoding: String, Sendable {
  case utf16 = "utf-16"
  case utf8 = "utf-8"

  /// The client's choice from `initialize`: the first encoding it lists that the server knows
  /// (the list is in the client's order of preference), or a Biki client's
  /// `initializationOptions.positionEncoding` for clients (ALE) that cannot send the list.
  static func negotiated(_ params: JSON?) -> PositionEncoding {
    if let asked = params?["initializationOptions"]?["positionEncoding"]?.stringValue,
      let chosen = PositionEncoding(rawValue: asked)
    {
      return chosen
    }
    let offered = params?["capabilities"]?["general"]?["positionEncodings"]?.arrayValue ?? []
    return offered.lazy.compactMap { $0.stringValue.flatMap(PositionEncoding.init(rawValue:)) }.first ?? .utf16
  }
}

/// A text's line starts, to turn a column from one encoding into the other.
struct LineIndex {
  let text: [UInt8]
  private let starts: [Int]

  init(_ text: [UInt8]) {
    self.text = text
    var starts = [0]
    var index = 0
    while index < text.count {
      if text[index] == 0x0A {
        starts.append(index + 1)
      } else if text[index] == 0x0D {
        if index + 1 < text.count, text[index + 1] == 0x0A { index += 1 }
        starts.append(index + 1)
      }
      index += 1
    }
    self.starts = starts
  }

  /// Where the text ends, as LSP counts it (UTF-16 units).
  var end: Position {
    let last = starts.count - 1
    return Position(line: last, character: String(decoding: line(last), as: UTF8.self).utf16.count)
  }

  /// The line's bytes, without its line break; empty past the last line.
  private func line(_ number: Int) -> ArraySlice<UInt8> {
    guard number >= 0, number < starts.count else { return [] }
    var end = number + 1 < starts.count ? starts[number + 1] : text.count
    while end > starts[number], text[end - 1] == 0x0A || text[end - 1] == 0x0D { end -= 1 }
    return text[starts[number]..<end]
  }

  /// A UTF-8 column as UTF-16 units; a column inside a character is that character's start, and
  /// one past the line's end is its end.
  func utf16(line number: Int, utf8 column: Int) -> Int {
    var bytes = 0
    var units = 0
    let line = line(number)
    var index = line.startIndex
    while index < line.endIndex {
      let length = Self.length(of: line[index])
      guard bytes + length <= column else { break }
      bytes += length
      units += length == 4 ? 2 : 1
      index += length
    }
    return units
  }

  /// A UTF-16 column as UTF-8 bytes, on the same terms.
  func utf8(line number: Int, utf16 column: Int) -> Int {
    var bytes = 0
    var units = 0
    let line = line(number)
    var index = line.startIndex
    while index < line.endIndex {
      let length = Self.length(of: line[index])
      let width = length == 4 ? 2 : 1
      guard units + width <= column else { break }
      units += width
      bytes += length
      index += length
    }
    return bytes
  }

  private static func length(of lead: UInt8) -> Int { lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4 }

  /// `json` with every LSP position in it (an object of exactly `line` and `character`)
  /// converted by `convert`. Messages nest a few levels; the parser caps depth for ones read.
  static func converting(_ json: JSON, _ convert: (_ line: Int, _ character: Int) -> Int) -> JSON {
    switch json {
    case .object(let members):
      if members.count == 2, let line = json["line"]?.integerValue, let character = json["character"]?.integerValue,
        let lineNumber = Int(exactly: line), let column = Int(exactly: character)
      {
        return ["line": .integer(line), "character": .integer(Int64(convert(lineNumber, column)))]
      }
      return .object(members.map { JSON.Member($0.key, converting($0.value, convert)) })
    case .array(let elements): return .array(elements.map { converting($0, convert) })
    case .written: return converting(json.unwrapped, convert)
    default: return json
    }
  }

  /// Positions the server wrote (UTF-16) as a UTF-8 client reads them.
  func toUTF8(_ json: JSON) -> JSON { Self.converting(json) { utf8(line: $0, utf16: $1) } }
  /// A UTF-8 client's positions as the server reads them (UTF-16).
  func toUTF16(_ json: JSON) -> JSON { Self.converting(json) { utf16(line: $0, utf8: $1) } }
}
