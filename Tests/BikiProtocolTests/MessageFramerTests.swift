import BikiJSON
import Testing

@testable import BikiProtocol

@Suite struct MessageFramerTests {
  func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func readsMessagesSplitAnywhere() {
    let stream = bytes("Content-Length: 2\r\n\r\n{}Content-Length: 7\r\n\r\n[1,2,3]")
    for split in 0...stream.count {
      var framer = MessageFramer()
      let events = framer.feed(stream[..<split]) + framer.feed(stream[split...])
      #expect(events == [.message(bytes("{}")), .message(bytes("[1,2,3]"))], "split at \(split)")
      #expect(!framer.hasPartialMessage)
    }
  }

  @Test func headerNamesAreCaseInsensitiveAndOtherHeadersIgnored() {
    var framer = MessageFramer()
    let events = framer.feed(
      bytes("content-length:2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\nX-Other: 1\r\n\r\n{}"))
    #expect(events == [.message(bytes("{}"))])
  }

  @Test func oversizedBodiesAreSkippedWithoutBuffering() {
    var framer = MessageFramer(maximumBody: 10)
    var events = framer.feed(bytes("Content-Length: 1000\r\n\r\n"))
    #expect(events == [.oversized(length: 1000)])
    for _ in 0..<10 { events = framer.feed([UInt8](repeating: 65, count: 100)) }
    #expect(events == [])
    #expect(framer.feed(bytes("Content-Length: 2\r\n\r\n{}")) == [.message(bytes("{}"))])
  }

  @Test(arguments: [
    ("Content-Length: abc\r\n\r\n", "not a non-negative integer"),
    ("Content-Length: -5\r\n\r\n", "not a non-negative integer"),
    ("Content-Type: x\r\n\r\n", "no Content-Length"), ("garbage\r\n\r\n", "has no ':'"),
  ])
  func malformedHeadersAreReportedAndTheStreamGoesOn(_ header: String, _ reason: String) {
    var framer = MessageFramer()
    let events = framer.feed(bytes(header + "Content-Length: 2\r\n\r\n{}"))
    guard case .malformedHeader(let text) = events.first else {
      Issue.record("\(events)")
      return
    }
    #expect(text.contains(reason))
    #expect(events.last == .message(bytes("{}")))
  }

  /// The header nearly every client writes is read without the general search; what lies at
  /// its edges is read as before.
  @Test(arguments: [
    ("Content-Length: 0\r\n\r\n", [MessageFramer.Event.message([])]),
    ("Content-Length: 2\r\n\r\n{}", [.message(Array("{}".utf8))]),
    ("Content-Length: 02\r\n\r\n{}", [.message(Array("{}".utf8))]),
    ("Content-Length: 999999999999999999\r\n\r\n", [.oversized(length: 999_999_999_999_999_999)]),
    ("Content-Length:  2\r\n\r\n{}", [.message(Array("{}".utf8))]),
    ("Content-Length: 2 \r\n\r\n{}", [.message(Array("{}".utf8))]),
    ("Content-Length: 2\n\n{}", [.message(Array("{}".utf8))]),
    ("Content-Length: 2\r\nContent-Type: x\r\n\r\n{}", [.message(Array("{}".utf8))]),
  ])
  func theUsualHeaderAndItsNeighbours(_ stream: String, _ expected: [MessageFramer.Event]) {
    var framer = MessageFramer()
    #expect(framer.feed(bytes(stream)) == expected)
    var byteByByte = MessageFramer()
    #expect(bytes(stream).flatMap { byteByByte.feed([$0]) } == expected)
  }

  @Test(arguments: [
    "Content-Length: 1234567890123456789\r\n\r\n", "Content-Length: \r\n\r\n", "Content-Length: 2x\r\n\r\n",
  ])
  func aMalformedLengthIsStillReported(_ header: String) {
    var framer = MessageFramer()
    let events = framer.feed(bytes(header + "Content-Length: 2\r\n\r\n{}"))
    #expect(events.count == 2, "\(events)")
    if case .malformedHeader = events.first {} else { Issue.record("\(events)") }
    #expect(events.last == .message(bytes("{}")))
  }

  @Test func aTruncatedBodyIsPending() {
    var framer = MessageFramer()
    #expect(framer.feed(bytes("Content-Length: 10\r\n\r\n{\"a\"")) == [])
    #expect(framer.hasPartialMessage)
  }

  @Test func framesCarryOnlyContentLength() {
    #expect(MessageFramer.frame(bytes("{}")) == bytes("Content-Length: 2\r\n\r\n{}"))
    #expect(MessageFramer.frame(bytes("\"本\"")) == bytes("Content-Length: 5\r\n\r\n\"本\""))
    #expect(MessageFramer.frame([]) == bytes("Content-Length: 0\r\n\r\n"))
    let long = [UInt8](repeating: UInt8(ascii: "1"), count: 12_345)
    #expect(MessageFramer.frame(long) == bytes("Content-Length: 12345\r\n\r\n") + long)
    // Several messages framed into one write, each with its own length.
    var both: [UInt8] = []
    MessageFramer.frame(bytes("{}"), into: &both)
    MessageFramer.frame(bytes("[1,2]"), into: &both)
    #expect(both == bytes("Content-Length: 2\r\n\r\n{}Content-Length: 5\r\n\r\n[1,2]"))
  }
}
