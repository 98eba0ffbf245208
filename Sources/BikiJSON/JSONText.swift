/// A JSON value as Biki writes and reads it (the protocol, the history). Objects keep their key order, so what
/// the server writes is stable and readable.
package enum JSON: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  case null
  case bool(Bool)
  case integer(Int64)
  /// A whole number past `integer`'s range, 2^63 to 2^64−1, as a seed may be; every smaller
  /// whole literal is an `integer`.
  case unsigned(UInt64)
  case double(Double)
  case string(String)
  case array([JSON])
  case object([Member])
  /// Valid JSON text: written by `JSONWriter` or `prewritten`, or a client's params checked as
  /// they arrived (`JSONScan`). Sending it copies the bytes; answers the server builds often and
  /// only sends are kept so. Reading a member walks the text to it (`JSON+Written.swift`);
  /// other reads parse it.
  case written([UInt8])

  /// `value`, serialized now so that every later write copies the bytes.
  package static func prewritten(_ value: JSON) -> JSON { .written(value.bytes) }

  /// What written text holds (parsed now, so a read costs a parse); any other value as it is.
  package var unwrapped: JSON {
    guard case .written(let bytes) = self else { return self }
    return (try? JSONParser.value(bytes)) ?? .null
  }

  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int64) { self = .integer(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: JSON...) { self = .array(elements) }
  package init(dictionaryLiteral elements: (String, JSON)...) { self = .object(elements.map(Member.init)) }

  /// An object from its members as pairs, in order.
  package static func object(pairs: [(String, JSON)]) -> JSON { .object(pairs.map(Member.init)) }

  /// One member of an object. A struct, not a tuple: an array of tuples is destroyed through
  /// the runtime's generic code, member by member, and every parsed message is destroyed.
  package struct Member: Sendable {
    package var key: String
    package var value: JSON

    package init(_ key: String, _ value: JSON) {
      self.key = key
      self.value = value
    }
  }

  package static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs.unwrapped, rhs.unwrapped) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.unsigned(let a), .unsigned(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  package func hash(into hasher: inout Hasher) {
    // Text is hashed as its value, which may be spelt with other spacing: equal values hash
    // alike whichever way they are held.
    if case .written = self {
      unwrapped.hash(into: &hasher)
    } else {
      hasher.combine(serialized)
    }
  }

  /// The member named `key` of an object.
  ///
  /// These accessors match `self` and go through `unwrapped` only for written text: taking
  /// `unwrapped` for every value copied the whole value (a retain and a release) on each read.
  package subscript(key: String) -> JSON? {
    switch self {
    case .object(let members): members.firstIndex { $0.key == key }.map { members[$0].value }
    case .written(let text): Self.member(key, ofWritten: text)
    default: nil
    }
  }

  package var stringValue: String? {
    switch self {
    case .string(let text): text
    case .written: unwrapped.stringValue
    default: nil
    }
  }
  package var integerValue: Int64? {
    switch self {
    case .integer(let value): value
    case .double(let value) where value.rounded() == value && abs(value) < 9e18: Int64(value)
    case .written: unwrapped.integerValue
    default: nil
    }
  }
  /// A number, whole or not, as a Double.
  package var numberValue: Double? {
    switch self {
    case .double(let value): value
    case .integer(let value): Double(value)
    case .written: unwrapped.numberValue
    default: nil
    }
  }
  package var boolValue: Bool? {
    switch self {
    case .bool(let flag): flag
    case .written: unwrapped.boolValue
    default: nil
    }
  }
  package var arrayValue: [JSON]? {
    switch self {
    case .array(let elements): elements
    case .written: unwrapped.arrayValue
    default: nil
    }
  }
  package var isObject: Bool {
    switch self {
    case .object: true
    case .written(let text): Self.firstByte(ofWritten: text) == UInt8(ascii: "{")
    default: false
    }
  }

  /// The members of an object, in order; nil for any other value.
  package var objectMembers: [Member]? {
    switch self {
    case .object(let members): members
    case .written(let text): Self.members(ofWritten: text)
    default: nil
    }
  }

  /// What this kind of value is called in error messages.
  package var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .unsigned, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    case .written(let text): Self.kindDescription(ofWritten: text)
    }
  }

  /// From a parsed node (positions are not needed on the wire).
  package init(_ node: JSONNode) {
    switch node.value {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .number(let literal):
      self = Int64(literal).map(JSON.integer) ?? UInt64(literal).map(JSON.unsigned) ?? .double(Double(literal) ?? 0)
    case .string(let text): self = .string(text)
    case .array(let elements): self = .array(elements.map(JSON.init))
    case .object(let members): self = .object(members.map { Member($0.key, JSON($0.value)) })
    }
  }

  /// Compact JSON text.
  package var serialized: String { String(decoding: bytes, as: UTF8.self) }

  /// Compact JSON as UTF-8, written straight into bytes: this runs for every message sent.
  package var bytes: [UInt8] {
    var sink = ByteSink(capacity: 256)
    write(to: &sink)
    return sink.array
  }

  fileprivate func write(to output: inout ByteSink) {
    switch self {
    case .null: output.append("null")
    case .bool(let flag): output.append(flag ? "true" : "false")
    case .integer(let value): JSON.writeInteger(value, to: &output)
    case .unsigned(let value):
      var text = String(value)
      text.withUTF8 { output.append($0) }
    case .double(let value):
      if value.isFinite {
        var text = String(value)
        text.withUTF8 { output.append($0) }
      } else {
        output.append("null")
      }
    case .string(let text): JSON.writeString(text, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for index in elements.indices {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        elements[index].write(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for index in members.indices {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        JSON.writeString(members[index].key, to: &output)
        output.append(UInt8(ascii: ":"))
        members[index].value.write(to: &output)
      }
      output.append(UInt8(ascii: "}"))
    case .written(let bytes): bytes.withUnsafeBufferPointer { output.append($0) }
    }
  }

  /// Digits written straight into the output, not through a String.
  fileprivate static func writeInteger(_ value: Int64, to output: inout ByteSink) {
    if value >= 0 && value < 10 {
      output.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    if value < 0 { output.append(UInt8(ascii: "-")) }
    // The magnitude as unsigned, so Int64.min has one too.
    writeDigits(value.magnitude, to: &output)
  }

  fileprivate static func writeDigits(_ value: UInt64, to output: inout ByteSink) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var end = 0
      DecimalDigits.write(value, into: digits, at: &end)
      output.append(UnsafeBufferPointer(rebasing: digits[..<end]))
    }
  }

  /// Quotes a string; UTF-8 is copied as it is, so only `"`, `\\` and control characters are escaped.
  fileprivate static func writeString(_ text: String, to output: inout ByteSink) {
    // Native strings lend their bytes as they are; others (bridged, lazily decoded) are copied.
    if text.utf8.withContiguousStorageIfAvailable({ writeString(utf8: $0, to: &output) }) != nil { return }
    var copy = text
    copy.withUTF8 { writeString(utf8: $0, to: &output) }
  }

  fileprivate static func writeString(utf8: UnsafeBufferPointer<UInt8>, to output: inout ByteSink) {
    output.reserve(utf8.count + 2)
    output.append(UInt8(ascii: "\""))
    // Nearly every string needs no escape: it is copied as it is checked, in one pass.
    let plain = output.appendUpToEscape(utf8)
    guard plain < utf8.count else {
      output.append(UInt8(ascii: "\""))
      return
    }
    var runStart = plain
    for index in plain..<utf8.count {
      let byte = utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
      output.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      runStart = index + 1
      switch byte {
      case UInt8(ascii: "\""): output.append("\\\"")
      case UInt8(ascii: "\\"): output.append("\\\\")
      case UInt8(ascii: "\n"): output.append("\\n")
      case UInt8(ascii: "\r"): output.append("\\r")
      case UInt8(ascii: "\t"): output.append("\\t")
      default:
        let hex: StaticString = "0123456789abcdef"
        output.append("\\u00")
        output.append(hex.utf8Start[Int(byte >> 4)])
        output.append(hex.utf8Start[Int(byte & 15)])
      }
    }
    output.append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    output.append(UInt8(ascii: "\""))
  }
}

/// Bytes being written: a buffer that grows by doubling, appended to without an array's
/// checks on every byte. It owns its memory, so it cannot be copied.
struct ByteSink: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  private var count = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 16)
    self.base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// What has been written, as an array.
  var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

  func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    body(UnsafeBufferPointer(start: base, count: count))
  }

  mutating func clear() { count = 0 }

  /// Room for `extra` more bytes. Called for every value written, so only the rare growth is
  /// out of line.
  @inline(__always)
  mutating func reserve(_ extra: Int) {
    if extra > capacity - count { grow(extra) }
  }

  @inline(never)
  private mutating func grow(_ extra: Int) {
    var grown = capacity * 2
    while grown - count < extra { grown *= 2 }
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    moved.initialize(from: base, count: count)
    base.deallocate()
    (base, capacity) = (moved, grown)
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + count).initialize(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Copies bytes up to the first that JSON must escape in a string (a quote, a backslash, a
  /// control character), eight at a time while none is; how many it copied.
  mutating func appendUpToEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let source = bytes.baseAddress else { return 0 }
    reserve(bytes.count)
    let target = base + count
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
    var index = 0
    while index + 8 <= bytes.count {
      let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
      // A byte below 0x20 borrows when 0x20 is taken from it (and has its high bit clear).
      let hasControl = (word &- 0x2020_2020_2020_2020) & ~word & highs != 0
      if hasControl || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)) { break }
      UnsafeMutableRawPointer(target + index).storeBytes(of: word, as: UInt64.self)
      index += 8
    }
    while index < bytes.count {
      let byte = source[index]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
      target[index] = byte
      index += 1
    }
    count += index
    return index
  }

  /// `"key":` for a short literal key with nothing to escape, copied byte by byte: a call to
  /// memcpy and the general escaping cost more than such a key. False, having written nothing
  /// that counts, when the key needs an escape.
  @inline(__always)
  mutating func appendPlainKey(_ key: StaticString) -> Bool {
    let length = key.utf8CodeUnitCount
    reserve(length + 3)
    let start = key.utf8Start
    base[count] = UInt8(ascii: "\"")
    for offset in 0..<length {
      let byte = start[offset]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
      base[count + 1 + offset] = byte
    }
    base[count + 1 + length] = UInt8(ascii: "\"")
    base[count + 2 + length] = UInt8(ascii: ":")
    count += length + 3
    return true
  }

  mutating func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }
}

/// Writes JSON text straight into bytes, for an answer sent far more often than it is read
/// (`biki/generate`'s questions): no tree of values is built, copied and freed on the way.
/// Commas go in by themselves; objects and arrays must be closed in the order they opened.
package struct JSONWriter: ~Copyable {
  private var sink = ByteSink(capacity: 512)
  /// Whether a value has been written at this level since its `[` or `{`: the next needs a comma.
  private var followsValue = false

  package init() {}

  /// A writer with room for about `capacity` bytes: text known to be large (a report of every
  /// problem) is written without growing, and copying, its buffer again and again.
  package init(reserving capacity: Int) { sink = ByteSink(capacity: capacity) }

  /// The room the writer holds, written or not.
  package var room: Int { sink.capacity }

  private mutating func separate() {
    if followsValue { sink.append(UInt8(ascii: ",")) }
    followsValue = false
  }

  package mutating func beginObject() {
    separate()
    sink.append(UInt8(ascii: "{"))
  }

  package mutating func endObject() {
    sink.append(UInt8(ascii: "}"))
    followsValue = true
  }

  package mutating func beginArray() {
    separate()
    sink.append(UInt8(ascii: "["))
  }

  package mutating func endArray() {
    sink.append(UInt8(ascii: "]"))
    followsValue = true
  }

  /// A member's key, a literal in Biki's code; its value is what is written next.
  package mutating func key(_ key: StaticString) {
    separate()
    if !sink.appendPlainKey(key) {
      JSON.writeString(utf8: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), to: &sink)
      sink.append(UInt8(ascii: ":"))
    }
  }

  package mutating func string(_ text: String) {
    separate()
    JSON.writeString(text, to: &sink)
    followsValue = true
  }

  package mutating func integer(_ value: Int64) {
    separate()
    JSON.writeInteger(value, to: &sink)
    followsValue = true
  }

  /// An integer as a string of its digits (`"42"`): how seeds go on the wire, since JSON
  /// numbers lose precision past 2^53 in many clients.
  package mutating func quotedInteger(_ value: UInt64) {
    separate()
    sink.append(UInt8(ascii: "\""))
    JSON.writeDigits(value, to: &sink)
    sink.append(UInt8(ascii: "\""))
    followsValue = true
  }

  package mutating func value(_ value: JSON) {
    separate()
    value.write(to: &sink)
    followsValue = true
  }

  /// Everything written, as a value that sends as these bytes.
  package consuming func finish() -> JSON { .written(sink.array) }

  /// Lends what has been written, without copying it out.
  package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result { sink.withBytes(body) }

  /// Forgets what has been written and keeps the room: one writer serves every message a
  /// connection sends, instead of a buffer made and freed for each.
  package mutating func clear() {
    sink.clear()
    followsValue = false
  }
}
