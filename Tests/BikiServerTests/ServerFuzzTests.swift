import BikiCore
import BikiJSON
import BikiProtocol
import BikiTestSupport
import Testing

@testable import BikiServer

/// Nothing a client sends may crash the server or leave a request unanswered: valid messages
/// mutated byte by byte, and params of every wrong shape, fed through the parser and endpoint.
@Suite struct ServerFuzzTests {
  static let seeds: [String] = [
    #"{"jsonrpc":"2.0","id":1,"method":"biki/startSession","params":{"topicId":"test.hon","skill":"kana","seed":"18446744073709551615","mode":{"kind":"timeLimit","limit":0.5}}}"#,
    #"{"jsonrpc":"2.0","id":2,"method":"biki/answer","params":{"sessionId":"s1","answer":"はっぽん"}}"#,
    #"{"jsonrpc":"2.0","id":3,"method":"biki/skip","params":{"sessionId":"s1"}}"#,
    #"{"jsonrpc":"2.0","id":4,"method":"biki/endSession","params":{"sessionId":"s1"}}"#,
    #"{"jsonrpc":"2.0","id":5,"method":"biki/generate","params":{"topicId":"test.hon","seed":7,"count":3,"params":{"max":50}}}"#,
    #"{"jsonrpc":"2.0","id":6,"method":"biki/read","params":{"text":"令和元年5月1日","as":"date"}}"#,
    #"{"jsonrpc":"2.0","id":7,"method":"biki/stats","params":{"topicId":"test.hon"}}"#,
    #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///p/a.json","version":1,"text":"{\"format\":1}"}}}"#,
    #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///p/a.json","version":2},"contentChanges":[{"text":"{"}]}}"#,
    #"{"jsonrpc":"2.0","id":"x","method":"biki/topics"}"#,
  ]

  static let replacements: [[UInt8]] = [
    "", "null", "[]", "{}", "-1", "1e400", "\"\"", "true", "\"\\u0000\"", "\u{FF}", "9223372036854775808",
  ]
  .map { Array($0.utf8) }

  @Test func mutatedMessagesAreAlwaysAnswered() {
    let clock = ManualClock(at: 100)
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock))
    var random = SeededRandom(seed: 2026)
    for round in 0..<20_000 {
      var bytes = Array(Self.seeds[Int(random.next() % UInt64(Self.seeds.count))].utf8)
      for _ in 0..<(1 + random.next() % 3) {
        let at = Int(random.next() % UInt64(bytes.count))
        let length = min(Int(random.next() % 12), bytes.count - at)
        switch random.next() % 3 {
        case 0:
          bytes.replaceSubrange(
            at..<(at + length), with: Self.replacements[Int(random.next() % UInt64(Self.replacements.count))])
        case 1: bytes.removeSubrange(at..<(at + length))
        default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
        }
        if bytes.isEmpty { bytes = [0x7B] }
      }
      let message = IncomingMessage.parse(bytes)
      let replies = endpoint.receive(message)
      if case .request(let id, _, _) = message {
        let answers = replies.filter {
          switch $0 {
          case .result(let replyID, _), .error(let replyID, _): replyID == id
          case .notification, .request: false
          }
        }
        #expect(answers.count == 1, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
      }
      if round % 97 == 0 {
        clock.advance(0.2)
        _ = endpoint.tick(now: clock.now())
      }
    }
    // Still serving.
    #expect(endpoint.call("biki/read", ["text": "8本"])["reading"] == "はっぽん")
  }
}
