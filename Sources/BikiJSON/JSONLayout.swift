/// The canonical layout of a JSON document, as `biki-pack fmt` and the language server's
/// formatting write it: two-space indents; an object or array on one line when it fits in
/// `width` columns from where it starts (`{ "a": 1 }`, `[1, 2]`), else one member or element per
/// line. Keys keep their order and strings and numbers their exact spelling (escapes
/// included), so only whitespace changes; the layout depends on the values alone, so laying out
/// a laid-out document changes nothing.
package enum JSONLayout {
  package static let width = 100
  static let indent = 2

  /// The document laid out, ending in one line break; a syntax error when it does not parse.
  package static func format(_ text: [UInt8], width: Int = width) throws(JSONSyntaxError) -> [UInt8] {
    let root = try JSONParser.parse(text)
    var output: [UInt8] = []
    output.reserveCapacity(text.count + text.count / 4)
    write(root, in: text, column: 0, depth: 0, width: width, into: &output)
    output.append(0x0A)
    return output
  }

  /// Writes `node` starting at `column`. The parser caps nesting (`JSONParser.maximumDepth`), so
  /// the recursion is bounded.
  private static func write(
    _ node: JSONNode, in text: [UInt8], column: Int, depth: Int, width: Int, into output: inout [UInt8]
  ) {
    // The closing bracket and a comma after it must fit too.
    if let line = oneLine(node, in: text, room: width - column - 1) {
      output.append(contentsOf: line)
      return
    }
    let inner = (depth + 1) * indent
    switch node.value {
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: inner))
        let key = raw(member.keyRange, in: text)
        output.append(contentsOf: key)
        output.append(contentsOf: [UInt8(ascii: ":"), 0x20])
        write(member.value, in: text, column: inner + columns(key) + 2, depth: depth + 1, width: width, into: &output)
        if index < members.count - 1 { output.append(UInt8(ascii: ",")) }
      }
      closeBlock("}", depth: depth, into: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: inner))
        write(element, in: text, column: inner, depth: depth + 1, width: width, into: &output)
        if index < elements.count - 1 { output.append(UInt8(ascii: ",")) }
      }
      closeBlock("]", depth: depth, into: &output)
    case .string, .number, .bool, .null:
      output.append(contentsOf: raw(node.range, in: text))
    }
  }

  private static func closeBlock(_ bracket: Unicode.Scalar, depth: Int, into output: inout [UInt8]) {
    output.append(0x0A)
    output.append(contentsOf: repeatElement(0x20, count: depth * indent))
    output.append(UInt8(ascii: bracket))
  }

  /// `node` on one line, or nil once it would take more than `room` columns: the work stops
  /// there, so asking of every node in a large document stays linear in the width.
  private static func oneLine(_ node: JSONNode, in text: [UInt8], room: Int) -> [UInt8]? {
    var line: [UInt8] = []
    var used = 0
    // A stack of what is left to write, so a deep value cannot grow the call stack.
    enum Piece {
      case node(JSONNode)
      case bytes([UInt8])
    }
    var pending: [Piece] = [.node(node)]
    func emit(_ bytes: [UInt8]) -> Bool {
      used += columns(bytes)
      line.append(contentsOf: bytes)
      return used <= room
    }
    while let piece = pending.popLast() {
      switch piece {
      case .bytes(let bytes):
        guard emit(bytes) else { return nil }
      case .node(let node):
        switch node.value {
        case .object(let members) where members.isEmpty: guard emit(Array("{}".utf8)) else { return nil }
        case .array(let elements) where elements.isEmpty: guard emit(Array("[]".utf8)) else { return nil }
        case .object(let members):
          guard emit(Array("{ ".utf8)) else { return nil }
          pending.append(.bytes(Array(" }".utf8)))
          for (index, member) in members.enumerated().reversed() {
            if index < members.count - 1 { pending.append(.bytes(Array(", ".utf8))) }
            pending.append(.node(member.value))
            pending.append(.bytes(raw(member.keyRange, in: text) + Array(": ".utf8)))
          }
        case .array(let elements):
          guard emit([UInt8(ascii: "[")]) else { return nil }
          pending.append(.bytes([UInt8(ascii: "]")]))
          for (index, element) in elements.enumerated().reversed() {
            if index < elements.count - 1 { pending.append(.bytes(Array(", ".utf8))) }
            pending.append(.node(element))
          }
        case .string, .number, .bool, .null:
          guard emit(raw(node.range, in: text)) else { return nil }
        }
      }
    }
    return line
  }

  /// The token as written.
  private static func raw(_ range: SourceRange, in text: [UInt8]) -> [UInt8] {
    Array(text[max(0, range.start.offset)..<min(text.count, range.end.offset)])
  }

  /// Columns as editors count characters: one per Unicode scalar (a UTF-8 lead byte).
  static func columns(_ bytes: [UInt8]) -> Int {
    var count = 0
    for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
    return count
  }
}
