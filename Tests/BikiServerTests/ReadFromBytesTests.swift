import BikiJSON
import BikiProtocol
import Testing

@testable import BikiServer

/// A request read straight from the client's bytes (`RequestReader`, `PlainGenerate`, `Params`
/// on the client's text) is answered exactly as the same request read into a tree: results and
/// errors alike, word for word.
@Suite struct ReadFromBytesTests {
  static let bodies: [String] = [
    #"{"topicId":"test.hon","seed":5,"count":3}"#,
    #"{"topicId":"test.hon","seed":"18446744073709551615"}"#,
    #"{"seed":0,"topicId":"test.hon","count":1000,"topicId":"ignored"}"#,
    #"{"topicId":"test.hon","seed":5,"count":1001}"#,
    #"{"topicId":"test.hon","seed":5,"count":0}"#,
    #"{"topicId":"test.hon","seed":-1}"#,
    #"{"topicId":"test.hon","seed":"12x"}"#,
    #"{"topicId":"test.hon","seed":1.0,"count":2e0}"#,
    #"{"topicId":"test.hon","seed":5,"params":{"max":3}}"#,
    #"{"topicId":"test.hon","seed":5,"params":{"max":1.5}}"#,
    #"{"topicId":"test.hon","seed":5,"params":[]}"#,
    #"{"topicId":"test.hno","seed":5}"#,
    #"{"topicId":7,"seed":5}"#,
    #"{"topic\u0049d":"test.hon","seed":5}"#,
    #"{"topicId":"test.hon"}"#,
    #"{"topicId":null,"seed":5}"#,
    #"[]"#,
    #"{}"#,
  ]

  func answer(_ method: String, _ params: String, fromBytes: Bool) -> [JSON] {
    let body = Array(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#.utf8)
    let message = fromBytes ? IncomingMessage.readRequest(body) : IncomingMessage.parseTree(body)
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    _ = endpoint.receive(.request(id: .number(0), method: "initialize", params: ["capabilities": [:]]))
    guard let message else { return [] }
    return endpoint.receive(message).map(\.json)
  }

  @Test(arguments: bodies) func generateIsAnsweredAlikeFromTheBytesAndTheTree(_ params: String) {
    let fromBytes = answer("biki/generate", params, fromBytes: true)
    #expect(!fromBytes.isEmpty)
    #expect(fromBytes == answer("biki/generate", params, fromBytes: false))
  }

  /// One server remembers the topic it served last (`QuizService.recentTopic`): asked again,
  /// one request after another, each body is answered as a fresh server answers it.
  @Test func aTopicAskedForAgainIsAnsweredAsAtFirst() {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    _ = endpoint.receive(.request(id: .number(0), method: "initialize", params: ["capabilities": [:]]))
    for params in Self.bodies + Self.bodies.reversed() {
      let body = Array(#"{"jsonrpc":"2.0","id":1,"method":"biki/generate","params":\#(params)}"#.utf8)
      guard let message = IncomingMessage.readRequest(body) else { continue }
      #expect(endpoint.receive(message).map(\.json) == answer("biki/generate", params, fromBytes: true), "\(params)")
    }
  }

  @Test func otherMethodsReadTheirParamsFromTheBytesAlike() {
    for (method, params) in [
      ("biki/read", #"{"text":"3本と\n5枚","details":true}"#),
      ("biki/read", #"{"text":"3本"}"#),
      ("biki/read", #"{"as":"date","text":"1日","text":"x"}"#),
      ("biki/read", #"{"text":"1日","as":"nope"}"#),
      ("biki/read", #"{"text":"1日","as":null}"#),
      ("biki/read", #"{"text":"ten"}"#),
      ("biki/read", #"{"text":5}"#),
      ("biki/startSession", #"{"topicId":"test.hon","mode":{"kind":"count","limit":3},"skill":"reading"}"#),
      ("biki/startSession", #"{"topicId":"test.hon","mode":{"kind":"count","limit":"3"}}"#),
      ("biki/topics", #"{"previousResultId":"x"}"#),
      ("biki/answer", #"{"sessionId":"none","answer":"ごほん"}"#),
    ] {
      let fromBytes = answer(method, params, fromBytes: true)
      #expect(!fromBytes.isEmpty, "\(method) \(params)")
      #expect(fromBytes == answer(method, params, fromBytes: false), "\(method) \(params)")
    }
  }
}
