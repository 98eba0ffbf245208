import BikiJSON
import BikiJapanese
import BikiProtocol
import BikiTestSupport
import Testing

@testable import BikiServer

/// Every request and notification decodes what it encodes, through the text a client sends,
/// and refuses malformed params with the message clients have always been given.
@Suite struct RequestRoundTripTests {
  /// The message as written, parsed back (numbers lose their Swift types on the way) and decoded.
  func roundTrip<Message: ClientMessage>(_ message: Message, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try Message(Params(message.params)) == message, sourceLocation: sourceLocation)
    let sent = try JSONParser.value(message.params.bytes)
    #expect(try Message(Params(sent)) == message, sourceLocation: sourceLocation)
  }

  func refused<Message: ClientMessage>(
    _: Message.Type, _ params: JSON?, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(throws: ResponseError.invalidParams(message), sourceLocation: sourceLocation) {
      try Message(Params(params))
    }
  }

  static let uri = "file:///packs/test.json"

  @Test func everyMethodReachesItsHandler() {
    let requests: [any ClientMessage.Type] = [
      TopicsRequest.self, StartSessionRequest.self, AnswerRequest.self, SkipRequest.self, EndSessionRequest.self,
      GenerateRequest.self,
      ReadRequest.self, StatsRequest.self, ReloadPacksRequest.self, HoverRequest.self, CodeActionRequest.self,
      DocumentSymbolRequest.self,
      DefinitionRequest.self, CompletionRequest.self, FormattingRequest.self, PrepareRenameRequest.self,
      RenameRequest.self,
      InlayHintRequest.self, CodeLensRequest.self, ExecuteCommandRequest.self, DocumentDiagnosticRequest.self,
      WorkspaceDiagnosticRequest.self,
    ]
    let notifications: [any ClientMessage.Type] = [
      DidOpenNotification.self, DidChangeNotification.self, DidCloseNotification.self,
    ]
    #expect(Set(Dispatcher.requests.keys) == Set(requests.map { $0.method }))
    #expect(Dispatcher.requests.count == requests.count)
    #expect(Set(Dispatcher.notifications.keys) == Set(notifications.map { $0.method }))
  }

  // MARK: Sessions

  @Test func topics() throws {
    try roundTrip(TopicsRequest())
    try roundTrip(TopicsRequest(previousResultID: "00ab12cd34ef5678"))
    refused(TopicsRequest.self, ["previousResultId": 7], "\"previousResultId\" must be a string, not a number")
  }

  @Test func startSession() throws {
    try roundTrip(StartSessionRequest(kind: .topic("test.hon", .questionLimit(10))))
    try roundTrip(
      StartSessionRequest(
        kind: .topic("test.hon", .infinite), skill: .kana, parameters: ["max": 50, "min": 2], seed: .max))
    try roundTrip(StartSessionRequest(kind: .topic("test.hon", .timeLimit(seconds: 90.5)), seed: 0))
    try roundTrip(StartSessionRequest(kind: .topic("test.hon", .timeLimit(seconds: 30))))
    try roundTrip(StartSessionRequest(kind: .review(topicID: nil, count: 20)))
    try roundTrip(StartSessionRequest(kind: .review(topicID: "test.hon", count: 5), skill: .listening))
    // With no mode, ten questions.
    #expect(try StartSessionRequest(Params(["topicId": "test.hon"])).kind == .topic("test.hon", .questionLimit(10)))
    refused(
      StartSessionRequest.self, ["topicId": "test.hon", "seed": -1],
      "\"seed\" must be a whole number from 0 to 18446744073709551615 (2^64−1), not -1")
    refused(
      StartSessionRequest.self, ["topicId": "test.hon", "mode": ["limit": 5]], "missing required field \"mode.kind\"")
    // The seed is read first.
    refused(
      StartSessionRequest.self, ["seed": "x"],
      "\"seed\" must be a whole number from 0 to 18446744073709551615 (2^64−1), not \"x\"")
  }

  @Test func answer() throws {
    try roundTrip(AnswerRequest(sessionID: "s1", answer: "はっぽん"))
    try roundTrip(AnswerRequest(sessionID: "s2", answer: ""))
    #expect(try AnswerRequest(Params(["sessionId": "s1", "answer": 8])) == AnswerRequest(sessionID: "s1", answer: "8"))
    refused(AnswerRequest.self, ["answer": "8"], "missing required field \"sessionId\"")
    refused(AnswerRequest.self, "s1", "params must be an object, not a string")
    // The answer's own problems are kept for when the session takes it.
    #expect(
      try AnswerRequest(Params(["sessionId": "s1"])).answer
        == .failure(.invalidParams("missing required field \"answer\"")))
    #expect(
      try AnswerRequest(Params(["sessionId": "s1", "answer": true])).answer
        == .failure(.invalidParams("\"answer\" must be a string, not a boolean")))
    let long = JSON.string(String(repeating: "あ", count: 342))
    #expect(
      try AnswerRequest(Params(["sessionId": "s1", "answer": long])).answer
        == .failure(.invalidParams("\"answer\" is longer than 1024 bytes")))
  }

  /// As before there were request types: a malformed answer to a session whose time ran out is
  /// told `timeUp`, not that the answer is malformed.
  @Test func aMalformedAnswerAfterTheTimeRanOutIsStillTimeUp() {
    let clock = ManualClock(at: 100)
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock))
    _ = endpoint.call("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "timeLimit", "limit": 5]])
    clock.advance(6)
    _ = endpoint.tick(now: clock.now())
    #expect(endpoint.call("biki/answer", ["sessionId": "s1", "answer": true])["verdict"] == "timeUp")
  }

  @Test func skipAndEndSession() throws {
    try roundTrip(SkipRequest(sessionID: "s1"))
    try roundTrip(EndSessionRequest(sessionID: "s12"))
    refused(SkipRequest.self, ["sessionId": 1], "\"sessionId\" must be a string, not a number")
    refused(EndSessionRequest.self, nil, "missing required field \"sessionId\"")
  }

  @Test func generate() throws {
    try roundTrip(GenerateRequest(topicID: "test.hon", seed: 42))
    try roundTrip(GenerateRequest(topicID: "test.hon", parameters: ["max": 9], seed: .max, count: 1000))
    #expect(try GenerateRequest(Params(["topicId": "test.hon", "seed": 3])).count == 1)
    refused(GenerateRequest.self, ["topicId": "test.hon"], "missing required field \"seed\"")
    refused(
      GenerateRequest.self, ["topicId": "test.hon", "seed": 1, "count": 0], "\"count\" must be from 1 to 1000, not 0")
    refused(
      GenerateRequest.self, ["topicId": "test.hon", "params": ["max": "nine"], "seed": 1],
      "\"params.max\" must be a whole number, not a string")
  }

  /// The catalog's judgement sits between the fields: an unknown topic is told before any other
  /// problem, and parameters a pack's topic refuses before `seed`.
  @Test func generateJudgesTheTopicAndItsParametersInTheirPlaces() {
    let unknown = ResponseError.invalidParams("no such topic")
    let refusedParameters = ResponseError.invalidParams("no such parameter")
    #expect(throws: unknown) {
      try GenerateRequest.decode(
        Params(["topicId": "x", "params": 5]), plain: nil, lookUp: { _ throws(ResponseError) in throw unknown },
        judge: { _, _ in })
    }
    #expect(throws: refusedParameters) {
      try GenerateRequest.decode(
        Params(["topicId": "x", "count": 0]), plain: nil, lookUp: { _ in },
        judge: { _, _ throws(ResponseError) in throw refusedParameters })
    }
    var endpoint = ServerFixtures.endpoint()
    #expect(
      endpoint.failure("biki/generate", ["topicId": "test.nope", "seed": "x"])?.message.hasPrefix(
        "\"topicId\": no topic \"test.nope\"") == true)
    #expect(
      endpoint.failure("biki/generate", ["topicId": "test.hon", "params": ["max": 1]])?.message.hasPrefix(
        "\"params\": ") == true)
  }

  @Test func read() throws {
    try roundTrip(ReadRequest(text: "8本"))
    try roundTrip(ReadRequest(text: "5日", kind: .date))
    let kinds = PhraseKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    refused(ReadRequest.self, ["text": "5本", "as": "weight"], "\"as\" must be one of \(kinds), not \"weight\"")
    refused(ReadRequest.self, ["as": "date"], "missing required field \"text\"")
  }

  @Test func statsAndReload() throws {
    try roundTrip(StatsRequest())
    try roundTrip(StatsRequest(topicID: "test.hon"))
    refused(StatsRequest.self, ["topicId": ["test.hon"]], "\"topicId\" must be a string, not an array")
    try roundTrip(ReloadPacksRequest())
    // Its params were never read, so none are refused.
    #expect(try ReloadPacksRequest(Params("nonsense")) == ReloadPacksRequest())
  }

  // MARK: Pack documents

  @Test func hover() throws {
    try roundTrip(HoverRequest(uri: Self.uri, position: Position(line: 3, character: 14)))
    refused(
      HoverRequest.self, ["textDocument": ["uri": .string(Self.uri)], "position": ["line": -1, "character": 0]],
      "\"position.line\" must be from 0 to 2147483647, not -1")
  }

  @Test func codeAction() throws {
    try roundTrip(
      CodeActionRequest(uri: Self.uri, start: Position(line: 0, character: 0), end: Position(line: 2, character: 7)))
    refused(
      CodeActionRequest.self,
      ["textDocument": ["uri": .string(Self.uri)], "range": ["start": ["line": 0, "character": 0]]],
      "missing required field \"range.end\"")
    // The range is read before the document.
    refused(CodeActionRequest.self, [:], "missing required field \"range\"")
  }

  @Test func documentSymbol() throws {
    try roundTrip(DocumentSymbolRequest(uri: Self.uri))
    refused(DocumentSymbolRequest.self, ["textDocument": [:]], "missing required field \"textDocument.uri\"")
  }

  @Test func definition() throws {
    try roundTrip(DefinitionRequest(uri: Self.uri, position: Position(line: 12, character: 0)))
    // The position is read before the document.
    refused(DefinitionRequest.self, [:], "missing required field \"position\"")
    refused(
      DefinitionRequest.self, ["position": ["line": 1, "character": .double(1.5)]],
      "\"position.character\" must be a whole number from 0 to 2147483647, not 1.5")
  }

  @Test func completion() throws {
    try roundTrip(CompletionRequest(uri: Self.uri, position: Position(line: 4, character: 20)))
    refused(CompletionRequest.self, [:], "missing required field \"textDocument\"")
    refused(CompletionRequest.self, ["textDocument": ["uri": .string(Self.uri)]], "missing required field \"position\"")
  }

  @Test func formattingAndRenaming() throws {
    try roundTrip(FormattingRequest(uri: Self.uri))
    refused(FormattingRequest.self, [:], "missing required field \"textDocument\"")
    try roundTrip(PrepareRenameRequest(uri: Self.uri, position: Position(line: 3, character: 9)))
    try roundTrip(RenameRequest(uri: Self.uri, position: Position(line: 3, character: 9), newName: "plates"))
    refused(
      RenameRequest.self, ["textDocument": ["uri": .string(Self.uri)], "position": ["line": 1, "character": 1]],
      "missing required field \"newName\"")
  }

  @Test func inlayHint() throws {
    try roundTrip(
      InlayHintRequest(uri: Self.uri, start: Position(line: 0, character: 0), end: Position(line: 40, character: 3)))
    refused(InlayHintRequest.self, ["textDocument": ["uri": .string(Self.uri)]], "missing required field \"range\"")
  }

  @Test func codeLensAndCommands() throws {
    try roundTrip(CodeLensRequest(uri: Self.uri))
    try roundTrip(ExecuteCommandRequest(command: "biki.sample", uri: Self.uri, topicID: "mine.hon"))
    refused(
      ExecuteCommandRequest.self, ["command": "biki.quizz", "arguments": []],
      "\"command\": no command \"biki.quizz\"; the server offers \"biki.sample\"")
    refused(
      ExecuteCommandRequest.self, ["command": "biki.sample", "arguments": [.string(Self.uri)]],
      "\"arguments\" must be [document URI, topic id] for \"biki.sample\"")
  }

  @Test func documentNotifications() throws {
    try roundTrip(DidOpenNotification(uri: Self.uri, text: "{}"))
    try roundTrip(DidOpenNotification(uri: Self.uri, text: "{ \"format\": 1 }", version: 3))
    // A version that is not a whole number is dropped, not the document.
    #expect(
      try DidOpenNotification(Params(["textDocument": ["uri": .string(Self.uri), "text": "", "version": "3"]])).version
        == nil)
    refused(
      DidOpenNotification.self, ["textDocument": ["uri": .string(Self.uri)]],
      "missing required field \"textDocument.text\"")

    let edit = IncrementalChange(
      range: ["start": ["line": 0, "character": 1], "end": ["line": 0, "character": 1]], text: "x")
    try roundTrip(DidChangeNotification(uri: Self.uri, changes: [.whole("{}")]))
    try roundTrip(
      DidChangeNotification(
        uri: Self.uri, version: 9, changes: try [.edit(#require(edit)), .missingText, .invalidRange]))
    try roundTrip(DidChangeNotification(uri: Self.uri, changes: []))
    let odd = try DidChangeNotification(
      Params(["textDocument": ["uri": .string(Self.uri)], "contentChanges": [5, ["text": "a", "range": "all"]]]))
    #expect(odd.changes == [.missingText, .invalidRange])
    refused(
      DidChangeNotification.self, ["textDocument": ["uri": .string(Self.uri)]],
      "\"contentChanges\" must be an array of changes")

    try roundTrip(DidCloseNotification(uri: Self.uri))
    refused(DidCloseNotification.self, ["textDocument": 1], "\"textDocument\" must be an object, not a number")
  }

  @Test func diagnosticPullsDecodeWhatTheyEncode() throws {
    try roundTrip(DocumentDiagnosticRequest(uri: Self.uri))
    try roundTrip(DocumentDiagnosticRequest(uri: Self.uri, previousResultID: "7"))
    try roundTrip(WorkspaceDiagnosticRequest(previousResultIDs: [Self.uri: "7", "file:///b.json": "2"]))
    refused(
      DocumentDiagnosticRequest.self, ["textDocument": ["uri": .string(Self.uri)], "previousResultId": 7],
      "\"previousResultId\" must be a string, not a number")
    refused(
      WorkspaceDiagnosticRequest.self, ["previousResultIds": [["uri": 1]]],
      "\"previousResultIds\" must be a list of {uri, value}, each a string")
  }
}
