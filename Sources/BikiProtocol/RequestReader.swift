import BikiJSON

/// A request read straight from its bytes, without a tree: every message a client sends to ask
/// for something passes here, and building a tree of it cost more than answering most of them
/// (docs/performance.md).
///
/// The whole body is checked valid as the parser would check it (`JSONScan`), the envelope's
/// members are read in place, and the params are kept as their text (`JSON.written`), which the
/// server reads member by member. Anything else (a notification, a response, an error to
/// report, an id or key spelt with escapes, a byte order mark) is left to the parser:
/// `IncomingMessage.parseTree`. Where this reader answers, it answers as the parser would;
/// `fuzz-request` feeds both.
enum RequestReader {
  /// The request `body` holds, or nil when the parser should read it.
  static func request(_ body: [UInt8]) -> IncomingMessage? {
    body.withUnsafeBufferPointer { bytes -> IncomingMessage? in
      var envelope = Envelope()
      var index = JSONScan.whitespaceEnd(bytes, from: 0)
      guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
      index = JSONScan.whitespaceEnd(bytes, from: index + 1)
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return nil }
      while true {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
          let keyEnd = JSONScan.validStringEnd(bytes, from: index)
        else { return nil }
        let key = bytes[index + 1..<keyEnd - 1]
        index = JSONScan.whitespaceEnd(bytes, from: keyEnd)
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        let valueStart = JSONScan.whitespaceEnd(bytes, from: index + 1)
        guard let valueEnd = JSONScan.validValueEnd(bytes, from: valueStart, depth: 1) else { return nil }
        guard envelope.note(key, valueStart..<valueEnd) else { return nil }
        index = JSONScan.whitespaceEnd(bytes, from: valueEnd)
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "}") { break }
        guard bytes[index] == UInt8(ascii: ",") else { return nil }
        index = JSONScan.whitespaceEnd(bytes, from: index + 1)
      }
      guard JSONScan.whitespaceEnd(bytes, from: index + 1) == bytes.count else { return nil }
      return envelope.request(in: bytes)
    }
  }

  /// Where the envelope's members are, the first of each name, as the parser's reading keeps.
  private struct Envelope {
    var id: Range<Int>?
    var version: Range<Int>?
    var method: Range<Int>?
    var params: Range<Int>?

    /// Notes a member; false when its key is spelt with an escape, which only the parser
    /// compares as it should.
    mutating func note(_ key: Slice<UnsafeBufferPointer<UInt8>>, _ value: Range<Int>) -> Bool {
      if key.contains(UInt8(ascii: "\\")) { return false }
      if JSONScan.spells(key, "id") {
        if id == nil { id = value }
      } else if JSONScan.spells(key, "jsonrpc") {
        if version == nil { version = value }
      } else if JSONScan.spells(key, "method") {
        if method == nil { method = value }
      } else if JSONScan.spells(key, "params") {
        if params == nil { params = value }
      }
      return true
    }

    /// The request, when every member is as a well-formed request has it.
    func request(in bytes: UnsafeBufferPointer<UInt8>) -> IncomingMessage? {
      guard let version, JSONScan.spells(bytes[version], #""2.0""#),
        let id = id.flatMap({ Self.id(bytes[$0]) }),
        let method = method.flatMap({ JSONScan.unescapedString(bytes[$0]) })
      else { return nil }
      guard let params else { return .request(id: id, method: method, params: nil) }
      switch bytes[params.lowerBound] {
      case UInt8(ascii: "n"): return .request(id: id, method: method, params: nil)
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        return .request(id: id, method: method, params: .written(Array(bytes[params])))
      default: return nil
      }
    }

    /// An id written as a whole number in Int64's range, or as a string without escapes.
    private static func id(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> RequestID? {
      if let string = JSONScan.unescapedString(text) { return .string(string) }
      guard text.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
        case .integer(let number) = JSON.number(literal: text)
      else { return nil }
      return .number(number)
    }
  }
}
