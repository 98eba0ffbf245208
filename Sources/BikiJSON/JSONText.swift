/// A JSON value as Biki writes and reads it (the protocol, the history). Objects keep their key order, so what
/// the server writes is stable and readable.
package enum JSON: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  case null
  case bool(Bool)
  case integer(Int64)
  case double(Double)
  case string(String)
  case array([JSON])
  case object([(String, JSON)])
  /// A value written once and kept with its bytes, for a large answer that changes rarely
  /// (the topic list): it reads as the value and writes as the bytes.
  indirect case written(JSON, [UInt8])

  /// `value`, serialized now so that every later write copies the bytes.
  package static func prewritten(_ value: JSON) -> JSON { .written(value, value.bytes) }

  /// What a written value holds; any other value as it is.
  package var unwrapped: JSON { if case .written(let value, _) = self { value.unwrapped } else { self } }

  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int64) { self = .integer(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: JSON...) { self = .array(elements) }
  package init(dictionaryLiteral elements: (String, JSON)...) { self = .object(elements) }

  package static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs.unwrapped, rhs.unwrapped) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(serialized)
  }

  /// The member named `key` of an object.
  package subscript(key: String) -> JSON? {
    guard case .object(let members) = unwrapped else { return nil }
    return members.first { $0.0 == key }?.1
  }

  package var stringValue: String? { if case .string(let text) = unwrapped { text } else { nil } }
  package var integerValue: Int64? {
    switch unwrapped {
    case .integer(let value): value
    case .double(let value) where value.rounded() == value && abs(value) < 9e18: Int64(value)
    default: nil
    }
  }
  package var boolValue: Bool? { if case .bool(let flag) = unwrapped { flag } else { nil } }
  package var arrayValue: [JSON]? { if case .array(let elements) = unwrapped { elements } else { nil } }
  package var isObject: Bool { if case .object = unwrapped { true } else { false } }

  /// What this kind of value is called in error messages.
  package var kindDescription: String {
    switch unwrapped {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object, .written: "an object"
    }
  }

  /// From a parsed node (positions are not needed on the wire).
  package init(_ node: JSONNode) {
    switch node.value {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .number(let literal): self = Int64(literal).map(JSON.integer) ?? .double(Double(literal) ?? 0)
    case .string(let text): self = .string(text)
    case .array(let elements): self = .array(elements.map(JSON.init))
    case .object(let members): self = .object(members.map { ($0.key, JSON($0.value)) })
    }
  }

  /// Compact JSON text.
  package var serialized: String { String(decoding: bytes, as: UTF8.self) }

  /// Compact JSON as UTF-8, written straight into bytes: this runs for every message sent.
  package var bytes: [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(256)
    write(to: &output)
    return output
  }

  func write(to output: inout [UInt8]) {
    switch self {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let flag): output.append(contentsOf: flag ? "true".utf8 : "false".utf8)
    case .integer(let value): JSON.writeInteger(value, to: &output)
    case .double(let value): output.append(contentsOf: value.isFinite ? String(value).utf8 : "null".utf8)
    case .string(let text): JSON.writeString(text, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      var first = true
      for element in elements {
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        element.write(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      var first = true
      for member in members {
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        JSON.writeString(member.0, to: &output)
        output.append(UInt8(ascii: ":"))
        member.1.write(to: &output)
      }
      output.append(UInt8(ascii: "}"))
    case .written(_, let bytes): output.append(contentsOf: bytes)
    }
  }

  private static func writeInteger(_ value: Int64, to output: inout [UInt8]) {
    if value >= 0 && value < 10 {
      output.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    output.append(contentsOf: String(value).utf8)
  }

  /// Quotes a string; UTF-8 is copied as it is, so only `"`, `\\` and control characters are escaped.
  private static func writeString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      var runStart = 0
      for index in 0..<utf8.count {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        runStart = index + 1
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
        case UInt8(ascii: "\n"): output.append(contentsOf: "\\n".utf8)
        case UInt8(ascii: "\r"): output.append(contentsOf: "\\r".utf8)
        case UInt8(ascii: "\t"): output.append(contentsOf: "\\t".utf8)
        default:
          let hex = Array("0123456789abcdef".utf8)
          output.append(contentsOf: "\\u00".utf8)
          output.append(hex[Int(byte >> 4)])
          output.append(hex[Int(byte & 15)])
        }
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }
    output.append(UInt8(ascii: "\""))
  }
}
