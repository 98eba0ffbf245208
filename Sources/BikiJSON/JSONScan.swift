import Glibc

/// JSON text read without building values: a check that a value is valid, as strict as
/// `JSONParser` and no stricter, and a walk over text already known to be valid.
///
/// A request's envelope and params are read straight from the client's bytes (issue 50): the
/// check proves the whole message is what the parser would accept, and later reads walk the
/// checked text to the member they want. Where the check and the parser could differ, the
/// check gives up (nil) and the caller parses; the fuzz target `fuzz-request` feeds both.
package enum JSONScan {
  /// The offset just past the valid JSON value at `start` (which is not whitespace), nested
  /// `depth` levels deep; nil when the parser would refuse it. Recursion is bounded by
  /// `JSONParser.maximumDepth`, as the parser's own is.
  package static func validValueEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, depth: Int) -> Int? {
    guard depth < JSONParser.maximumDepth, start < bytes.count else { return nil }
    switch bytes[start] {
    case UInt8(ascii: "{"):
      var index = whitespaceEnd(bytes, from: start + 1)
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return index + 1 }
      while true {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
          let keyEnd = validStringEnd(bytes, from: index)
        else { return nil }
        index = whitespaceEnd(bytes, from: keyEnd)
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index = whitespaceEnd(bytes, from: index + 1)
        guard let valueEnd = validValueEnd(bytes, from: index, depth: depth + 1) else { return nil }
        index = whitespaceEnd(bytes, from: valueEnd)
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "}") { return index + 1 }
        guard bytes[index] == UInt8(ascii: ",") else { return nil }
        index = whitespaceEnd(bytes, from: index + 1)
      }
    case UInt8(ascii: "["):
      var index = whitespaceEnd(bytes, from: start + 1)
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return index + 1 }
      while true {
        guard let valueEnd = validValueEnd(bytes, from: index, depth: depth + 1) else { return nil }
        index = whitespaceEnd(bytes, from: valueEnd)
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "]") { return index + 1 }
        guard bytes[index] == UInt8(ascii: ",") else { return nil }
        index = whitespaceEnd(bytes, from: index + 1)
      }
    case UInt8(ascii: "\""): return validStringEnd(bytes, from: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return validNumberEnd(bytes, from: start)
    case UInt8(ascii: "t"): return wordEnd("true", bytes, from: start)
    case UInt8(ascii: "f"): return wordEnd("false", bytes, from: start)
    case UInt8(ascii: "n"): return wordEnd("null", bytes, from: start)
    default: return nil
    }
  }

  /// The first offset from `start` that is not JSON whitespace (space, tab, line ends).
  package static func whitespaceEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var index = start
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return index
      }
    }
    return index
  }

  /// The offset just past the closing quote of the valid string whose opening quote is at
  /// `start`: escapes as JSON defines them (a high surrogate only with its low one), no control
  /// characters, well-formed UTF-8.
  package static func validStringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var index = start + 1
    while index < bytes.count {
      if index + 8 <= bytes.count {
        let plain = plainBytes(bytes, at: index)
        index += plain
        if plain == 8 { continue }
      }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""): return index + 1
      case UInt8(ascii: "\\"):
        guard let end = validEscapeEnd(bytes, from: index) else { return nil }
        index = end
      case 0..<0x20: return nil
      case 0x20..<0x80: index += 1
      default:
        guard let length = UTF8Scalar.length(bytes, at: index) else { return nil }
        index += length
      }
    }
    return nil
  }

  /// How many of the eight bytes at `index` are ASCII that a string holds as it is (no quote,
  /// no backslash, no control character) before the first that is not.
  private static func plainBytes(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    // Each test marks the high bit of the bytes it finds; a borrow can mark a byte past the
    // first found, never one before it, so the lowest mark is the first byte to stop at.
    func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    let marks =
      (word & highs) | ((word &- 0x2020_2020_2020_2020) & ~word & highs) | zeroBytes(word ^ (ones &* 0x22))
      | zeroBytes(word ^ (ones &* 0x5C))
    return marks.trailingZeroBitCount / 8
  }

  /// The end of the escape whose backslash is at `start`.
  private static func validEscapeEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard start + 1 < bytes.count else { return nil }
    switch bytes[start + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return start + 2
    case UInt8(ascii: "u"):
      guard let unit = hex4(bytes, at: start + 2) else { return nil }
      switch unit {
      case 0xD800...0xDBFF:
        guard start + 7 < bytes.count, bytes[start + 6] == UInt8(ascii: "\\"), bytes[start + 7] == UInt8(ascii: "u"),
          let low = hex4(bytes, at: start + 8), (0xDC00...0xDFFF).contains(low)
        else { return nil }
        return start + 12
      case 0xDC00...0xDFFF: return nil
      default: return start + 6
      }
    default: return nil
    }
  }

  private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
    guard start + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for index in start..<start + 4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// The end of the number at `start`, by JSON's grammar: no leading zeros, digits after a
  /// point and in an exponent.
  private static func validNumberEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var index = start
    func digitsEnd(_ from: Int) -> Int {
      var end = from
      while end < bytes.count, isDigit(bytes[end]) { end += 1 }
      return end
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { return nil }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) { return nil }
    } else {
      index = digitsEnd(index)
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      guard index + 1 < bytes.count, isDigit(bytes[index + 1]) else { return nil }
      index = digitsEnd(index + 1)
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { return nil }
      index = digitsEnd(index)
    }
    return index
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private static func wordEnd(_ word: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    let end = start + word.utf8CodeUnitCount
    guard end <= bytes.count, spells(bytes[start..<end], word) else { return nil }
    return end
  }

  /// The text of a string value written without escapes (`text` holds its quotes); nil for any
  /// other value, and for a string with escapes, which only the parser reads.
  package static func unescapedString(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
    guard text.count >= 2, text.first == UInt8(ascii: "\"") else { return nil }
    let inner = text.dropFirst().dropLast()
    guard !inner.contains(UInt8(ascii: "\\")) else { return nil }
    return String(decoding: inner, as: UTF8.self)
  }

  /// `unescapedString(text)`, given as `known` itself when the text spells it: the same
  /// string, not made again (a topic id asked for seed after seed).
  package static func unescapedString(_ text: Slice<UnsafeBufferPointer<UInt8>>, reusing known: String?) -> String? {
    guard var known, text.count >= 3, text.first == UInt8(ascii: "\""), let base = text.base.baseAddress else {
      return unescapedString(text)
    }
    let inner = base + text.startIndex + 1
    let count = text.count - 2
    // Compared as bytes, and searched for a backslash with memchr: walking the string's
    // UTF-8 view cost more than making the string anew.
    let spelt = known.withUTF8 { utf8 in
      guard utf8.count == count, let held = utf8.baseAddress, memcmp(inner, held, count) == 0 else { return false }
      return true
    }
    guard spelt else { return unescapedString(text) }
    return memchr(inner, Int32(UInt8(ascii: "\\")), count) == nil ? known : nil
  }

  /// Whether `text` is the bytes of `word`.
  package static func spells(_ text: Slice<UnsafeBufferPointer<UInt8>>, _ word: StaticString) -> Bool {
    guard text.count == word.utf8CodeUnitCount else { return false }
    guard let base = text.base.baseAddress else { return text.isEmpty }
    return memcmp(base + text.startIndex, word.utf8Start, text.count) == 0
  }

  /// The string value of the first member named `key` in the object at the start of `bytes`
  /// (after whitespace), as the parser would read it; nil when it is not a string written
  /// without escapes, when there is no such member, or when a key before it has escapes (the
  /// parser unescapes keys, so it could be `key`). Only the members before it are walked, and
  /// nothing is checked: for text that is not valid JSON the answer means nothing, and the
  /// caller must not need it to (the parser refuses such text whole). So start-up tells which
  /// pack files could define a topic without reading them (`PackCompiling.settling`).
  package static func firstMemberString(_ key: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    var index = whitespaceEnd(bytes, from: 0)
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
    index = whitespaceEnd(bytes, from: index + 1)
    while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      let keyEnd = stringEnd(inValid: bytes, from: index)
      let name = bytes[(index + 1)..<max(index + 1, keyEnd - 1)]
      if name.contains(UInt8(ascii: "\\")) { return nil }
      index = whitespaceEnd(bytes, from: keyEnd)
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
      index = whitespaceEnd(bytes, from: index + 1)
      let valueEnd = valueEnd(inValid: bytes, from: index)
      if spells(name, key) {
        return index < valueEnd ? unescapedString(bytes[index..<valueEnd]) : nil
      }
      index = whitespaceEnd(bytes, from: valueEnd)
      guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
      index = whitespaceEnd(bytes, from: index + 1)
    }
    return nil
  }

  // MARK: Text known to be valid

  /// The end of the value at `start` in text known to be valid: strings are skipped over
  /// their escapes and brackets counted, with nothing checked.
  static func valueEnd(inValid bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var index = start
    var depth = 0
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        index = stringEnd(inValid: bytes, from: index)
        if depth == 0 { return index }
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 0 { return index }
        depth -= 1
        if depth == 0 { return index + 1 }
      case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":"):
        if depth == 0 { return index }
      default: break
      }
      index += 1
    }
    return index
  }

  /// The end of the string whose opening quote is at `start`, in valid text.
  static func stringEnd(inValid bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var index = start + 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""): return index + 1
      case UInt8(ascii: "\\"): index += 2
      default: index += 1
      }
    }
    return index
  }
}

/// Well-formed UTF-8, one scalar at a time.
enum UTF8Scalar {
  /// The length of the well-formed UTF-8 scalar at `offset`, or nil (overlong forms,
  /// surrogates, values past U+10FFFF and truncated sequences are all invalid).
  static func length(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
    let lead = buffer[offset]
    let length: Int
    let minimum: UInt32
    let initial: UInt32
    switch lead {
    case 0xC2...0xDF: (length, minimum, initial) = (2, 0x80, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, minimum, initial) = (3, 0x800, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, minimum, initial) = (4, 0x10000, UInt32(lead & 0x07))
    default: return nil
    }
    guard offset + length <= buffer.count else { return nil }
    var value = initial
    for next in 1..<length {
      let byte = buffer[offset + next]
      guard byte & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
    return length
  }
}
