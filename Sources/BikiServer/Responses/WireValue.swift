import BikiJSON

/// A value the server sends, as a type: written straight to bytes by `write(into:)`, and read
/// back by `init(wire:)`, which checks every field and refuses one it does not know. The tests
/// read every answer the server gives, every example in docs/protocol.md and the recorded
/// exchange the editor clients replay through these, so the types, the document and the clients
/// cannot drift apart unnoticed.
protocol WireValue {
  func write(into writer: inout JSONWriter)
  init(wire: JSON) throws(WireError)
}

extension WireValue {
  /// The value as written JSON text, which the server sends as its bytes.
  var json: JSON {
    var writer = JSONWriter()
    write(into: &writer)
    return writer.finish()
  }
}

/// What is wrong with a value read as a `WireValue`: the path of the field, and why.
struct WireError: Error, CustomStringConvertible, Equatable {
  var path: String
  var problem: String

  var description: String { "\(path.isEmpty ? "the value" : path): \(problem)" }
}

/// The members of one object read by `WireValue.init(wire:)`: each field is taken once, and
/// `finish` refuses any left over, so a field renamed on one side fails the read.
struct WireFields {
  private var members: [String: JSON]
  private let path: String

  init(_ value: JSON, path: String = "") throws(WireError) {
    guard case .object(let members) = value.unwrapped else {
      throw WireError(path: path, problem: "is not an object")
    }
    var byKey: [String: JSON] = [:]
    for member in members {
      guard byKey.updateValue(member.value, forKey: member.key) == nil else {
        throw WireError(path: path, problem: "has \"\(member.key)\" twice")
      }
    }
    self.members = byKey
    self.path = path
  }

  private func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  /// A field that must be there, read by `read`.
  mutating func required<Value>(_ key: String, _ read: (JSON, String) throws(WireError) -> Value) throws(WireError)
    -> Value
  {
    guard let value = members.removeValue(forKey: key) else { throw WireError(path: at(key), problem: "is missing") }
    return try read(value, at(key))
  }

  /// A field that may be absent; when present it must read.
  mutating func optional<Value>(_ key: String, _ read: (JSON, String) throws(WireError) -> Value) throws(WireError)
    -> Value?
  {
    guard let value = members.removeValue(forKey: key) else { return nil }
    return try read(value, at(key))
  }

  /// Every field has been read: one left over is one the type does not know.
  func finish() throws(WireError) {
    guard let extra = members.keys.sorted().first else { return }
    throw WireError(path: at(extra), problem: "is not a field of this value")
  }
}

/// Readers for `WireFields`, one per kind of field.
enum Wire {
  static func string(_ value: JSON, _ path: String) throws(WireError) -> String {
    guard case .string(let text) = value else { throw WireError(path: path, problem: "is not a string") }
    return text
  }

  static func integer(_ value: JSON, _ path: String) throws(WireError) -> Int64 {
    guard case .integer(let number) = value else { throw WireError(path: path, problem: "is not a whole number") }
    return number
  }

  static func number(_ value: JSON, _ path: String) throws(WireError) -> Double {
    switch value {
    case .integer(let number): return Double(number)
    case .unsigned(let number): return Double(number)
    case .double(let number): return number
    default: throw WireError(path: path, problem: "is not a number")
    }
  }

  static func bool(_ value: JSON, _ path: String) throws(WireError) -> Bool {
    guard case .bool(let flag) = value else { throw WireError(path: path, problem: "is not true or false") }
    return flag
  }

  /// A seed, sent as a decimal string so no client loses its precision.
  static func seed(_ value: JSON, _ path: String) throws(WireError) -> UInt64 {
    guard case .string(let text) = value, let seed = UInt64(text) else {
      throw WireError(path: path, problem: "is not a seed written as a decimal string")
    }
    return seed
  }

  /// One of a fixed set of words.
  static func word<Word: RawRepresentable<String>>(_: Word.Type) -> (JSON, String) throws(WireError) -> Word {
    { value, path throws(WireError) in
      let text = try string(value, path)
      guard let word = Word(rawValue: text) else { throw WireError(path: path, problem: "\"\(text)\" is not known") }
      return word
    }
  }

  static func value<Value: WireValue>(_: Value.Type) -> (JSON, String) throws(WireError) -> Value {
    { json, path throws(WireError) in
      do throws(WireError) {
        return try Value(wire: json)
      } catch {
        throw WireError(path: error.path.isEmpty ? path : "\(path).\(error.path)", problem: error.problem)
      }
    }
  }

  static func array<Element>(_ readElement: @escaping (JSON, String) throws(WireError) -> Element) -> (
    JSON, String
  ) throws(WireError) -> [Element] {
    { value, path throws(WireError) in
      guard case .array(let elements) = value else { throw WireError(path: path, problem: "is not an array") }
      var read: [Element] = []
      read.reserveCapacity(elements.count)
      for (index, element) in elements.enumerated() { read.append(try readElement(element, "\(path)[\(index)]")) }
      return read
    }
  }

  /// A field that may be `null`.
  static func nullable<Value>(_ read: @escaping (JSON, String) throws(WireError) -> Value) -> (JSON, String)
    throws(WireError) -> Value?
  {
    { value, path throws(WireError) in
      if case .null = value { return nil }
      return try read(value, path)
    }
  }
}

extension JSONWriter {
  /// Writes a number that may have a fraction.
  mutating func number(_ value: Double) { self.value(.double(value)) }

  mutating func strings(_ texts: [String]) {
    beginArray()
    for text in texts { string(text) }
    endArray()
  }

  mutating func bool(_ flag: Bool) { value(.bool(flag)) }
}

extension JSONWriter {
  /// One member of the object being written, by the kind of its value.
  mutating func field(_ name: StaticString, _ text: String) {
    key(name)
    string(text)
  }

  mutating func field(_ name: StaticString, _ count: Int64) {
    key(name)
    integer(count)
  }

  mutating func field(_ name: StaticString, _ amount: Double) {
    key(name)
    number(amount)
  }

  mutating func field(_ name: StaticString, _ flag: Bool) {
    key(name)
    bool(flag)
  }

  mutating func field(_ name: StaticString, _ amounts: [Double]) {
    key(name)
    beginArray()
    for amount in amounts { number(amount) }
    endArray()
  }

  mutating func field(_ name: StaticString, _ texts: [String]) {
    key(name)
    strings(texts)
  }

  mutating func field(_ name: StaticString, _ value: some WireValue) {
    key(name)
    value.write(into: &self)
  }

  mutating func field<Value: WireValue>(_ name: StaticString, _ values: [Value]) {
    key(name)
    beginArray()
    for value in values { value.write(into: &self) }
    endArray()
  }
}
