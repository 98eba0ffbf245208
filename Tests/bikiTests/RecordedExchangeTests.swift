import Foundation
import Testing

/// Tests/clients/exchange.json is a quiz as the real `biki serve` answers it: the topic list
/// (its first three topics), the questions of a seed, a session with a wrong answer, a skip and
/// a right answer, a session ended early, and a reading. The editor clients' tests replay it
/// (Tests/clients/replay_server.py stands in for the server), so what they read is what the
/// server sends. This test holds the recording to the server: a field renamed, added or dropped
/// fails here, and recording again (below) makes the clients' replay tests meet the change.
///
///     BIKI_RECORD_EXCHANGE=1 swift test --filter RecordedExchange
@Suite struct RecordedExchangeTests {
  static let file = BikiPackTests.repository.appendingPathComponent("Tests/clients/exchange.json")

  /// Fields whose values depend on the clock, and the list whose content follows the built-in
  /// packs: their shape is held to the recording, their values are not.
  static let volatile: Set = ["elapsedSeconds", "totalSeconds", "averageSeconds", "secondsPerQuestion", "resultId"]
  static let topicsKept = 3

  /// The requests of the recording, made anew: the right answer is the second question's,
  /// which `biki/generate` gives for the session's seed.
  static func script(answer: String) -> [(method: String, params: [String: Any])] {
    let mode: [String: Any] = ["kind": "questionLimit", "limit": 2]
    return [
      ("biki/topics", [:]),
      ("biki/generate", ["topicId": "counters.hon", "seed": 7, "count": 2]),
      ("biki/startSession", ["topicId": "counters.hon", "skill": "reading", "seed": 7, "mode": mode]),
      ("biki/answer", ["sessionId": "s1", "answer": "0"]),
      ("biki/skip", ["sessionId": "s1"]),
      ("biki/answer", ["sessionId": "s1", "answer": answer]),
      ("biki/startSession", ["topicId": "counters.hon", "skill": "reading", "seed": 8, "mode": mode]),
      ("biki/endSession", ["sessionId": "s2"]),
      ("biki/read", ["text": "8本"]),
    ]
  }

  static func serve(_ requests: [(method: String, params: [String: Any])]) throws -> [Any] {
    var input = ServeRun.initialize
    for (index, request) in requests.enumerated() {
      let params = try JSONSerialization.data(withJSONObject: request.params)
      input += ServeRun.request(index + 1, request.method, String(decoding: params, as: UTF8.self))
    }
    input += ServeRun.shutdownAndExit
    let run = try ServeRun.run(input)
    return try requests.indices.map { index in
      let response = try #require(run.response(index + 1), "no answer to \(requests[index].method)")
      return try #require(response["result"], "\(requests[index].method) failed: \(response)")
    }
  }

  /// The topic list cut to its first topics, as it is recorded.
  static func trimmed(_ result: Any, method: String) -> Any {
    guard method == "biki/topics", var list = result as? [String: Any], let topics = list["topics"] as? [Any]
    else { return result }
    list["topics"] = Array(topics.prefix(topicsKept))
    return list
  }

  /// `value` with the checkout's own directory in its strings (a topic's `source`) written as
  /// `<repository>`, so the recording holds wherever the repository is cloned.
  static func relocated(_ value: Any) -> Any {
    let root = BikiPackTests.repository.path
    switch value {
    case let object as [String: Any]: return object.mapValues(relocated)
    case let array as [Any]: return array.map(relocated)
    case let text as String: return text.replacingOccurrences(of: root, with: "<repository>")
    default: return value
    }
  }

  /// `value` with every volatile field's value replaced by its kind, so two runs compare equal
  /// exactly when they agree on everything else.
  static func normalized(_ value: Any) -> Any {
    switch value {
    case let object as [String: Any]:
      var normal: [String: Any] = [:]
      for (key, member) in object {
        normal[key] = volatile.contains(key) ? "<\(member is [Any] ? "list" : "value")>" : normalized(member)
      }
      return normal
    case let array as [Any]: return array.map(normalized)
    default: return value
    }
  }

  static func text(_ value: Any) throws -> String {
    String(
      decoding: try JSONSerialization.data(
        withJSONObject: value, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]), as: UTF8.self)
  }

  @Test func theRecordingIsWhatTheServerSays() throws {
    if ProcessInfo.processInfo.environment["BIKI_RECORD_EXCHANGE"] == "1" { try Self.record() }
    let recorded = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: Any])
    let exchange = try #require(recorded["exchange"] as? [[String: Any]])
    let requests = try exchange.map { step in
      (method: try #require(step["method"] as? String), params: try #require(step["params"] as? [String: Any]))
    }
    let answers = try Self.serve(requests)
    for (step, answer) in zip(exchange, answers) {
      let method = step["method"] as? String ?? ""
      let now = try Self.text(Self.normalized(Self.relocated(Self.trimmed(answer, method: method))))
      let then = try Self.text(Self.normalized(step["result"] ?? NSNull()))
      #expect(
        now == then,
        """
        \(method) no longer answers as Tests/clients/exchange.json recorded it. If the change is \
        meant, record it again (BIKI_RECORD_EXCHANGE=1 swift test --filter RecordedExchange) and \
        make the editor clients meet it (their replay tests will say where).
        """)
    }
  }

  /// Records the exchange anew from the built `biki`.
  static func record() throws {
    let questions = try serve([("biki/generate", ["topicId": "counters.hon", "seed": 7, "count": 2])])
    let second = try #require(((questions.first as? [String: Any])?["questions"] as? [[String: Any]])?.last)
    let answer = try #require(second["answerDisplay"] as? String)
    let requests = script(answer: answer)
    let answers = try serve(requests)
    let exchange = zip(requests, answers).map { request, answer -> [String: Any] in
      [
        "method": request.method, "params": request.params,
        "result": relocated(trimmed(answer, method: request.method)),
      ]
    }
    let recording: [String: Any] = [
      "about":
        "biki serve's answers, recorded by Tests/bikiTests/RecordedExchangeTests.swift and replayed to the editor clients by Tests/clients/replay_server.py",
      "exchange": exchange,
    ]
    try Data((try text(recording) + "\n").utf8).write(to: file)
  }
}
