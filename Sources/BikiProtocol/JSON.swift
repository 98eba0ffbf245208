import BikiJSON

/// A JSON value as the protocol sends and receives it. Objects keep their key order, so what
/// the server writes is stable and readable.
public indirect enum JSON: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  case null
  case bool(Bool)
  case integer(Int64)
  case double(Double)
  case string(String)
  case array([JSON])
  case object([(String, JSON)])

  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(elements) }

  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
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

  public func hash(into hasher: inout Hasher) {
    hasher.combine(serialized)
  }

  /// The member named `key` of an object.
  public subscript(key: String) -> JSON? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  public var stringValue: String? { if case .string(let text) = self { text } else { nil } }
  public var integerValue: Int64? {
    switch self {
    case .integer(let value): value
    case .double(let value) where value.rounded() == value && abs(value) < 9e18: Int64(value)
    default: nil
    }
  }
  public var boolValue: Bool? { if case .bool(let flag) = self { flag } else { nil } }
  public var arrayValue: [JSON]? { if case .array(let elements) = self { elements } else { nil } }
  public var isObject: Bool { if case .object = self { true } else { false } }

  /// What this kind of value is called in error messages.
  public var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// From a parsed node (positions are not needed on the wire).
  public init(_ node: JSONNode) {
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
  public var serialized: String {
    var output = ""
    write(to: &output)
    return output
  }

  private func write(to output: inout String) {
    switch self {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .integer(let value): output += String(value)
    case .double(let value): output += value.isFinite ? String(value) : "null"
    case .string(let text): JSON.writeString(text, to: &output)
    case .array(let elements):
      output += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { output += "," }
        element.write(to: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { output += "," }
        JSON.writeString(key, to: &output)
        output += ":"
        value.write(to: &output)
      }
      output += "}"
    }
  }

  private static func writeString(_ text: String, to output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
