import BikiCore
import Foundation
import Testing

/// `biki serve` with the real clock, as an editor meets it: one process, messages sent when a
/// person would send them, and what comes back timed on arrival. docs/protocol.md and
/// docs/reliability.md promise each bound checked here.
@Suite(.serialized) struct RealTimeServeTests {
  /// A small pack (about 600 bytes) with one mistake, as an author has it mid-edit.
  static func pack(typo: Bool) -> String {
    """
    {
      "format": 1, "id": "mine", "title": "Mine", "version": "1.0.0",
      "topics": [{
        "id": "hon", "title": "本", "description": "Long things.", "category": "\(typo ? "countr" : "counter")",
        "skills": ["reading", "kana"],
        "variables": { "n": { "range": { "min": 1, "max": 10 } } },
        "question": { "parts": [{ "number": "n", "counter": "本" }], "answer": { "value": "n", "postfix": "本" } }
      }]
    }
    """
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }

  static func isDiagnostics(_ uri: String, version: Int) -> ([String: Any]) -> Bool {
    { message in
      message["method"] as? String == "textDocument/publishDiagnostics" && message.params?["uri"] as? String == uri
        && message.params?["version"] as? Int == version
    }
  }

  /// The bound docs/protocol.md gives: diagnostics for a pack that checks quickly arrive within
  /// 150 ms of the edit (or the open).
  static let diagnosticsBound = 0.150

  /// `initialize` is answered before the packs and plugins load; a request sent at once waits
  /// for them and is answered from them, never from an empty catalog.
  @Test func aRequestSentRightAfterInitializeIsAnsweredFromTheLoadedPacks() throws {
    let server = try LiveServer()
    try server.initialize()
    server.request(1, "biki/generate", #"{"topicId":"numbers.beginner","seed":1}"#)
    let answered = try #require(server.waitForResponse(1, within: 30))
    #expect(answered.message["result"] != nil, "\(answered.message)")
    #expect(server.finish() == 0)
  }

  @Test func diagnosticsFollowAnOpenAndEveryEditWithinTheDocumentedBound() throws {
    let server = try LiveServer()
    try server.initialize()
    // The bound holds once the packs are loaded; until then a check waits for them.
    try server.waitUntilLoaded()
    let uri = "file://" + server.home + "/drafts/mine.json"
    var latencies: [Double] = []
    let opened = server.notify(
      "textDocument/didOpen",
      #"{"textDocument":{"uri":"\#(uri)","languageId":"json","version":1,"text":\#(Self.quoted(Self.pack(typo: true)))}}"#
    )
    let first = try #require(server.waitFor(within: 5, Self.isDiagnostics(uri, version: 1)))
    latencies.append(first.at - opened)
    #expect(((first.message.params?["diagnostics"] as? [Any])?.count ?? 0) > 0)
    // Edits with a pause after each, as a person types a word and stops.
    for version in 2...12 {
      let text = Self.pack(typo: version.isMultiple(of: 2))
      let sent = server.notify(
        "textDocument/didChange",
        #"{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"text":\#(Self.quoted(text))}]}"#)
      let published = try #require(
        server.waitFor(within: 5, Self.isDiagnostics(uri, version: version)), "no diagnostics for version \(version)")
      latencies.append(published.at - sent)
      let count = (published.message.params?["diagnostics"] as? [Any])?.count ?? -1
      #expect(version.isMultiple(of: 2) ? count > 0 : count == 0)
      usleep(200_000)
    }
    // A burst of typing: only the last text's diagnostics matter, and they come as quickly.
    var sent = 0.0
    for version in 13...32 {
      sent = server.notify(
        "textDocument/didChange",
        #"{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"text":\#(Self.quoted(Self.pack(typo: version != 32)))}]}"#
      )
      usleep(30_000)
    }
    let last = try #require(server.waitFor(within: 5, Self.isDiagnostics(uri, version: 32)))
    latencies.append(last.at - sent)
    #expect((last.message.params?["diagnostics"] as? [Any])?.count == 0)
    #expect(
      latencies.allSatisfy { $0 <= Self.diagnosticsBound }, "latencies in ms: \(latencies.map { Int($0 * 1000) })")
    #expect(server.finish() == 0)
  }

  @Test func aNewFileInTheEmptyUserPackDirectoryIsDiagnosedAsAPack() throws {
    let home = NSTemporaryDirectory() + "biki-live-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home + "/data/biki/packs", withIntermediateDirectories: true)
    let server = try LiveServer(home: home)
    try server.initialize()
    let uri = "file://" + home + "/data/biki/packs/new.json"
    server.notify(
      "textDocument/didOpen", #"{"textDocument":{"uri":"\#(uri)","languageId":"json","version":1,"text":"{}"}}"#)
    let published = try #require(server.waitFor(within: 5, Self.isDiagnostics(uri, version: 1)))
    #expect(((published.message.params?["diagnostics"] as? [Any])?.count ?? 0) > 0, "\(published.message)")
    #expect(server.finish() == 0)
  }

  /// A client sending many requests for a plugin's questions at once (as a tool rendering its
  /// own quiz may): they are made together, each answered with its own seed's questions, the
  /// same as a server asked for them one at a time answers.
  @Test func manyRequestsForAPluginsQuestionsSentAtOnceAreEachAnsweredAsAlone() throws {
    let topic = "prices.tax-included"
    let together = try LiveServer()
    try together.initialize()
    var burst: [UInt8] = []
    for id in 1...300 {
      burst += ServeRun.request(
        id, "biki/generate", #"{"topicId":"\#(topic)","seed":\#(id * 7),"count":\#(id % 3 + 1)}"#)
    }
    together.send(burst)
    var answers: [Int: [[String: Any]]] = [:]
    for id in 1...300 {
      let answer = try #require(together.waitForResponse(id, within: 60), "request \(id) was not answered")
      let questions = try #require(answer.message.result?["questions"] as? [[String: Any]], "\(answer.message)")
      #expect(questions.count == id % 3 + 1)
      answers[id] = questions
    }
    #expect(together.finish() == 0)
    let alone = try LiveServer()
    try alone.initialize()
    for id in stride(from: 1, through: 300, by: 37) {
      alone.request(id, "biki/generate", #"{"topicId":"\#(topic)","seed":\#(id * 7),"count":\#(id % 3 + 1)}"#)
      let answer = try #require(alone.waitForResponse(id, within: 30))
      let questions = try #require(answer.message.result?["questions"] as? [[String: Any]])
      #expect(
        questions.map { NSDictionary(dictionary: $0) } == answers[id]?.map { NSDictionary(dictionary: $0) },
        "seed \(id * 7)")
    }
    #expect(alone.finish() == 0)
  }

  /// A plugin taking 800 ms per question, in a directory of its own.
  static func slowPlugin() throws -> String {
    try PluginIntegrationTests.pluginDirectory(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libslow.so", defines: ["SLOW_MS=800"])
  }

  @Test func aSlowPluginsQuestionDelaysNoOtherRequestAndItsStartCanBeCancelled() throws {
    let server = try LiveServer(arguments: ["--plugins", try Self.slowPlugin()])
    try server.initialize()
    try server.waitUntilLoaded()
    // The first start also loads the plugin's worker; the second is a question's wait alone.
    for round in 0..<2 {
      let start = 10 * round + 1
      // Seeds whose first questions differ: a question asked before is kept, and served at once.
      let started = server.request(
        start, "biki/startSession",
        #"{"topicId":"misbehaving.ok","skill":"kana","mode":{"kind":"infinite"},"seed":\#(start)}"#)
      server.request(start + 1, "biki/read", #"{"text":"8本"}"#)
      let read = try #require(server.waitForResponse(start + 1, within: 10))
      #expect(read.message.result?["reading"] as? String == "はっぽん")
      #expect(read.at - started < 0.2, "biki/read waited \(Int((read.at - started) * 1000)) ms behind the slow start")
      let session = try #require(server.waitForResponse(start, within: 10))
      // A plugin this slow has nothing made ahead: the start waits for its question.
      #expect(session.at - started >= 0.8, "the start cannot be answered before its question is made")
      #expect(session.message.result?["question"] != nil, "\(session.message)")
    }
    // A start cancelled while its question is made is answered -32800 at once.
    let sent = server.request(30, "biki/startSession", #"{"topicId":"misbehaving.ok","skill":"kana","seed":30}"#)
    server.notify("$/cancelRequest", #"{"id":30}"#)
    let cancelled = try #require(server.waitForResponse(30, within: 10))
    #expect(cancelled.message.errorCode == -32800, "\(cancelled.message)")
    #expect(cancelled.at - sent < 0.2, "the cancel took \(Int((cancelled.at - sent) * 1000)) ms")
    #expect(server.finish() == 0)
  }

  @Test func aTimeLimitShorterThanAPluginsFirstQuestionEndsTheStartWhenTheTimeIsUp() throws {
    let server = try LiveServer(arguments: ["--plugins", try Self.slowPlugin()])
    try server.initialize()
    try server.waitUntilLoaded()
    // Loads the plugin's worker, so the next start waits for a question only. Two questions,
    // not one: a single one has the questions of the seeds after it made ahead, and the start
    // would find its question made.
    server.request(1, "biki/generate", #"{"topicId":"misbehaving.ok","seed":1,"count":2}"#)
    _ = try #require(server.waitForResponse(1, within: 10))
    var warm = QuestionOrder(count: 30, seed: 1)
    let made = [warm.next(), warm.next()]
    let seed = try #require((2...100).first { !made.contains(QuestionOrder(count: 30, seed: UInt64($0)).upcoming) })
    let sent = server.request(
      2, "biki/startSession",
      #"{"topicId":"misbehaving.ok","skill":"kana","seed":\#(seed),"mode":{"kind":"timeLimit","limit":0.3}}"#)
    let ended = try #require(server.waitForResponse(2, within: 10))
    let result = try #require(ended.message.result, "\(ended.message)")
    #expect(result["finished"] as? Bool == true)
    #expect((result["summary"] as? [String: Any])?["endReason"] as? String == "timeUp")
    #expect(result["question"] == nil)
    // Answered when the time was up, not when the plugin finished its question.
    #expect(ended.at - sent >= 0.3 && ended.at - sent < 0.7, "answered after \(Int((ended.at - sent) * 1000)) ms")
    server.request(3, "biki/read", #"{"text":"3本"}"#)
    #expect(server.waitForResponse(3, within: 10)?.message.result?["reading"] as? String == "さんぼん")
    #expect(server.finish() == 0)
  }

  @Test(arguments: ["1e-7", "1e-5", "0.001"])
  func timeLimitsTooShortForTheFirstQuestionEndSessionsAndTheServerGoesOn(limit: String) throws {
    let server = try LiveServer()
    try server.initialize()
    for id in 1...20 {
      server.request(
        id, "biki/startSession", #"{"topicId":"numbers.beginner","mode":{"kind":"timeLimit","limit":\#(limit)}}"#)
    }
    server.request(21, "biki/read", #"{"text":"8本"}"#)
    for id in 1...20 {
      let response = try #require(server.waitForResponse(id, within: 10), "startSession \(id) was not answered")
      let result = try #require(response.message.result, "\(response.message)")
      // A session either got its question in time or ended at once with its summary.
      if result["finished"] as? Bool == true {
        #expect((result["summary"] as? [String: Any])?["endReason"] as? String == "timeUp")
        #expect(result["question"] == nil)
      } else {
        #expect(result["question"] != nil)
      }
    }
    #expect(server.waitForResponse(21, within: 10)?.message.result?["reading"] as? String == "はっぽん")
    #expect(server.finish() == 0)
  }
}
