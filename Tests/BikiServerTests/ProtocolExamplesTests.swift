import BikiJSON
import BikiProtocol
import Foundation
import Testing

@testable import BikiServer

/// docs/protocol.md is the schema clients are written from (the Neovim, Emacs and Vim clients,
/// the pytest client): every JSON example in it must parse, and each object the server sends
/// must have exactly the fields its example shows, so a renamed or dropped field fails here
/// instead of in a user's editor.
@Suite struct ProtocolExamplesTests {
  /// The ```json blocks of docs/protocol.md, in order, with the `…` that stands for "and so
  /// on" taken out.
  static let examples: [JSON] = {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/protocol.md").path
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```json") {
        current = []
      } else if line.hasPrefix("```"), let lines = current {
        blocks.append(lines.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks.compactMap { block in
      let plain = block.replacingOccurrences(of: ", …]", with: "]").replacingOccurrences(of: ", …}", with: "}")
        .replacingOccurrences(of: "{…}", with: "{}")
      // The history's example holds one JSON object per line: the first stands for them.
      let first = plain.hasPrefix("{\"event\"") ? String(plain.prefix { $0 != "\n" }) : plain
      return try? JSONParser.value(Array(first.utf8))
    }
  }()

  static func keys(_ value: JSON?) -> [String] {
    guard case .object(let members)? = value?.unwrapped else { return [] }
    return members.map(\.key).sorted()
  }

  @Test func everyExampleParses() {
    #expect(Self.examples.count == 12, "\(Self.examples.count) of 12 examples parse")
  }

  /// The example whose keys include all of `fields`: found by what it is, not by its place.
  static func example(with fields: [String]) -> JSON? {
    examples.first { Set(keys($0)).isSuperset(of: fields) }
  }

  @Test func initializeAnswersAsDocumented() throws {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    let answered = endpoint.receive(.request(id: .number(0), method: "initialize", params: [:]))
    let result = answered.compactMap { if case .result(_, let result) = $0 { result } else { nil } }.first
    #expect(result?.unwrapped["capabilities"] == Self.example(with: ["positionEncoding", "hoverProvider"]))
  }

  /// A session from its start to its summary, and `biki/generate`, `biki/topics` and
  /// `biki/stats`: every object has the fields of its example.
  @Test func quizObjectsHaveTheFieldsOfTheirExamples() throws {
    var endpoint = ServerFixtures.endpoint()
    let topic = endpoint.call("biki/topics", [:])["topics"]?.arrayValue?.first
    #expect(Self.keys(topic) == Self.keys(Self.example(with: ["id", "title", "parameters", "source"])))

    let started = endpoint.call(
      "biki/startSession",
      ["topicId": "test.hon", "skill": "reading", "seed": 9, "mode": ["kind": "questionLimit", "limit": 1]])
    #expect(Self.keys(started["question"]) == Self.keys(Self.example(with: ["number", "prompt", "postfix"])))
    #expect(Self.keys(started["progress"]) == Self.keys(Self.example(with: ["completed", "elapsedSeconds"])))
    let wrong = endpoint.call("biki/answer", ["sessionId": started["sessionId"] ?? .null, "answer": "100000"])
    #expect(wrong["verdict"] == "incorrect")
    let skipped = endpoint.call("biki/skip", ["sessionId": started["sessionId"] ?? .null])
    #expect(Self.keys(skipped["expected"]) == Self.keys(Self.example(with: ["answer", "kanji", "readings"])))
    let summary = skipped["summary"]
    let documented = Self.example(with: ["endReason", "missed"])
    #expect(Self.keys(summary) == Self.keys(documented))
    #expect(
      Self.keys(summary?["missed"]?.arrayValue?.first) == Self.keys(documented?["missed"]?.arrayValue?.first))

    let generated = endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 4])["questions"]?.arrayValue?.first
    #expect(Self.keys(generated) == Self.keys(Self.example(with: ["answerDisplay", "speech"])))

    let stats = endpoint.call("biki/stats", [:])
    let statsExample = Self.example(with: ["total", "mostMissed"])
    #expect(Self.keys(stats) == Self.keys(statsExample))
    #expect(Self.keys(stats["total"]) == Self.keys(statsExample?["total"]))
    #expect(
      Self.keys(stats["mostMissed"]?.arrayValue?.first) == Self.keys(statsExample?["mostMissed"]?.arrayValue?.first))
    if let form = stats["forms"]?.arrayValue?.first {
      #expect(Self.keys(form) == Self.keys(statsExample?["forms"]?.arrayValue?.first))
    }
  }
}
