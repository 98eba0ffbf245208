import Glibc

/// A strict JSON (RFC 8259) parser that records where every value is, for diagnostics.
///
/// It reads UTF-8 bytes, so invalid UTF-8 is reported at the byte where it occurs rather than
/// lost in a lossy decode. It stops at the first syntax error: past that point positions are
/// guesswork, and a linter is better served by one precise message than by a cascade.
package enum JSONParser {
  /// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
  static let maximumDepth = 256

  package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
    try parse(bytes, into: PlacedTree.self)
  }

  package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
    try parse(Array(text.utf8))
  }

  /// The value alone, for text whose valid values nobody points into: a message, a plugin's
  /// output, a history line. The same grammar and the same errors, at the same places, as
  /// `parse`; it skips keeping the place of every value, which costs more than the values.
  package static func value(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSON {
    try parse(bytes, into: BareTree.self)
  }

  private static func parse<Tree: ParseTree>(_ bytes: [UInt8], into tree: Tree.Type) throws(JSONSyntaxError)
    -> Tree.Node
  {
    // The parser reads through a buffer pointer: reading through the array retained and
    // released it for nearly every byte.
    let result = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONSyntaxError) in
        var parser = Parser<Tree>(bytes: buffer)
        do throws(JSONSyntaxError) {
          parser.skipByteOrderMark()
          parser.skipWhitespace()
          let node = try parser.parseValue(depth: 0)
          parser.skipWhitespace()
          guard parser.isAtEnd else {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
          }
          return node
        } catch {
          // A file that is not UTF-8 is reported as such, at its first bad byte, before any
          // syntax: that is the fault to fix first, wherever it is. A parse that succeeds
          // needs no separate check: outside strings only ASCII is valid, and each string is
          // validated as it becomes a String.
          var checker = Parser<Tree>(bytes: buffer)
          try checker.checkEncoding()
          throw error
        }
      }
    }
    return try result.get()
  }
}

/// What a parse builds from what it reads.
private protocol ParseTree {
  associatedtype Node
  associatedtype Member
  /// Whether the parser keeps the line and columns as it goes, for every value's range. When it
  /// does not, an error's place is worked out from its byte offset when it is thrown.
  static var recordsPlaces: Bool { get }
  // Parts are `consuming`: the parser hands over what it made, and a borrowed part would be
  // copied (retained) into its node and then released.
  static func object(_ members: consuming [Member], range: SourceRange) -> Node
  static func array(_ elements: consuming [Node], range: SourceRange) -> Node
  static func string(_ text: consuming String, range: SourceRange) -> Node
  /// A number from its literal, which the parser has checked against JSON's grammar.
  static func number(_ literal: Slice<UnsafeBufferPointer<UInt8>>, range: SourceRange) -> Node
  static func bool(_ flag: Bool, range: SourceRange) -> Node
  static func null(range: SourceRange) -> Node
  static func member(key: consuming String, keyRange: SourceRange, value: consuming Node) -> Member
}

/// Nodes with their ranges, for diagnostics and editors.
private enum PlacedTree: ParseTree {
  static var recordsPlaces: Bool { true }
  static func object(_ members: consuming [JSONMember], range: SourceRange) -> JSONNode {
    JSONNode(.object(members), range: range)
  }
  static func array(_ elements: consuming [JSONNode], range: SourceRange) -> JSONNode {
    JSONNode(.array(elements), range: range)
  }
  static func string(_ text: consuming String, range: SourceRange) -> JSONNode { JSONNode(.string(text), range: range) }
  static func number(_ literal: Slice<UnsafeBufferPointer<UInt8>>, range: SourceRange) -> JSONNode {
    JSONNode(.number(String(decoding: literal, as: UTF8.self)), range: range)
  }
  static func bool(_ flag: Bool, range: SourceRange) -> JSONNode { JSONNode(.bool(flag), range: range) }
  static func null(range: SourceRange) -> JSONNode { JSONNode(.null, range: range) }
  static func member(key: consuming String, keyRange: SourceRange, value: consuming JSONNode) -> JSONMember {
    JSONMember(key: key, keyRange: keyRange, value: value)
  }
}

/// Values alone, as `JSON(_: JSONNode)` would make them from a placed tree.
private enum BareTree: ParseTree {
  static var recordsPlaces: Bool { false }
  static func object(_ members: consuming [JSON.Member], range: SourceRange) -> JSON { .object(members) }
  static func array(_ elements: consuming [JSON], range: SourceRange) -> JSON { .array(elements) }
  static func string(_ text: consuming String, range: SourceRange) -> JSON { .string(text) }
  static func number(_ literal: Slice<UnsafeBufferPointer<UInt8>>, range: SourceRange) -> JSON {
    JSON.number(literal: literal)
  }
  static func bool(_ flag: Bool, range: SourceRange) -> JSON { .bool(flag) }
  static func null(range: SourceRange) -> JSON { .null }
  static func member(key: consuming String, keyRange: SourceRange, value: consuming JSON) -> JSON.Member {
    JSON.Member(key, value)
  }
}

package struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  package var message: String
  package var position: SourcePosition
  /// Whether the input was not valid UTF-8 (as opposed to a JSON syntax error).
  package var isEncodingError: Bool

  package var description: String { "\(position): \(message)" }
}

private struct Parser<Tree: ParseTree> {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var line = 0
  var column = 0
  var utf16Column = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { index >= bytes.count }

  var position: SourcePosition {
    Tree.recordsPlaces
      ? SourcePosition(line: line, column: column, utf16Column: utf16Column, offset: index)
      : Self.place(of: index, in: bytes)
  }

  /// Where a value starts or ends, for its range: nowhere, when the tree keeps no places.
  var place: SourcePosition { Tree.recordsPlaces ? position : .start }

  func error(_ message: String, encoding: Bool = false) -> JSONSyntaxError {
    JSONSyntaxError(message: message, position: position, isEncodingError: encoding)
  }

  func describeCurrent() -> String {
    guard !isAtEnd else { return "end of file" }
    let byte = bytes[index]
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    if byte >= 0x80, let scalar = peekScalar() { return "'\(Character(scalar))'" }
    return "byte 0x\(String(byte, radix: 16, uppercase: true))"
  }

  /// Throws an encoding error at the first byte that is not well-formed UTF-8.
  mutating func checkEncoding() throws(JSONSyntaxError) {
    // Every request and every plugin question passes here, nearly always well formed: the
    // line and column are worked out only for a text that has a bad byte.
    if Self.isWellFormedUTF8(bytes) { return }
    try locateEncodingError()
  }

  /// Whether `bytes` is well-formed UTF-8, eight ASCII bytes at a time where it can.
  static func isWellFormedUTF8(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    var offset = 0
    while offset < buffer.count {
      if let base = buffer.baseAddress, offset + 8 <= buffer.count,
        UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        offset += 8
        continue
      }
      if buffer[offset] < 0x80 {
        offset += 1
        continue
      }
      // Kana and kanji: a three-byte character outside the surrogates, checked in place.
      if offset + 2 < buffer.count, (0xE1...0xEC).contains(buffer[offset]) || (0xEE...0xEF).contains(buffer[offset]),
        buffer[offset + 1] & 0xC0 == 0x80, buffer[offset + 2] & 0xC0 == 0x80
      {
        offset += 3
        continue
      }
      guard let length = scalarLength(buffer, at: offset) else { return false }
      offset += length
    }
    return true
  }

  static func scalarLength(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
    UTF8Scalar.length(buffer, at: offset)
  }

  /// Finds the first bad byte and throws the error there.
  private mutating func locateEncodingError() throws(JSONSyntaxError) {
    var offset = 0
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte < 0x80 {
        offset += 1
        continue
      }
      guard let length = Self.scalarLength(bytes, at: offset) else {
        let place = Self.place(of: offset, in: bytes)
        (index, line, column, utf16Column) = (offset, place.line, place.column, place.utf16Column)
        throw error(
          "invalid UTF-8: byte 0x\(String(byte, radix: 16, uppercase: true)) does not begin a well-formed character",
          encoding: true)
      }
      offset += length
    }
  }

  /// The line and columns of `offset`, counted from the start of `bytes` (after a byte order
  /// mark, as the parser skips it), which must be well-formed UTF-8 up to there. Lines end at
  /// `\n`, `\r\n` or `\r`, as LSP and editors count them.
  static func place(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
    var line = 0
    var column = 0
    var utf16Column = 0
    var at = offset >= 3 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while at < offset {
      let byte = bytes[at]
      if byte == 0x0A && at > 0 && bytes[at - 1] == 0x0D {
        // The second byte of \r\n: the line already ended at \r.
      } else if byte == 0x0A || byte == 0x0D {
        line += 1
        column = 0
        utf16Column = 0
      } else if byte & 0xC0 != 0x80 {
        column += 1
        utf16Column += byte >= 0xF0 ? 2 : 1
      }
      at += 1
    }
    return SourcePosition(line: line, column: column, utf16Column: utf16Column, offset: offset)
  }

  mutating func skipByteOrderMark() {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  /// Advances over one ASCII byte on the current line.
  mutating func advanceASCII() {
    index += 1
    if Tree.recordsPlaces {
      column += 1
      utf16Column += 1
    }
  }

  /// Skips spaces, tabs and line ends: `\n`, `\r\n` and `\r` each end a line, as LSP and
  /// editors count them.
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09: advanceASCII()
      case 0x0A, 0x0D:
        index += bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
        if Tree.recordsPlaces {
          line += 1
          column = 0
          utf16Column = 0
        }
      default: return
      }
    }
  }

  mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> Tree.Node {
    guard depth < JSONParser.maximumDepth else {
      throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
    }
    let start = place
    guard !isAtEnd else { throw error("expected a value, found end of file") }
    func range() -> SourceRange { SourceRange(start: start, end: place) }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      let members = try parseObject(depth: depth)
      return Tree.object(members, range: range())
    case UInt8(ascii: "["):
      let elements = try parseArray(depth: depth)
      return Tree.array(elements, range: range())
    case UInt8(ascii: "\""):
      let text = try parseString()
      return Tree.string(text, range: range())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      let literal = try parseNumber()
      return Tree.number(bytes[literal], range: range())
    case UInt8(ascii: "t"):
      try expectWord("true")
      return Tree.bool(true, range: range())
    case UInt8(ascii: "f"):
      try expectWord("false")
      return Tree.bool(false, range: range())
    case UInt8(ascii: "n"):
      try expectWord("null")
      return Tree.null(range: range())
    default:
      if bytes[index] >= 0x80, peekScalar() == nil { throw error("invalid UTF-8", encoding: true) }
      throw error("expected a value, found \(describeCurrent())")
    }
  }

  mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
    for expected in word.utf8 {
      guard !isAtEnd, bytes[index] == expected else {
        throw error("expected '\(word)', found \(describeCurrent())")
      }
      advanceASCII()
    }
  }

  mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> [Tree.Member] {
    advanceASCII()  // {
    skipWhitespace()
    if !isAtEnd, bytes[index] == UInt8(ascii: "}") {
      advanceASCII()
      return []
    }
    // Room for a typical small object (a message, its params) at once; a larger one grows by
    // doubling. An object holding less than half its room gives it back, so a file of tiny
    // objects cannot multiply its size in memory.
    var members: [Tree.Member] = []
    members.reserveCapacity(4)
    while true {
      skipWhitespace()
      guard !isAtEnd, bytes[index] == UInt8(ascii: "\"") else {
        if !isAtEnd, bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
        throw error("expected a key in double quotes, found \(describeCurrent())")
      }
      let keyStart = place
      let key = try parseString()
      let keyRange = SourceRange(start: keyStart, end: place)
      skipWhitespace()
      guard !isAtEnd, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected ':' after key \"\(key)\", found \(describeCurrent())")
      }
      advanceASCII()
      skipWhitespace()
      let value = try parseValue(depth: depth + 1)
      members.append(Tree.member(key: key, keyRange: keyRange, value: value))
      skipWhitespace()
      guard !isAtEnd else { throw error("expected ',' or '}', found end of file (unclosed object)") }
      switch bytes[index] {
      case UInt8(ascii: ","): advanceASCII()
      case UInt8(ascii: "}"):
        advanceASCII()
        return members.count * 2 < members.capacity ? Array(members[...]) : members
      default: throw error("expected ',' or '}' after a member, found \(describeCurrent())")
      }
    }
  }

  mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> [Tree.Node] {
    advanceASCII()  // [
    skipWhitespace()
    if !isAtEnd, bytes[index] == UInt8(ascii: "]") {
      advanceASCII()
      return []
    }
    var elements: [Tree.Node] = []
    while true {
      skipWhitespace()
      if !isAtEnd, bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
      elements.append(try parseValue(depth: depth + 1))
      skipWhitespace()
      guard !isAtEnd else { throw error("expected ',' or ']', found end of file (unclosed array)") }
      switch bytes[index] {
      case UInt8(ascii: ","): advanceASCII()
      case UInt8(ascii: "]"):
        advanceASCII()
        return elements
      default: throw error("expected ',' or ']' after an element, found \(describeCurrent())")
      }
    }
  }

  /// The range of a number's literal, checked against JSON's grammar.
  mutating func parseNumber() throws(JSONSyntaxError) -> Range<Int> {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { advanceASCII() }
    guard !isAtEnd, isDigit(bytes[index]) else { throw error("expected a digit, found \(describeCurrent())") }
    if bytes[index] == UInt8(ascii: "0") {
      advanceASCII()
      if !isAtEnd, isDigit(bytes[index]) { throw error("numbers must not have leading zeros") }
    } else {
      while !isAtEnd, isDigit(bytes[index]) { advanceASCII() }
    }
    if !isAtEnd, bytes[index] == UInt8(ascii: ".") {
      advanceASCII()
      guard !isAtEnd, isDigit(bytes[index]) else {
        throw error("expected a digit after '.', found \(describeCurrent())")
      }
      while !isAtEnd, isDigit(bytes[index]) { advanceASCII() }
    }
    if !isAtEnd, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      advanceASCII()
      if !isAtEnd, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { advanceASCII() }
      guard !isAtEnd, isDigit(bytes[index]) else {
        throw error("expected a digit in the exponent, found \(describeCurrent())")
      }
      while !isAtEnd, isDigit(bytes[index]) { advanceASCII() }
    }
    return start..<index
  }

  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  mutating func parseString() throws(JSONSyntaxError) -> String {
    advanceASCII()  // opening quote
    // Fast path: a string without escapes is its bytes up to the closing quote, counted for
    // columns as it is scanned and validated as UTF-8 when it becomes a String.
    let start = index
    var scan = index
    var columns = 0
    var utf16 = 0
    // Whether any byte had its high bit set: only such a string can be invalid UTF-8.
    var highBits: UInt64 = 0
    // Eight bytes at a time while none ends the string or needs an escape: each byte that does
    // not continue a character begins a column, and a four-byte character takes two UTF-16 units.
    while let base = bytes.baseAddress, scan + 8 <= bytes.count {
      let word = UnsafeRawPointer(base + scan).loadUnaligned(as: UInt64.self)
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
      let isControl = (word &- 0x2020_2020_2020_2020) & ~word & highs != 0
      if isControl || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)) { break }
      scan += 8
      highBits |= word
      guard Tree.recordsPlaces else { continue }
      let continuations = (word & ~(word << 1) & highs).nonzeroBitCount
      let fourByteLeads = (word & (word << 1) & (word << 2) & (word << 3) & highs).nonzeroBitCount
      columns += 8 - continuations
      utf16 += 8 - continuations + fourByteLeads
    }
    while scan < bytes.count {
      let byte = bytes[scan]
      if byte == UInt8(ascii: "\"") {
        // String(decoding:) validates as it copies and repairs what is not UTF-8: the text is
        // valid exactly when the copy holds the same bytes (the caller then locates a bad one).
        var text = String(decoding: bytes[start..<scan], as: UTF8.self)
        if highBits & 0x8080_8080_8080_8080 != 0 {
          let source = UnsafeBufferPointer(rebasing: bytes[start..<scan])
          guard let from = source.baseAddress,
            text.withUTF8({ copy in
              copy.count == source.count && copy.baseAddress.map { memcmp($0, from, copy.count) == 0 } == true
            })
          else {
            throw error("invalid UTF-8", encoding: true)
          }
        }
        index = scan + 1
        if Tree.recordsPlaces {
          column += columns + 1
          utf16Column += utf16 + 1
        }
        return text
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      highBits |= UInt64(byte)
      if Tree.recordsPlaces, byte & 0xC0 != 0x80 {
        columns += 1
        utf16 += byte >= 0xF0 ? 2 : 1
      }
      scan += 1
    }
    // With escapes: the text is gathered as UTF-8 and made a String once (a String built a
    // scalar at a time cost more than the rest of the parse, in the plugin description cache's
    // strings of JSON).
    var text: [UInt8] = []
    text.reserveCapacity(scan - start + 16)
    while true {
      guard !isAtEnd else { throw error("unterminated string: expected '\"', found end of file") }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        advanceASCII()
        return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        let scalar = try parseEscape()
        text.append(contentsOf: UTF8.encode(scalar) ?? UTF8.EncodedScalar())
      case 0x0A, 0x0D:
        throw error("unterminated string: a line break must be written \\n inside a string")
      case 0..<0x20:
        throw error("control character 0x\(String(byte, radix: 16, uppercase: true)) must be escaped inside a string")
      case 0x20..<0x80:
        text.append(byte)
        advanceASCII()
      default:
        guard let scalar = peekScalar() else { throw error("invalid UTF-8", encoding: true) }
        let length = scalar.utf8.count
        text.append(contentsOf: bytes[index..<index + length])
        index += length
        if Tree.recordsPlaces {
          column += 1
          utf16Column += scalar.utf16.count
        }
      }
    }
  }

  mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
    advanceASCII()  // backslash
    guard !isAtEnd else { throw error("unterminated escape at end of file") }
    let byte = bytes[index]
    advanceASCII()
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let high = try parseHex4()
      if (0xD800...0xDBFF).contains(high) {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
          throw error("unpaired surrogate \\u\(String(high, radix: 16, uppercase: true)) in a string")
        }
        advanceASCII()
        advanceASCII()
        let low = try parseHex4()
        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate in a string") }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
      }
      guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate in a string") }
      return scalar
    default:
      // Point at the backslash that starts the bad escape.
      index -= 2
      column -= 2
      utf16Column -= 2
      throw error("invalid escape \\\(Character(Unicode.Scalar(byte))) in a string")
    }
  }

  mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard !isAtEnd, let digit = hexValue(bytes[index]) else {
        throw error("expected four hex digits after \\u, found \(describeCurrent())")
      }
      value = value * 16 + digit
      advanceASCII()
    }
    return value
  }

  func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// The well-formed UTF-8 scalar starting at `index`, or nil (overlong forms, surrogates,
  /// values past U+10FFFF and truncated sequences are all invalid).
  func peekScalar() -> Unicode.Scalar? {
    guard let length = Self.scalarLength(bytes, at: index) else { return nil }
    var value = UInt32(bytes[index]) & (0xFF >> (length + 1))
    for next in 1..<length { value = value << 6 | UInt32(bytes[index + next] & 0x3F) }
    return Unicode.Scalar(value)
  }
}
