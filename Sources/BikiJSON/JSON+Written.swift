import Glibc

/// Reading members of written text (`JSON.written`) without parsing the rest of it: a request's
/// params are read field by field straight from the client's bytes. What a read returns is what
/// the same read of the parsed value returns: scalars as values, objects and arrays parsed.
extension JSON {
  /// The value of the member named `key` of written text; nil when it is not an object or has
  /// no such member. The first member of that name counts, as in a parsed object.
  static func member(_ key: String, ofWritten text: [UInt8]) -> JSON? {
    var key = key
    return key.withUTF8 { name in
      text.withUnsafeBufferPointer { bytes -> JSON? in
        var members = WrittenMembers(bytes)
        while let (keyRange, valueRange) = members.next() {
          // A key spelt with escapes is compared as the parser reads it.
          if bytes[keyRange].contains(UInt8(ascii: "\\")) {
            return JSON.written(text).unwrapped[String(decoding: name, as: UTF8.self)]
          }
          if matches(name, bytes[keyRange]) { return read(bytes, valueRange) }
        }
        return nil
      }
    }
  }

  /// The members of written text that is an object, in order; nil for any other value.
  static func members(ofWritten text: [UInt8]) -> [Member]? {
    guard firstByte(ofWritten: text) == UInt8(ascii: "{") else { return nil }
    return text.withUnsafeBufferPointer { bytes in
      var members: [Member] = []
      var walk = WrittenMembers(bytes)
      while let (keyRange, valueRange) = walk.next() {
        let name = bytes[keyRange]
        let key =
          name.contains(UInt8(ascii: "\\"))
          ? (read(bytes, keyRange.lowerBound - 1..<keyRange.upperBound + 1).stringValue ?? "")
          : String(decoding: name, as: UTF8.self)
        members.append(Member(key, read(bytes, valueRange)))
      }
      return members
    }
  }

  /// What kind of value written text holds, as `kindDescription` names it.
  static func kindDescription(ofWritten text: [UInt8]) -> String {
    switch firstByte(ofWritten: text) {
    case UInt8(ascii: "{"): "an object"
    case UInt8(ascii: "["): "an array"
    case UInt8(ascii: "\""): "a string"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
    case UInt8(ascii: "n"), nil: "null"
    default: "a number"
    }
  }

  /// The first byte of the value, past any whitespace.
  static func firstByte(ofWritten text: [UInt8]) -> UInt8? {
    text.withUnsafeBufferPointer { bytes in
      let start = JSONScan.whitespaceEnd(bytes, from: 0)
      return start < bytes.count ? bytes[start] : nil
    }
  }

  /// Whether a key's bytes name `key`: byte for byte, and as Strings compare (canonical
  /// equivalence) where either is not ASCII.
  private static func matches(_ key: UnsafeBufferPointer<UInt8>, _ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    if key.count == name.count, let base = name.base.baseAddress, let keyBase = key.baseAddress,
      memcmp(keyBase, base + name.startIndex, key.count) == 0
    {
      return true
    }
    guard key.contains(where: { $0 >= 0x80 }) || name.contains(where: { $0 >= 0x80 }) else { return false }
    return String(decoding: name, as: UTF8.self) == String(decoding: key, as: UTF8.self)
  }

  /// The value at `range` of valid text, as the parser reads it.
  private static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> JSON {
    guard let first = range.first.map({ bytes[$0] }) else { return .null }
    switch first {
    case UInt8(ascii: "\""):
      let inner = bytes[range.lowerBound + 1..<max(range.lowerBound + 1, range.upperBound - 1)]
      if !inner.contains(UInt8(ascii: "\\")) { return .string(String(decoding: inner, as: UTF8.self)) }
      return parsed(bytes, range)
    case UInt8(ascii: "t"): return .bool(true)
    case UInt8(ascii: "f"): return .bool(false)
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "{"), UInt8(ascii: "["): return parsed(bytes, range)
    default: return JSON.number(literal: bytes[range])
    }
  }

  /// Text known to be valid, parsed; null only if it were not, which the check that made it
  /// `written` rules out.
  private static func parsed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> JSON {
    (try? JSONParser.value(Array(bytes[range]))) ?? .null
  }
}

/// The members of valid written text, in order: the range of each key (inside its quotes) and
/// of its value. None when the text is not an object.
package struct WrittenMembers {
  private let bytes: UnsafeBufferPointer<UInt8>
  /// Where the next key's opening quote is, or past the end when there is none.
  private var index: Int

  package init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    let start = JSONScan.whitespaceEnd(bytes, from: 0)
    index =
      start < bytes.count && bytes[start] == UInt8(ascii: "{")
      ? JSONScan.whitespaceEnd(bytes, from: start + 1) : bytes.count
  }

  package mutating func next() -> (key: Range<Int>, value: Range<Int>)? {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    let keyEnd = JSONScan.stringEnd(inValid: bytes, from: index)
    let key = index + 1..<max(index + 1, keyEnd - 1)
    // Past the colon to the value.
    let valueStart = JSONScan.whitespaceEnd(bytes, from: JSONScan.whitespaceEnd(bytes, from: keyEnd) + 1)
    let valueEnd = JSONScan.valueEnd(inValid: bytes, from: valueStart)
    // Past the comma to the next key; onto the closing brace, which ends the walk.
    index = JSONScan.whitespaceEnd(bytes, from: valueEnd)
    index =
      index < bytes.count && bytes[index] == UInt8(ascii: ",")
      ? JSONScan.whitespaceEnd(bytes, from: index + 1) : bytes.count
    return (key, valueStart..<valueEnd)
  }
}
