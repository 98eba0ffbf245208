import Testing

@testable import BikiProtocol

/// What the framer does with bytes that are not a well-formed frame: LF-only headers are
/// frames, and after a malformed block it finds the next `Content-Length:` and serves on.
@Suite struct MessageFramerRecoveryTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
  static func frame(_ body: String) -> [UInt8] { MessageFramer.frame(bytes(body)) }
  static func request(_ id: Int) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"biki/read","params":{"text":"8本"}}"#
  }
  static func requests(_ ids: ClosedRange<Int>) -> [UInt8] { ids.flatMap { frame(request($0)) } }
  static func messages(_ ids: ClosedRange<Int>) -> [MessageFramer.Event] { ids.map { .message(bytes(request($0))) } }

  /// The reason of the one malformed header reported, or nil if there is not exactly one.
  static func onlyReason(_ events: [MessageFramer.Event]) -> String? {
    let reasons = events.compactMap { event -> String? in
      if case .malformedHeader(let reason) = event { reason } else { nil }
    }
    return reasons.count == 1 ? reasons.first : nil
  }

  static func messagesOnly(_ events: [MessageFramer.Event]) -> [MessageFramer.Event] {
    events.filter { if case .message = $0 { true } else { false } }
  }

  static func feedWhole(_ stream: [UInt8], maximumBody: Int = MessageFramer.defaultMaximumBody) -> [MessageFramer.Event]
  {
    var framer = MessageFramer(maximumBody: maximumBody)
    return framer.feed(stream)
  }

  @Test func anLFOnlyHeaderBlockIsAFrameAndTheMessagesAfterItAreFramed() {
    let events = Self.feedWhole(Self.bytes("Content-Length: 2\n\n{}") + Self.requests(1...3))
    #expect(events == [.message(Self.bytes("{}"))] + Self.messages(1...3))
  }

  @Test(arguments: [
    "Content-Length: 2\r\n\n", "Content-Length: 2\n\r\n", "Content-Type: x\nContent-Length: 2\r\n\r\n",
    "content-length: 2\r\nContent-Type: x\n\n", "Content-Length: 2\n\n",
  ])
  func anEmptyLineOfEitherEndingEndsTheBlock(_ header: String) {
    let events = Self.feedWhole(Self.bytes(header + "{}") + Self.requests(1...2))
    #expect(events == [.message(Self.bytes("{}"))] + Self.messages(1...2))
  }

  @Test func theLastOfTwoContentLengthsCounts() {
    #expect(
      Self.feedWhole(Self.bytes("Content-Length: 5\r\nContent-Length: 2\r\n\r\n{}")) == [.message(Self.bytes("{}"))])
    // A bad one among them makes the block malformed, and its body is discarded.
    let events = Self.feedWhole(Self.bytes("Content-Length: 2\r\nContent-Length: x\r\n\r\n{}") + Self.requests(1...1))
    #expect(Self.onlyReason(events)?.contains("not a non-negative integer") == true)
    #expect(events.dropFirst() == Self.messages(1...1)[...])
  }

  @Test func aHeaderThatIsNotUTF8IsMalformed() {
    let events = Self.feedWhole(
      Self.bytes("Content-Length: 2\r\nX-Name: ") + [0xFF, 0xFE] + Self.bytes("\r\n\r\n{}") + Self.requests(1...1))
    #expect(Self.onlyReason(events) == "the header is not valid UTF-8")
    #expect(events.dropFirst() == Self.messages(1...1)[...])
  }

  @Test func theHeaderLimitCountsTheWholeBlockWithItsEmptyLine() {
    let limit = MessageFramer.maximumHeader
    func block(length: Int) -> [UInt8] {
      let head = Self.bytes("Content-Length: 2\r\nX-Padding: ")
      return head + [UInt8](repeating: UInt8(ascii: "p"), count: length - head.count - 4) + Self.bytes("\r\n\r\n")
    }
    #expect(block(length: limit).count == limit)
    #expect(Self.feedWhole(block(length: limit) + Self.bytes("{}")) == [.message(Self.bytes("{}"))])
    let events = Self.feedWhole(block(length: limit + 1) + Self.bytes("{}") + Self.requests(1...1))
    #expect(events == [.malformedHeader("a header block longer than \(limit) bytes")] + Self.messages(1...1))
  }

  @Test func aHundredKilobyteHeaderLineIsOneErrorAndTheTwentyRequestsAfterItAreFramed() {
    let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 100_000)
    let events = Self.feedWhole(junk + Self.requests(1...20))
    #expect(
      events == [.malformedHeader("a header block longer than \(MessageFramer.maximumHeader) bytes")]
        + Self.messages(1...20))
  }

  @Test(arguments: ["garbage", "\u{1B}[0m junk\r\n", "junk\r\nmore junk\n", "\r\n", "\n\n\n", "{\"a\":1}\r\n\r\n"])
  func garbageBetweenMessagesIsOneErrorAndNoMessageIsLost(_ garbage: String) {
    let events = Self.feedWhole(Self.requests(1...1) + Self.bytes(garbage) + Self.requests(2...4))
    #expect(Self.onlyReason(events) != nil)
    #expect(Self.messagesOnly(events) == Self.messages(1...4))
    #expect(events.count == 5 && events[0] == Self.messages(1...1)[0])
  }

  @Test func aMalformedBlockWhoseBodyHasNoContentLengthIsSkippedUpToTheNextOne() {
    let stream = Self.bytes("Foo\r\n\r\n" + Self.request(99)) + Self.requests(1...2)
    #expect(Self.feedWhole(stream) == [.malformedHeader("header line \"Foo\" has no ':'")] + Self.messages(1...2))
  }

  @Test func aBadContentLengthSkipsItsBodyAndTheMessagesAfterItAreFramed() {
    let stream = Self.bytes("Content-Length: twelve\r\n\r\n" + Self.request(99)) + Self.requests(1...3)
    let events = Self.feedWhole(stream)
    #expect(Self.onlyReason(events) == "Content-Length \"twelve\" is not a non-negative integer")
    #expect(events.dropFirst() == Self.messages(1...3)[...])
  }

  @Test func blocksFoundWhileResynchronisingThatAreMalformedTooAreNotReportedAgain() {
    let stretch =
      "Foo\r\n\r\njunk CONTENT-LENGTH: x\r\n\r\n{}junk content-length:\r\n\r\n[] Content-Length: 1\r\nBar\r\n\r\n1"
    var events = Self.feedWhole(Self.bytes(stretch) + Self.requests(1...1))
    #expect(events == [.malformedHeader("header line \"Foo\" has no ':'")] + Self.messages(1...1))
    // A well-formed header ends the stretch: the next malformed block is reported.
    events = Self.feedWhole(Self.bytes(stretch) + Self.requests(1...1) + Self.bytes(stretch) + Self.requests(2...2))
    #expect(events.filter { if case .malformedHeader = $0 { true } else { false } }.count == 2)
    #expect(Self.messagesOnly(events) == Self.messages(1...2))
  }

  @Test func theSearchStartsInsideTheMalformedBlock() {
    #expect(
      Self.feedWhole(Self.bytes("Foo\r\nContent-Length: 2\r\n\r\n{}"))
        == [.malformedHeader("header line \"Foo\" has no ':'"), .message(Self.bytes("{}"))])
    // The name is found in any case.
    #expect(
      Self.feedWhole(Self.bytes("Foo\r\n\r\n[]content-LENGTH: 2\r\n\r\n{}"))
        == [.malformedHeader("header line \"Foo\" has no ':'"), .message(Self.bytes("{}"))])
    // Junk before a header, on its line or the line above, is the block's junk, not the message's.
    for junk in ["x: y: z", "Foo\r\n", "Foo: 1\r\nBar\r\n", String(repeating: "x", count: 8000)] {
      let events = Self.feedWhole(Self.bytes(junk) + Self.requests(1...2))
      #expect(Self.onlyReason(events) != nil, "\(junk.prefix(20))")
      #expect(events.dropFirst() == Self.messages(1...2)[...], "\(junk.prefix(20))")
    }
  }

  @Test func aContentLengthSplitAcrossFeedsIsFoundWhileResynchronising() {
    let before = Self.bytes("Foo\r\n\r\njunk")
    let header = Self.bytes("Content-Length: 2\r\n\r\n{}")
    for split in 0...16 {
      var framer = MessageFramer()
      let first = framer.feed(before + header[..<split])
      #expect(first == [.malformedHeader("header line \"Foo\" has no ':'")], "split at \(split)")
      // Until the name is whole, only the part of it read is held.
      if split < 15 { #expect(framer.bufferedByteCount == split, "split at \(split)") }
      #expect(framer.feed(header[split...]) == [.message(Self.bytes("{}"))], "split at \(split)")
      #expect(!framer.hasPartialMessage)
    }
  }

  @Test(arguments: [[UInt8(ascii: "x")], Array("Content-Lengt".utf8), Array("cOnTeNt-LeNgTh;\r".utf8)])
  func discardingTenMegabytesOfJunkKeepsOnlyAFewBytes(_ pattern: [UInt8]) {
    var chunk: [UInt8] = []
    while chunk.count < 1 << 16 { chunk += pattern }
    var framer = MessageFramer()
    var events: [MessageFramer.Event] = []
    var mostHeld = 0
    for _ in 0..<(10 << 20) / chunk.count {
      events += framer.feed(chunk)
      mostHeld = max(mostHeld, framer.bufferedByteCount)
    }
    events += framer.feed(Self.requests(1...1))
    #expect(mostHeld < 32)
    #expect(
      events == [.malformedHeader("a header block longer than \(MessageFramer.maximumHeader) bytes")]
        + Self.messages(1...1))
  }

  /// Good and bad streams, each read whole, a byte at a time and in random pieces.
  static let corpus: [(name: String, bytes: [UInt8], maximumBody: Int)] = {
    let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 9_000)
    let nearLimit = [UInt8](repeating: UInt8(ascii: "x"), count: MessageFramer.maximumHeader - 10)
    return [
      ("valid", requests(1...3), MessageFramer.defaultMaximumBody),
      ("LF-only", bytes("Content-Length: 2\n\n{}") + requests(1...2), MessageFramer.defaultMaximumBody),
      (
        "mixed", bytes("Content-Type: x\nContent-Length: 2\r\n\n{}Content-Length: 1\n\r\n1"),
        MessageFramer.defaultMaximumBody
      ),
      (
        "bad length", bytes("Content-Length: -5\r\n\r\n" + request(9)) + requests(1...2),
        MessageFramer.defaultMaximumBody
      ),
      ("no colon", bytes("Foo\r\n\r\n" + request(9)) + requests(1...2), MessageFramer.defaultMaximumBody),
      ("garbage", requests(1...1) + bytes("garbage\r\nmore") + requests(2...3), MessageFramer.defaultMaximumBody),
      ("long line", junk + requests(1...2), MessageFramer.defaultMaximumBody),
      (
        "name across the limit", nearLimit + bytes("Content-Length: 2\r\n\r\n{}") + requests(1...1),
        MessageFramer.defaultMaximumBody
      ),
      (
        "long block", bytes("Content-Length: 2\r\n") + junk + bytes("\r\n\r\n{}") + requests(1...1),
        MessageFramer.defaultMaximumBody
      ),
      (
        "two lengths", bytes("Content-Length: x\r\nContent-Length: 2\r\n\r\n{}") + requests(1...1),
        MessageFramer.defaultMaximumBody
      ),
      (
        "not UTF-8", bytes("Content-Length: 2\r\nX: ") + [0xC3, 0x28] + bytes("\n\n{}") + requests(1...1),
        MessageFramer.defaultMaximumBody
      ),
      ("empty first line", bytes("\r\n") + requests(1...1), MessageFramer.defaultMaximumBody),
      (
        "repeated name", Array(String(repeating: "Content-Length:", count: 700).utf8) + requests(1...1),
        MessageFramer.defaultMaximumBody
      ),
      (
        "many lines", Array(String(repeating: "Content-Length:\n", count: 700).utf8) + requests(1...1),
        MessageFramer.defaultMaximumBody
      ),
      ("oversized", bytes("Content-Length: 300\r\n\r\n") + [UInt8](repeating: 0x20, count: 300) + requests(1...1), 100),
      ("oversized then junk", bytes("Content-Length: 150\r\n\r\n") + junk + requests(1...1), 100),
      ("truncated", requests(1...1) + bytes("Content-Length: 10\r\n\r\n{\"a\""), MessageFramer.defaultMaximumBody),
      ("truncated name", bytes("Foo\n\nContent-Len"), MessageFramer.defaultMaximumBody),
    ]
  }()

  @Test func anySplittingGivesTheSameEvents() {
    var random = SplitMix(seed: 0x6269_6B69)
    for entry in Self.corpus {
      var whole = MessageFramer(maximumBody: entry.maximumBody)
      let expected = whole.feed(entry.bytes)
      var splittings: [[Int]] = [Array(repeating: 1, count: entry.bytes.count)]
      for _ in 0..<20 {
        var sizes: [Int] = []
        var total = 0
        while total < entry.bytes.count {
          // Mostly small pieces, sometimes large ones.
          let size = random.next() % 4 == 0 ? 1 + random.next() % 10_000 : 1 + random.next() % 40
          sizes.append(size)
          total += size
        }
        splittings.append(sizes)
      }
      for sizes in splittings {
        var framer = MessageFramer(maximumBody: entry.maximumBody)
        var events: [MessageFramer.Event] = []
        var offset = 0
        for size in sizes {
          let end = min(entry.bytes.count, offset + size)
          events += framer.feed(entry.bytes[offset..<end])
          offset = end
        }
        #expect(events == expected, "\(entry.name) in \(sizes.count) pieces")
        #expect(framer.hasPartialMessage == whole.hasPartialMessage, "\(entry.name)")
      }
    }
  }

  @Test func theCorpusIsReadAsDocumented() {
    func reasons(_ name: String) -> [MessageFramer.Event] {
      guard let entry = Self.corpus.first(where: { $0.name == name }) else { return [] }
      return Self.feedWhole(entry.bytes, maximumBody: entry.maximumBody).filter {
        if case .message = $0 { false } else { true }
      }
    }
    #expect(reasons("valid") == [])
    #expect(reasons("LF-only") == [])
    #expect(reasons("mixed") == [])
    #expect(
      reasons("long block") == [.malformedHeader("a header block longer than \(MessageFramer.maximumHeader) bytes")])
    #expect(reasons("empty first line") == [.malformedHeader("the header has no Content-Length")])
    #expect(
      reasons("oversized then junk") == [
        .oversized(length: 150), .malformedHeader("a header block longer than \(MessageFramer.maximumHeader) bytes"),
      ])
    // A name straddling the 8 KiB is inside the block that is over the limit and is found again.
    guard let nearLimit = Self.corpus.first(where: { $0.name == "name across the limit" }) else { return }
    #expect(Self.feedWhole(nearLimit.bytes).dropFirst() == [.message(Self.bytes("{}"))] + Self.messages(1...1))
  }
}

/// A small seeded generator, so a failing splitting can be run again.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
  }
}
