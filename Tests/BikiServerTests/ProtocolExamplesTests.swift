import BikiJSON
import BikiJapanese
import BikiPractice
import BikiProtocol
import BikiTestSupport
import Foundation
import Testing

@testable import BikiServer

/// docs/protocol.md is the schema clients are written from (the Neovim, Emacs and Vim clients,
/// the pytest client). Every JSON example in it names the type it shows (`<!-- wire: Type -->`
/// above it) and must read as that type, and every answer the server gives must read as its
/// method's type and be written back byte for byte, so a renamed or dropped field fails here
/// instead of in a user's editor.
@Suite struct ProtocolExamplesTests {
  /// The ```json blocks of docs/protocol.md with the type named above each, the `…` that stands
  /// for "and so on" taken out. A block without a name is listed with an empty one.
  static let examples: [(type: String, value: JSON?)] = {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/protocol.md").path
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    var blocks: [(String, String)] = []
    var current: [Substring]?
    var type = ""
    var previous: Substring = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```json") {
        current = []
        type = previous.hasPrefix("<!-- wire: ") ? String(previous.dropFirst(11).prefix { $0 != " " }) : ""
      } else if line.hasPrefix("```"), let lines = current {
        blocks.append((type, lines.joined(separator: "\n")))
        current = nil
      } else {
        current?.append(line)
      }
      previous = line
    }
    return blocks.map { type, block in
      let plain = block.replacingOccurrences(of: ", …]", with: "]").replacingOccurrences(of: ", …}", with: "}")
      // The history's example holds one JSON object per line: the first stands for them.
      let first = plain.hasPrefix("{\"event\"") ? String(plain.prefix { $0 != "\n" }) : plain
      return (type, try? JSONParser.value(Array(first.utf8)))
    }
  }()

  /// Each server value's reader, by the name the document gives it. The other names are shapes
  /// that are not the `biki/*` methods' (LSP's own, the history file's).
  static let readers: [String: @Sendable (JSON) throws(WireError) -> Void] = [
    "TopicInfo": { value throws(WireError) in _ = try TopicInfo(wire: value) },
    "OpenQuestion": { value throws(WireError) in _ = try OpenQuestion(wire: value) },
    "RevealedAnswer": { value throws(WireError) in _ = try RevealedAnswer(wire: value) },
    "SessionProgress": { value throws(WireError) in _ = try SessionProgress(wire: value) },
    "SessionSummary": { value throws(WireError) in _ = try SessionSummary(wire: value) },
    "StartSessionResponse": { value throws(WireError) in _ = try StartSessionResponse(wire: value) },
    "AnswerResponse": { value throws(WireError) in _ = try AnswerResponse(wire: value) },
    "GeneratedQuestion": { value throws(WireError) in _ = try GeneratedQuestion(wire: value) },
    "StatsResponse": { value throws(WireError) in _ = try StatsResponse(wire: value) },
    "PacksReport": { value throws(WireError) in _ = try PacksReport(wire: value) },
    "WireDiagnostic": { value throws(WireError) in _ = try WireDiagnostic(wire: value) },
  ]
  static let otherShapes: Set = ["capabilities", "hover", "history"]

  @Test func everyExampleNamesItsTypeParsesAndReadsAsIt() throws {
    #expect(Self.examples.count == 16, "docs/protocol.md has \(Self.examples.count) JSON examples")
    for (type, value) in Self.examples {
      let value = try #require(value, "the \(type) example is not JSON")
      if Self.otherShapes.contains(type) { continue }
      let read = try #require(Self.readers[type], "an example names \"\(type)\", which is no server value")
      #expect(throws: Never.self, "the \(type) example") { try read(value) }
    }
  }

  @Test func aRenamedFieldIsRefusedNamingIt() {
    let example = Self.examples.first { $0.type == "SessionProgress" }?.value
    guard case .object(var members)? = example else {
      Issue.record("no progress example")
      return
    }
    members[0].key = "complete"
    #expect(throws: WireError(path: "completed", problem: "is missing")) {
      _ = try SessionProgress(wire: .object(members))
    }
    members[0].key = "completed"
    members.append(JSON.Member("percent", 50))
    #expect(throws: WireError(path: "percent", problem: "is not a field of this value")) {
      _ = try SessionProgress(wire: .object(members))
    }
  }

  @Test func initializeAnswersAsDocumented() throws {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    let answered = endpoint.receive(.request(id: .number(0), method: "initialize", params: [:]))
    let result = answered.compactMap { if case .result(_, let result) = $0 { result } else { nil } }.first
    #expect(result?.unwrapped["capabilities"] == Self.examples.first { $0.type == "capabilities" }?.value)
  }

  /// Reads `value` as `Value` and writes it back: the bytes must be the server's own, so the
  /// type holds every field the server sent, as it sent it.
  @discardableResult
  static func roundTrip<Value: WireValue & Equatable>(
    _: Value.Type, _ value: JSON, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Value? {
    do {
      let read = try Value(wire: value)
      #expect(read.json.serialized == value.serialized, sourceLocation: sourceLocation)
      #expect(try Value(wire: read.json) == read, sourceLocation: sourceLocation)
      return read
    } catch {
      Issue.record("\(Value.self): \(error)", sourceLocation: sourceLocation)
      return nil
    }
  }

  /// A session from its start to its summary, and every other quiz method: each answer reads
  /// as the type its request declares (`ClientRequest.Response`) and is written back byte for
  /// byte.
  @Test func everyQuizAnswerReadsAsItsTypeAndWritesBackTheSame() throws {
    let clock = ManualClock(at: 100)
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock))
    let topics = endpoint.call("biki/topics", [:])
    let listed = Self.roundTrip(TopicsRequest.Response.self, topics)
    #expect(listed?.topics?.isEmpty == false)
    let unchanged = endpoint.call("biki/topics", ["previousResultId": JSON.string(listed?.resultID ?? "")])
    #expect(Self.roundTrip(TopicListResponse.self, unchanged)?.kind == .unchanged)

    let started = endpoint.call(
      "biki/startSession",
      ["topicId": "test.hon", "skill": "reading", "seed": 9, "mode": ["kind": "questionLimit", "limit": 2]])
    let start = Self.roundTrip(StartSessionRequest.Response.self, started)
    let sessionID = JSON.string(start?.sessionID ?? "")
    clock.advance(2)
    let wrong = endpoint.call("biki/answer", ["sessionId": sessionID, "answer": "100000"])
    #expect(Self.roundTrip(AnswerRequest.Response.self, wrong)?.verdict == .incorrect)
    let kanji = endpoint.call("biki/answer", ["sessionId": sessionID, "answer": "千"])
    #expect(Self.roundTrip(AnswerResponse.self, kanji)?.verdict == .incorrect)
    let skipped = Self.roundTrip(SkipRequest.Response.self, endpoint.call("biki/skip", ["sessionId": sessionID]))
    #expect(skipped?.expected != nil)
    // The next question's prompt in kanji numerals (八本), read as Biki reads them.
    let prompt = try #require(skipped?.step.question?.prompt)
    let value = try #require(KanjiNumeral.parse(prompt.filter { $0 != "本" }))
    let right = endpoint.call("biki/answer", ["sessionId": sessionID, "answer": JSON.string(String(value))])
    let answered = Self.roundTrip(AnswerResponse.self, right)
    #expect(answered?.verdict == .correct)
    #expect(answered?.step.summary?.missed.count == 1)
    #expect(answered?.step.finished == true)

    let other = endpoint.call("biki/startSession", ["topicId": "test.hon", "seed": 3])
    let otherID = JSON.string(Self.roundTrip(StartSessionResponse.self, other)?.sessionID ?? "")
    let ended = endpoint.call("biki/endSession", ["sessionId": otherID])
    #expect(Self.roundTrip(EndSessionRequest.Response.self, ended)?.summary?.endReason == .ended)

    let timed = endpoint.call("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "timeLimit", "limit": 5]])
    let timedID = Self.roundTrip(StartSessionResponse.self, timed)?.sessionID
    clock.advance(6)
    let notified = endpoint.tick(now: clock.now()).notifications("biki/sessionFinished")
    let finished = notified.first.flatMap { Self.roundTrip(SessionFinishedNotification.self, $0) }
    #expect(finished?.sessionID == timedID)
    let late = endpoint.call("biki/skip", ["sessionId": JSON.string(timedID ?? "")])
    #expect(Self.roundTrip(SkipResponse.self, late)?.verdict == .timeUp)

    let generated = endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 4, "count": 3])
    #expect(Self.roundTrip(GenerateRequest.Response.self, generated)?.questions.count == 3)
    Self.roundTrip(ReadRequest.Response.self, endpoint.call("biki/read", ["text": "8本"]))
    let stats = Self.roundTrip(StatsRequest.Response.self, endpoint.call("biki/stats", [:]))
    #expect(stats?.total.answers == 3)
    #expect(stats?.mostMissed.isEmpty == false)
    let reloaded = endpoint.call("biki/reloadPacks", [:])
    #expect(Self.roundTrip(ReloadPacksRequest.Response.self, reloaded)?.topicCount == 1)
  }
}
