/// LSP base framing: `Content-Length: N\r\n` (other headers ignored), a blank line, then N bytes.
///
/// Incremental and bounded: feed it whatever the pipe delivered and take complete messages out.
/// A body over `maximumBody` is skipped as it streams past, never buffered. A malformed header
/// block is reported and skipped, and the framer carries on with the next one.
package struct MessageFramer: Sendable {
  package enum Event: Equatable, Sendable {
    case message([UInt8])
    /// A header block that could not be understood; the text says why.
    case malformedHeader(String)
    /// A body larger than allowed; it is being discarded.
    case oversized(length: Int)
  }

  package static let defaultMaximumBody = 16 << 20
  /// Header blocks longer than this are malformed: a real one is a line or two.
  static let maximumHeader = 8 << 10

  package let maximumBody: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var pendingBody: Int?
  private var skipping = 0

  package init(maximumBody: Int = defaultMaximumBody) {
    self.maximumBody = maximumBody
  }

  /// Whether bytes of an unfinished message are held (so EOF now means a truncated message).
  package var hasPartialMessage: Bool { buffer.count > start || pendingBody != nil || skipping > 0 }

  package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
    buffer.append(contentsOf: bytes)
    var events: [Event] = []
    while true {
      if skipping > 0 {
        let dropped = min(skipping, buffer.count - start)
        start += dropped
        skipping -= dropped
        if skipping > 0 { break }
        continue
      }
      if let length = pendingBody {
        guard buffer.count - start >= length else { break }
        events.append(.message(Array(buffer[start..<(start + length)])))
        start += length
        pendingBody = nil
        continue
      }
      guard let end = headerEnd() else {
        if buffer.count - start > MessageFramer.maximumHeader {
          events.append(.malformedHeader("a header block longer than \(MessageFramer.maximumHeader) bytes"))
          start = buffer.count
        }
        break
      }
      let header = buffer[start..<end]
      start = end + 4
      switch MessageFramer.contentLength(header) {
      case .success(let length) where length > maximumBody:
        events.append(.oversized(length: length))
        skipping = length
      case .success(let length):
        pendingBody = length
      case .failure(let problem):
        events.append(.malformedHeader(problem.reason))
      }
    }
    compact()
    return events
  }

  private func headerEnd() -> Int? {
    guard buffer.count - start >= 4 else { return nil }
    var index = start
    while index + 3 < buffer.count {
      if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
      index += 1
    }
    return nil
  }

  private mutating func compact() {
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeFirst(start)
      start = 0
    }
  }

  struct HeaderProblem: Error {
    var reason: String
  }

  /// The Content-Length of a header block, read from its bytes: this runs for every message.
  static func contentLength(_ header: ArraySlice<UInt8>) -> Result<Int, HeaderProblem> {
    // Headers are ASCII in practice: only a header with other bytes is checked as UTF-8.
    guard header.allSatisfy({ $0 < 0x80 }) || String(validating: header, as: UTF8.self) != nil else {
      return .failure(HeaderProblem(reason: "the header is not valid UTF-8"))
    }
    var length: Int?
    var lineStart = header.startIndex
    while lineStart <= header.endIndex {
      var lineEnd = lineStart
      while lineEnd < header.endIndex && !(header[lineEnd] == 13 && lineEnd + 1 < header.endIndex && header[lineEnd + 1] == 10) {
        lineEnd += 1
      }
      let line = header[lineStart..<lineEnd]
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
        let shown = String(decoding: line.prefix(40), as: UTF8.self)
        return .failure(HeaderProblem(reason: "header line \"\(shown)\" has no ':'"))
      }
      if isContentLength(trimmed(line[..<colon])) {
        let value = trimmed(line[(colon + 1)...])
        guard !value.isEmpty, value.count <= 18, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
          let shown = String(decoding: value.prefix(40), as: UTF8.self)
          return .failure(HeaderProblem(reason: "Content-Length \"\(shown)\" is not a non-negative integer"))
        }
        length = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
      }
      // Content-Type and any other header: accepted and ignored, as the LSP spec allows.
      lineStart = lineEnd + 2
    }
    guard let length else { return .failure(HeaderProblem(reason: "the header has no Content-Length")) }
    return .success(length)
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
    return bytes[first...last]
  }

  /// Header names are case-insensitive.
  private static func isContentLength(_ name: ArraySlice<UInt8>) -> Bool {
    let expected: StaticString = "content-length"
    guard name.count == expected.utf8CodeUnitCount else { return false }
    for (offset, byte) in name.enumerated() where (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected.utf8Start[offset] {
      return false
    }
    return true
  }

  /// A framed message: exactly `Content-Length` and the body.
  package static func frame(_ body: [UInt8]) -> [UInt8] {
    var framed: [UInt8] = []
    frame(body, into: &framed)
    return framed
  }

  /// Appends a framed message to what is about to be written.
  package static func frame(_ body: [UInt8], into output: inout [UInt8]) {
    // Reserved only for the first message: reserving for each would copy the buffer each time.
    if output.isEmpty { output.reserveCapacity(body.count + 32) }
    output.append(contentsOf: "Content-Length: ".utf8)
    // The length's digits, written without forming a string.
    let digitsStart = output.count
    var length = body.count
    repeat {
      output.append(UInt8(ascii: "0") + UInt8(length % 10))
      length /= 10
    } while length > 0
    output[digitsStart...].reverse()
    output.append(contentsOf: "\r\n\r\n".utf8)
    output.append(contentsOf: body)
  }
}
