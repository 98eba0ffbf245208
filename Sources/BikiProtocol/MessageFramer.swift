import BikiJSON
import Glibc

/// LSP base framing: a header block, an empty line, then `Content-Length` bytes of body. Other
/// headers are ignored. Header lines end in `\r\n` as the spec says, or in `\n` alone, as
/// hand-written input and hand-rolled clients may end them.
///
/// Incremental and bounded: feed it whatever the pipe delivered and take complete messages out;
/// the same bytes give the same events however they are split. A body over `maximumBody` is
/// skipped as it streams past, never buffered.
///
/// After a malformed header block nothing can be trusted, not even where its body ends, so the
/// framer reports it and resynchronises: it discards bytes from the block's second byte up to
/// the next `Content-Length:` and reads a header block there. That name is looked for anywhere,
/// not only at a line start, because a header follows the previous body with no line end
/// between. A block found this way that is malformed too is discarded alike without another
/// report, so a stretch of junk costs the client one error however long it runs; the next
/// well-formed header block ends the stretch. Junk is never buffered.
package struct MessageFramer: Sendable {
  package enum Event: Equatable, Sendable {
    case message([UInt8])
    /// A header block that could not be understood, the first of a malformed stretch; the text
    /// says why.
    case malformedHeader(String)
    /// A body larger than allowed; it is being discarded.
    case oversized(length: Int)
  }

  static let defaultMaximumBody = 16 << 20
  /// Header blocks longer than this, their empty line included, are malformed: a real one is a
  /// line or two.
  static let maximumHeader = 8 << 10

  package let maximumBody: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var pendingBody: Int?
  private var skipping = 0
  /// Looking for the next `Content-Length:` after a malformed header block.
  private var resynchronising = false
  /// A malformed block has been reported and no well-formed one has followed yet.
  private var inMalformedStretch = false
  /// How far the header block being read has been searched for its empty line, and whether a
  /// line starts there: a block that arrives a few bytes at a time, or that is searched again
  /// from a later byte while resynchronising, is not searched from its beginning each time.
  private var headerScanned = 0
  private var headerScannedAtLineStart = true

  package init(maximumBody: Int = defaultMaximumBody) {
    self.maximumBody = maximumBody
  }

  /// Whether bytes of an unfinished message are held (so EOF now means a truncated message).
  var hasPartialMessage: Bool { buffer.count > start || pendingBody != nil || skipping > 0 }

  /// Bytes held, consumed or not: while junk is discarded, no more than a few.
  var bufferedByteCount: Int { buffer.count }

  package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
    var events: [Event] = []
    feed(bytes, into: &events)
    return events
  }

  /// Appends the events the bytes complete to `events`, which the message loop keeps (with its
  /// room) from one read to the next.
  mutating func feed(_ bytes: some Sequence<UInt8>, into events: inout [Event]) {
    buffer.append(contentsOf: bytes)
    framing: while true {
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
      if resynchronising {
        guard resynchronise() else { break }
        continue
      }
      if let (length, next) = plainHeader() {
        // What `headerEnd` and `contentLength` would find in this block, without searching it.
        headerScanned = next - 2
        headerScannedAtLineStart = true
        bodyBegins(at: next, length: length, into: &events)
        continue
      }
      switch headerEnd() {
      case .incomplete:
        break framing
      case .overLimit:
        malformed(
          "a header block longer than \(MessageFramer.maximumHeader) bytes", resumingAt: start + 1, into: &events)
      case .found(let lines, let next):
        switch MessageFramer.contentLength(buffer[lines]) {
        case .success(let length): bodyBegins(at: next, length: length, into: &events)
        case .failure(let problem):
          // A block starting inside the offending line might read well; one starting at or
          // before it holds that whole line and is malformed too, so the search skips those.
          malformed(problem.reason, resumingAt: (problem.line ?? start) + 1, into: &events)
        }
      }
    }
    compact()
  }

  /// A well-formed header block read: its body of `length` bytes starts at `next`, to be
  /// taken whole or, over the limit, skipped.
  private mutating func bodyBegins(at next: Int, length: Int, into events: inout [Event]) {
    start = next
    inMalformedStretch = false
    if length > maximumBody {
      events.append(.oversized(length: length))
      skipping = length
    } else {
      pendingBody = length
    }
  }

  /// The header block at `start` when it is the one nearly every client writes,
  /// `Content-Length: N\r\n\r\n` (N up to 18 digits, nothing else): its length and where its
  /// body starts. Anything else is read the general way.
  private func plainHeader() -> (length: Int, next: Int)? {
    let name: StaticString = "Content-Length: "
    let nameLength = name.utf8CodeUnitCount
    return buffer.withUnsafeBufferPointer { bytes -> (Int, Int)? in
      guard let base = bytes.baseAddress, bytes.count - start > nameLength + 4,
        memcmp(base + start, name.utf8Start, nameLength) == 0
      else { return nil }
      var index = start + nameLength
      let digitsStart = index
      var value = 0
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, index - digitsStart < 18 {
        value = value * 10 + Int(bytes[index] - 0x30)
        index += 1
      }
      guard index > digitsStart, bytes.count - index >= 4, bytes[index] == 0x0D, bytes[index + 1] == 0x0A,
        bytes[index + 2] == 0x0D, bytes[index + 3] == 0x0A
      else { return nil }
      return (value, index + 4)
    }
  }

  private mutating func malformed(_ reason: String, resumingAt resume: Int, into events: inout [Event]) {
    if !inMalformedStretch { events.append(.malformedHeader(reason)) }
    inMalformedStretch = true
    start = resume
    resynchronising = true
  }

  /// Discards bytes up to the next `Content-Length:` (in any case); true once one is at `start`.
  /// Only a partial match at the end is kept, so junk costs no memory however long it runs.
  private mutating func resynchronise() -> Bool {
    let name: StaticString = "content-length:"
    let from = start
    var matched = 0
    var found: Int?
    buffer.withUnsafeBufferPointer { bytes in
      var index = from
      while index < bytes.count {
        let byte = bytes[index]
        let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        index += 1
        if folded == name.utf8Start[matched] {
          matched += 1
          if matched == name.utf8CodeUnitCount {
            found = index - matched
            return
          }
        } else {
          // The name has one `c`, so a match can only start again at this byte.
          matched = folded == UInt8(ascii: "c") ? 1 : 0
        }
      }
    }
    if let found {
      start = found
      resynchronising = false
      return true
    }
    // Dropped now rather than at the next compaction, so only the partial match is held.
    let discarded = buffer.count - matched
    buffer.removeFirst(discarded)
    headerScanned = max(0, headerScanned - discarded)
    start = 0
    return false
  }

  private enum HeaderSearch {
    /// The block's lines, each with its line end, and where what follows its empty line starts.
    case found(lines: Range<Int>, next: Int)
    case incomplete
    /// No empty line ends within `maximumHeader` bytes.
    case overLimit
  }

  /// Finds the first empty line (`\n` or `\r\n` at a line start) of the block at `start`.
  private mutating func headerEnd() -> HeaderSearch {
    let lineFeed = UInt8(ascii: "\n")
    let carriageReturn = UInt8(ascii: "\r")
    let from = start
    let limit = min(buffer.count, from + MessageFramer.maximumHeader)
    var position = from
    var atLineStart = true
    var next: Int?
    buffer.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress, from < limit else { return }
      // What was searched for an earlier block from here on reads the same for this one; only
      // this block's first line start is new.
      if headerScanned > from && bytes[from] != lineFeed && bytes[from] != carriageReturn {
        position = headerScanned
        atLineStart = headerScannedAtLineStart
      }
      while position < limit {
        if atLineStart {
          if bytes[position] == lineFeed {
            next = position + 1
            return
          }
          if bytes[position] == carriageReturn {
            guard position + 1 < limit else { return }
            if bytes[position + 1] == lineFeed {
              next = position + 2
              return
            }
          }
          atLineStart = false
        }
        guard let newline = memchr(base + position, Int32(lineFeed), limit - position) else {
          position = limit
          return
        }
        position = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline)) + 1
        atLineStart = true
      }
    }
    headerScanned = position
    headerScannedAtLineStart = atLineStart
    if let next { return .found(lines: from..<position, next: next) }
    return buffer.count - from >= MessageFramer.maximumHeader ? .overLimit : .incomplete
  }

  private mutating func compact() {
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeFirst(start)
      headerScanned = max(0, headerScanned - start)
      start = 0
    }
  }

  struct HeaderProblem: Error {
    var reason: String
    /// Where the offending line starts; nil when the block as a whole is at fault.
    var line: Int? = nil
  }

  /// The Content-Length of a header block, read from its lines' bytes: this runs for every
  /// message. Lines are split at `\n`, a `\r` before it dropped; when `Content-Length` is given
  /// twice, the last one counts.
  static func contentLength(_ header: ArraySlice<UInt8>) -> Result<Int, HeaderProblem> {
    let lineFeed = UInt8(ascii: "\n")
    let colonByte = UInt8(ascii: ":")
    var length: Int?
    var lineStart = header.startIndex
    while lineStart < header.endIndex {
      let stop = header[lineStart...].firstIndex { $0 == colonByte || $0 == lineFeed }
      if let colon = stop, header[colon] == colonByte, isContentLength(trimmed(header[lineStart..<colon])) {
        // Read from the colon and refused at its first bad byte: while resynchronising, blocks
        // starting at each `Content-Length:` in a long line are read one after another.
        switch lengthValue(header, after: colon) {
        case .success(let (value, lineEnd)):
          length = value
          lineStart = lineEnd + 1
        case .failure(let problem):
          return .failure(HeaderProblem(reason: problem.reason, line: lineStart))
        }
        continue
      }
      let lineEnd =
        stop.flatMap { header[$0] == lineFeed ? $0 : header[$0...].firstIndex(of: lineFeed) } ?? header.endIndex
      var line = header[lineStart..<lineEnd]
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      // Headers are ASCII in practice: only a line with other bytes is checked as UTF-8.
      guard line.allSatisfy({ $0 < 0x80 }) || String(validating: line, as: UTF8.self) != nil else {
        return .failure(HeaderProblem(reason: "the header is not valid UTF-8", line: lineStart))
      }
      guard line.contains(colonByte) else {
        let shown = String(decoding: line.prefix(40), as: UTF8.self)
        return .failure(HeaderProblem(reason: "header line \"\(shown)\" has no ':'", line: lineStart))
      }
      // Content-Type and any other header: accepted and ignored, as the LSP spec allows.
      lineStart = lineEnd + 1
    }
    guard let length else { return .failure(HeaderProblem(reason: "the header has no Content-Length")) }
    return .success(length)
  }

  /// The digits after a Content-Length's colon, up to 18 of them with blanks around, and where
  /// the line ends.
  private static func lengthValue(_ header: ArraySlice<UInt8>, after colon: Int) -> Result<(Int, Int), HeaderProblem> {
    let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    var index = colon + 1
    while index < header.endIndex && isBlank(header[index]) { index += 1 }
    let digitsStart = index
    var value = 0
    while index < header.endIndex, header[index] >= 0x30, header[index] <= 0x39, index - digitsStart < 18 {
      value = value * 10 + Int(header[index] - 0x30)
      index += 1
    }
    let digitsEnd = index
    while index < header.endIndex && isBlank(header[index]) { index += 1 }
    if index < header.endIndex && header[index] == UInt8(ascii: "\r") { index += 1 }
    guard digitsEnd > digitsStart, index == header.endIndex || header[index] == UInt8(ascii: "\n") else {
      // Shown as far as 40 bytes go, not read to the line's end.
      var shown = header[digitsStart..<min(header.endIndex, digitsStart + 40)]
      if let lineEnd = shown.firstIndex(of: UInt8(ascii: "\n")) { shown = shown[..<lineEnd] }
      if shown.last == UInt8(ascii: "\r") { shown = shown.dropLast() }
      let text = String(decoding: trimmed(shown), as: UTF8.self)
      return .failure(HeaderProblem(reason: "Content-Length \"\(text)\" is not a non-negative integer"))
    }
    return .success((value, index))
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return [] }
    return bytes[first...last]
  }

  /// Header names are case-insensitive.
  private static func isContentLength(_ name: ArraySlice<UInt8>) -> Bool {
    let expected: StaticString = "content-length"
    guard name.count == expected.utf8CodeUnitCount else { return false }
    for (offset, byte) in name.enumerated()
    where (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected.utf8Start[offset] {
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
  static func frame(_ body: [UInt8], into output: inout [UInt8]) {
    body.withUnsafeBufferPointer { frame($0, into: &output) }
  }

  /// Appends a framed message whose body is lent, not owned.
  static func frame(_ body: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    header(length: body.count, into: &output)
    output.append(contentsOf: body)
  }

  /// Appends a framed message whose body is `opening`, then `payload`, then `closing`: a large
  /// payload written already goes into the output once, not first into a body of its own.
  static func frame(
    _ opening: UnsafeBufferPointer<UInt8>, _ payload: [UInt8], _ closing: UInt8, into output: inout [UInt8]
  ) {
    header(length: opening.count + payload.count + 1, into: &output)
    output.append(contentsOf: opening)
    output.append(contentsOf: payload)
    output.append(closing)
  }

  /// Appends the response `{"jsonrpc":"2.0","id":<id>,"result":<result>}`, as `JSONWriter`
  /// writes it, with `result` copied once, straight into the output.
  ///
  /// Everything before the result (the header, the envelope, the id) is written into one small
  /// buffer first and appended at once: appended piece by piece, each piece cost the array's
  /// checks again, and the digits one by one.
  static func frameResult(id: Int64, _ result: [UInt8], into output: inout [UInt8]) {
    let opening: StaticString = #"{"jsonrpc":"2.0","id":"#
    let middle: StaticString = #","result":"#
    let sign = id < 0 ? 1 : 0
    let idDigits = DecimalDigits.count(id.magnitude)
    let length = opening.utf8CodeUnitCount + sign + idDigits + middle.utf8CodeUnitCount + result.count + 1
    // The header's 40 bytes at most, the opening, a sign, 20 digits, the middle.
    Prefix.write(into: &output, length: length, capacity: 96) { prefix, end in
      Prefix.put(opening, in: prefix, at: &end)
      if sign == 1 {
        prefix[end] = UInt8(ascii: "-")
        end += 1
      }
      DecimalDigits.write(id.magnitude, into: prefix, at: &end)
      Prefix.put(middle, in: prefix, at: &end)
    }
    output.append(contentsOf: result)
    output.append(UInt8(ascii: "}"))
  }

  private static func header(length: Int, into output: inout [UInt8]) {
    Prefix.write(into: &output, length: length, capacity: 48) { _, _ in }
  }

  /// Writing a frame's prefix into a buffer with room for it: the callers size theirs for the
  /// longest prefix they write (every number has 20 digits at most).
  private enum Prefix {
    /// Appends the header for a body of `length` bytes and what `rest` puts after it, in one
    /// block; `capacity` has room for the header (40 bytes at most) and the rest.
    @inline(__always)
    static func write(
      into output: inout [UInt8], length: Int, capacity: Int,
      _ rest: (UnsafeMutableBufferPointer<UInt8>, inout Int) -> Void
    ) {
      // Reserved only for the first message: reserving for each would copy the buffer each time.
      if output.isEmpty { output.reserveCapacity(length + 32) }
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { prefix in
        var end = 0
        put("Content-Length: ", in: prefix, at: &end)
        DecimalDigits.write(UInt64(length), into: prefix, at: &end)
        put("\r\n\r\n", in: prefix, at: &end)
        rest(prefix, &end)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: prefix[..<end]))
      }
    }

    static func put(_ literal: StaticString, in buffer: UnsafeMutableBufferPointer<UInt8>, at end: inout Int) {
      let count = literal.utf8CodeUnitCount
      guard let base = buffer.baseAddress else { return }
      UnsafeMutableRawPointer(base + end).copyMemory(from: literal.utf8Start, byteCount: count)
      end += count
    }
  }
}
