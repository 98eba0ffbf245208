import Foundation
import Testing

/// The pack language server as editors meet it, through the real binary.
@Suite struct ServeLanguageTests {
  static let uri = "file:///home/me/packs/mine.json"

  static func didOpen(_ text: String) -> [UInt8] {
    let list = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
    let escaped = String(decoding: list, as: UTF8.self).dropFirst().dropLast()
    return ServeRun.notification(
      "textDocument/didOpen",
      #"{"textDocument":{"uri":"\#(uri)","languageId":"json","version":1,"text":\#(escaped)}}"#)
  }

  /// A completion sent before a change to its document, and still unread when the change
  /// arrives, is answered ContentModified: its answer would be about text that is gone.
  @Test func aRequestOvertakenByAChangeIsContentModified() throws {
    let pack = #"{"$schema": "biki-pack.schema.json", "format": 1, "id": "mine", "topics": []}"#
    var input = ServeRun.initialize + Self.didOpen(pack)
    input += ServeRun.request(
      5, "textDocument/completion", #"{"textDocument":{"uri":"\#(Self.uri)"},"position":{"line":0,"character":2}}"#)
    input += ServeRun.notification(
      "textDocument/didChange",
      #"{"textDocument":{"uri":"\#(Self.uri)","version":2},"contentChanges":[{"text":"{}"}]}"#)
    input += ServeRun.shutdownAndExit
    let run = try ServeRun.run(input)
    #expect(run.errorCode(5) == -32801, "\(run.messages)")
    #expect(run.status == 0)
  }
}
