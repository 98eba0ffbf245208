/// A place in a source text. Lines and columns are 0-based; `column` counts Unicode scalars
/// (what a person sees), `utf16Column` counts UTF-16 code units (what LSP clients use).
public struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public var utf16Column: Int
  /// Byte offset in the UTF-8 text.
  public var offset: Int

  public init(line: Int, column: Int, utf16Column: Int, offset: Int) {
    self.line = line
    self.column = column
    self.utf16Column = utf16Column
    self.offset = offset
  }

  public static let start = SourcePosition(line: 0, column: 0, utf16Column: 0, offset: 0)

  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }

  /// `line:column`, 1-based, as compilers and linters print it.
  public var description: String { "\(line + 1):\(column + 1)" }
}

public struct SourceRange: Hashable, Sendable {
  public var start: SourcePosition
  public var end: SourcePosition

  public init(start: SourcePosition, end: SourcePosition) {
    self.start = start
    self.end = end
  }
}

/// A parsed JSON value with the range of its source text, and of every value inside it.
public struct JSONNode: Hashable, Sendable {
  public var value: JSONValue
  public var range: SourceRange

  public init(_ value: JSONValue, range: SourceRange) {
    self.value = value
    self.range = range
  }
}

public enum JSONValue: Hashable, Sendable {
  /// Members in source order; duplicate keys are kept so a validator can report them.
  case object([JSONMember])
  case array([JSONNode])
  case string(String)
  /// The literal text, so integers beyond Double's precision keep every digit.
  case number(String)
  case bool(Bool)
  case null

  /// What this kind of value is called in messages: "an object", "a string" ….
  public var kindDescription: String {
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

public struct JSONMember: Hashable, Sendable {
  public var key: String
  public var keyRange: SourceRange
  public var value: JSONNode

  public init(key: String, keyRange: SourceRange, value: JSONNode) {
    self.key = key
    self.keyRange = keyRange
    self.value = value
  }
}

extension JSONNode {
  /// The members of an object, or nil.
  public var members: [JSONMember]? {
    if case .object(let members) = value { members } else { nil }
  }

  /// The first member named `key` of an object.
  public subscript(key: String) -> JSONMember? {
    members?.first { $0.key == key }
  }

  public var stringValue: String? {
    if case .string(let text) = value { text } else { nil }
  }

  /// The value as an exact integer, if it is a number literal without fraction or exponent
  /// (or with one that still denotes an integer, such as 1e3) that fits in Int64.
  public var integerValue: Int64? {
    guard case .number(let literal) = value else { return nil }
    if let exact = Int64(literal) { return exact }
    guard let double = Double(literal), double.rounded() == double, abs(double) < 9.0e18 else { return nil }
    return Int64(double)
  }

  public var arrayValue: [JSONNode]? {
    if case .array(let elements) = value { elements } else { nil }
  }

  public var boolValue: Bool? {
    if case .bool(let flag) = value { flag } else { nil }
  }
}
