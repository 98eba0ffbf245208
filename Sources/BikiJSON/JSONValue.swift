/// A place in a source text. Lines and columns are 0-based; `column` counts Unicode scalars
/// (what a person sees), `utf16Column` counts UTF-16 code units (what LSP clients use).
package struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
  package var line: Int
  package var column: Int
  package var utf16Column: Int
  /// Byte offset in the UTF-8 text.
  package var offset: Int

  init(line: Int, column: Int, utf16Column: Int, offset: Int) {
    self.line = line
    self.column = column
    self.utf16Column = utf16Column
    self.offset = offset
  }

  package static let start = SourcePosition(line: 0, column: 0, utf16Column: 0, offset: 0)

  package static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }

  /// `line:column`, 1-based, as compilers and linters print it.
  package var description: String { "\(line + 1):\(column + 1)" }
}

package struct SourceRange: Hashable, Sendable {
  package var start: SourcePosition
  package var end: SourcePosition

  package init(start: SourcePosition, end: SourcePosition) {
    self.start = start
    self.end = end
  }
}

/// A parsed JSON value with the range of its source text, and of every value inside it.
package struct JSONNode: Hashable, Sendable {
  package var value: JSONValue
  package var range: SourceRange

  init(_ value: JSONValue, range: SourceRange) {
    self.value = value
    self.range = range
  }
}

package enum JSONValue: Hashable, Sendable {
  /// Members in source order; duplicate keys are kept so a validator can report them.
  case object([JSONMember])
  case array([JSONNode])
  case string(String)
  /// The literal text, so integers beyond Double's precision keep every digit.
  case number(String)
  case bool(Bool)
  case null

  /// What this kind of value is called in messages: "an object", "a string" ….
  package var kindDescription: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }
}

package struct JSONMember: Hashable, Sendable {
  package var key: String
  package var keyRange: SourceRange
  package var value: JSONNode

  package init(key: String, keyRange: SourceRange, value: JSONNode) {
    self.key = key
    self.keyRange = keyRange
    self.value = value
  }
}

extension JSONNode {
  /// The members of an object, or nil.
  package var members: [JSONMember]? {
    if case .object(let members) = value { members } else { nil }
  }

  /// The first member named `key` of an object.
  package subscript(key: String) -> JSONMember? {
    members?.first { $0.key == key }
  }

  package var stringValue: String? {
    if case .string(let text) = value { text } else { nil }
  }

  /// The value as an exact integer, if it is a number literal without fraction or exponent
  /// (or with one that still denotes an integer, such as 1e3) that fits in Int64.
  package var integerValue: Int64? {
    guard case .number(let literal) = value else { return nil }
    if let exact = Int64(literal) { return exact }
    guard let double = Double(literal), double.rounded() == double, abs(double) < 9.0e18 else { return nil }
    return Int64(double)
  }

  package var arrayValue: [JSONNode]? {
    if case .array(let elements) = value { elements } else { nil }
  }

  package var boolValue: Bool? {
    if case .bool(let flag) = value { flag } else { nil }
  }
}
