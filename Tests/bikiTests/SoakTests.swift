import Foundation
import Testing

/// One `biki serve` driven for a minute with the real clock as an editor drives it: a pack
/// edited at typing speed, a quiz on a JSON topic, a quiz on a plugin that takes 600 ms a
/// question, batches from a plugin that crashes on every tenth seed, malformed frames, cancels,
/// and time limits too short for a first question. Every request must be answered, quick
/// requests never wait for slow ones, diagnostics keep up, memory stays flat, and the server
/// exits cleanly. `BIKI_SOAK_SECONDS` sets the length (60 by default).
@Suite(.serialized) struct SoakTests {
  static let seconds = Double(ProcessInfo.processInfo.environment["BIKI_SOAK_SECONDS"] ?? "") ?? 60

  /// What a request is, and what its answer must be.
  enum Kind {
    case read, jsonQuiz, pluginQuiz, crashyBatch, tinyTimeLimit, cancelledStart
  }

  struct Sent {
    var kind: Kind
    var at: Double
  }

  @Test func aMinuteAsAnEditorUsesItLosesNothing() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libslow.so",
      defines: ["SLOW_MS=600", #"PLUGIN_ID="slow""#])
    _ = try PluginIntegrationTests.pluginDirectory(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libcrashy.so",
      defines: ["CRASH_EVERY_TENTH", #"PLUGIN_ID="crashy""#],
      into: plugins)
    let server = try LiveServer(arguments: ["--plugins", plugins])
    try server.initialize()
    var sent: [Int: Sent] = [:]
    var nextID = 1
    func request(_ kind: Kind, _ method: String, _ params: String) -> Int {
      let id = nextID
      nextID += 1
      sent[id] = Sent(kind: kind, at: server.request(id, method, params))
      return id
    }
    func started(_ id: Int) throws -> String {
      let response = try #require(server.waitForResponse(id, within: 10), "a start was not answered")
      return try #require(response.message.result?["sessionId"] as? String, "\(response.message)")
    }
    let jsonSession = try started(
      request(.jsonQuiz, "biki/startSession", #"{"topicId":"counters.hon","skill":"kana","mode":{"kind":"infinite"}}"#))
    let pluginSession = try started(
      request(.pluginQuiz, "biki/startSession", #"{"topicId":"slow.ok","skill":"kana","mode":{"kind":"infinite"}}"#))

    let uri = "file://" + server.home + "/drafts/mine.json"
    server.notify(
      "textDocument/didOpen",
      #"{"textDocument":{"uri":"\#(uri)","languageId":"json","version":1,"text":\#(RealTimeServeTests.quoted(RealTimeServeTests.pack(typo: true)))}}"#
    )
    var edits: [(version: Int, at: Double)] = []
    var malformed = 0
    var baselineMemory: Int?
    let start = LiveServer.now()
    var step = 0
    while LiveServer.now() - start < Self.seconds {
      step += 1
      // Typing: an edit every 100 ms.
      let version = step + 1
      edits.append(
        (
          version,
          server.notify(
            "textDocument/didChange",
            #"{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"text":\#(RealTimeServeTests.quoted(RealTimeServeTests.pack(typo: step % 3 == 0)))}]}"#
          )
        ))
      if step % 3 == 0 { _ = request(.read, "biki/read", #"{"text":"\#(step % 1000)本"}"#) }
      if step % 5 == 0 {
        _ = request(
          .jsonQuiz, step % 10 == 0 ? "biki/skip" : "biki/answer", #"{"sessionId":"\#(jsonSession)","answer":"いっぽん"}"#)
      }
      if step % 10 == 0 { _ = request(.pluginQuiz, "biki/skip", #"{"sessionId":"\#(pluginSession)"}"#) }
      if step % 15 == 0 {
        _ = request(.crashyBatch, "biki/generate", #"{"topicId":"crashy.ok","seed":\#(step),"count":20}"#)
      }
      if step % 20 == 0 {
        // A frame with LF-only lines, then a line of junk: each costs one error, nothing more.
        server.send(Array("Content-Length: 2\n\n{}".utf8))
        server.send(Array(String(repeating: "x", count: 1000).utf8) + Array("\r\n\r\n".utf8))
        malformed += 2
      }
      if step % 25 == 0 {
        let id = request(.cancelledStart, "biki/startSession", #"{"topicId":"slow.ok","skill":"kana"}"#)
        server.notify("$/cancelRequest", #"{"id":\#(id)}"#)
      }
      if step % 30 == 0 {
        _ = request(
          .tinyTimeLimit, "biki/startSession",
          #"{"topicId":"numbers.beginner","mode":{"kind":"timeLimit","limit":1e-5}}"#)
      }
      if baselineMemory == nil && LiveServer.now() - start > min(10, Self.seconds / 4) {
        baselineMemory = server.residentKiB
      }
      usleep(100_000)
    }
    let finalMemory = server.residentKiB
    // Let the last slow questions arrive, then check every response.
    for (id, _) in sent.sorted(by: { $0.key < $1.key }) {
      #expect(
        server.waitForResponse(id, within: 30) != nil,
        "request \(id) (\(String(describing: sent[id]?.kind))) was never answered")
    }
    // Generous: the server exits at once alone, but the suite runs beside this test.
    #expect(server.finish(within: 60) == 0)
    #expect(server.badOutput == nil, "\(server.badOutput ?? "")")

    let messages = server.messages
    var responses: [Int: LiveServer.Received] = [:]
    for received in messages {
      if let id = received.message["id"] as? Int, received.message["method"] == nil, responses[id] == nil {
        responses[id] = received
      }
    }
    var readLatencies: [Double] = []
    for (id, request) in sent {
      guard let response = responses[id] else { continue }
      switch request.kind {
      case .read:
        #expect(response.message.result?["reading"] != nil, "\(response.message)")
        readLatencies.append(response.at - request.at)
      case .jsonQuiz, .pluginQuiz:
        #expect(response.message.result != nil, "\(response.message)")
      case .crashyBatch:
        // The batch is served with its crashed questions in place, or (all crashed) refused.
        let questions = response.message.result?["questions"] as? [[String: Any]]
        #expect(questions?.count == 20 || response.message.errorCode == -32803, "\(response.message)")
      case .tinyTimeLimit:
        #expect(response.message.result?["sessionId"] != nil, "\(response.message)")
      case .cancelledStart:
        // Cancelled while its question was made, or answered first if it won the race.
        #expect(response.message.errorCode == -32800 || response.message.result != nil, "\(response.message)")
      }
    }
    // Quick requests never waited for the plugin's 600 ms questions, even on a loaded machine
    // (the suite runs beside other tests; the real-time tests hold the strict bounds).
    readLatencies.sort()
    #expect(!readLatencies.isEmpty)
    if let worst = readLatencies.last {
      #expect(worst < 0.45, "biki/read latencies (ms): \(readLatencies.suffix(5).map { Int($0 * 1000) })")
    }
    let nullErrors = messages.filter { $0.message["id"] is NSNull }.count
    #expect(nullErrors == malformed, "\(nullErrors) null-id errors for \(malformed) malformed frames")

    // Diagnostics kept up: after each edit, a check of that text or a newer one came soon.
    let published = messages.compactMap { received -> (version: Int, at: Double)? in
      guard received.message["method"] as? String == "textDocument/publishDiagnostics",
        let version = received.message.params?["version"] as? Int
      else { return nil }
      return (version, received.at)
    }
    var lags: [Double] = []
    for edit in edits {
      guard let caught = published.first(where: { $0.version >= edit.version && $0.at >= edit.at }) else {
        Issue.record("no diagnostics after version \(edit.version)")
        continue
      }
      lags.append(caught.at - edit.at)
    }
    lags.sort()
    let p95 = lags.isEmpty ? 0 : lags[lags.count * 95 / 100]
    // Alone on the machine: p95 about 110 ms. Beside the rest of the suite, the bound is looser;
    // RealTimeServeTests holds the documented 150 ms.
    #expect(p95 <= 0.5, "95th percentile of edit-to-diagnostics \(Int(p95 * 1000)) ms")
    #expect((lags.last ?? 0) <= 2, "slowest edit-to-diagnostics \(Int((lags.last ?? 0) * 1000)) ms")

    print(
      "soak: \(sent.count) requests, \(edits.count) edits; biki/read worst \(Int((readLatencies.last ?? 0) * 1000)) ms; diagnostics p95 \(Int(p95 * 1000)) ms, worst \(Int((lags.last ?? 0) * 1000)) ms; resident \(baselineMemory ?? 0) → \(finalMemory ?? 0) KiB"
    )
    // Memory stays flat: what the first quarter used, give or take.
    if let baselineMemory, let finalMemory {
      #expect(
        finalMemory <= baselineMemory + baselineMemory / 4 + 8192, "resident \(baselineMemory) KiB → \(finalMemory) KiB"
      )
    }
  }
}
