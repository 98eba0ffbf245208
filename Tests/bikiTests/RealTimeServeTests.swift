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

  @Test func diagnosticsFollowAnOpenAndEveryEditWithinTheDocumentedBound() throws {
    let server = try LiveServer()
    try server.initialize()
    let uri = "file:///tmp/biki-live/mine.json"
    var latencies: [Double] = []
    let opened = server.notify(
      "textDocument/didOpen", #"{"textDocument":{"uri":"\#(uri)","languageId":"json","version":1,"text":\#(Self.quoted(Self.pack(typo: true)))}}"#)
    let first = try #require(server.waitFor(within: 5, Self.isDiagnostics(uri, version: 1)))
    latencies.append(first.at - opened)
    #expect(((first.message.params?["diagnostics"] as? [Any])?.count ?? 0) > 0)
    // Edits with a pause after each, as a person types a word and stops.
    for version in 2...12 {
      let text = Self.pack(typo: version.isMultiple(of: 2))
      let sent = server.notify(
        "textDocument/didChange", #"{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"text":\#(Self.quoted(text))}]}"#)
      let published = try #require(server.waitFor(within: 5, Self.isDiagnostics(uri, version: version)), "no diagnostics for version \(version)")
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
        #"{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"text":\#(Self.quoted(Self.pack(typo: version != 32)))}]}"#)
      usleep(30_000)
    }
    let last = try #require(server.waitFor(within: 5, Self.isDiagnostics(uri, version: 32)))
    latencies.append(last.at - sent)
    #expect((last.message.params?["diagnostics"] as? [Any])?.count == 0)
    #expect(latencies.allSatisfy { $0 <= Self.diagnosticsBound }, "latencies in ms: \(latencies.map { Int($0 * 1000) })")
    #expect(server.finish() == 0)
  }

  @Test(arguments: ["1e-7", "1e-5", "0.001"])
  func timeLimitsTooShortForTheFirstQuestionEndSessionsAndTheServerGoesOn(limit: String) throws {
    let server = try LiveServer()
    try server.initialize()
    for id in 1...20 {
      server.request(id, "biki/startSession", #"{"topicId":"numbers.beginner","mode":{"kind":"timeLimit","limit":\#(limit)}}"#)
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
