import BikiCore
import BikiHost
import BikiJSON
import BikiPacks
import BikiPractice
import BikiProtocol
import BikiSync
import BikiTestSupport
import Testing

@testable import BikiServer

/// Topics whose questions run a plugin's code are made off the message loop: the request waits,
/// everything else is answered, and the response follows once the work is done. Here the work
/// is held until the test runs it, and the test pack's topic stands in for a plugin's.
@Suite struct OffLoopSessionTests {
  /// The test pack's topics, marked as a plugin's.
  static func dependencies(
    clock: ManualClock = ManualClock(at: 100), held: ServerFixtures.HeldWork, history: AnswerHistory = .memory()
  ) -> ServerDependencies {
    ServerFixtures.asPlugin(
      ServerFixtures.dependencies(clock: clock, history: history, background: held.runner),
      source: "/plugins/libslow.so")
  }

  static func request(_ id: Int64, _ method: String, _ params: JSON) -> IncomingMessage {
    .request(id: .number(id), method: method, params: params)
  }

  static func response(_ messages: [OutgoingMessage], id: Int64) -> JSON? {
    for case .result(.number(id)?, let result) in messages { return result }
    return nil
  }

  static func errorCode(_ messages: [OutgoingMessage], id: Int64) -> Int? {
    for case .error(.number(id)?, let error) in messages { return error.code }
    return nil
  }

  static let infinite: JSON = ["topicId": "test.hon", "seed": 3, "mode": ["kind": "infinite"]]

  @Test func aStartWaitsForItsQuestionWhileOtherRequestsAreAnswered() {
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held))
    #expect(endpoint.receive(Self.request(10, "biki/startSession", Self.infinite)).isEmpty)
    #expect(held.count == 1)
    #expect(endpoint.call("biki/read", ["text": "8本"])["reading"] == "はっぽん")
    // Preparing (the generator), then the first question: each a piece of work off the loop.
    held.runAll()
    #expect(endpoint.tick(now: 100).isEmpty)
    held.runAll()
    let started = Self.response(endpoint.tick(now: 100), id: 10)
    #expect(started?["sessionId"] == "s1")
    #expect(started?["question"]?["number"] == 1)
    #expect(started?["finished"] == false)
  }

  /// A cancelled start whose plan was already made, and a new request under the same id before
  /// the loop took the plan up: the old plan is not the new request's (its ticket is not the
  /// row's), and the new request gets its own answer.
  @Test func workForACancelledRequestDoesNotAnswerOneThatReusedItsID() {
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held))
    #expect(endpoint.receive(Self.request(10, "biki/startSession", Self.infinite)).isEmpty)
    held.runAll()
    let cancelled = endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 10]))
    #expect(Self.errorCode(cancelled, id: 10) == ResponseError.requestCancelled)
    let reused = endpoint.receive(
      Self.request(10, "biki/startSession", ["topicId": "test.hon", "seed": 4, "mode": ["kind": "infinite"]]))
    #expect(Self.response(reused, id: 10) == nil, "the cancelled start's plan answered the new one: \(reused)")
    held.runAll()
    #expect(endpoint.tick(now: 100).isEmpty)
    held.runAll()
    let started = Self.response(endpoint.tick(now: 100), id: 10)
    #expect(started?["seed"] == "4")
  }

  /// A started session, on the plugin stand-in, asking its first question.
  static func started(_ held: ServerFixtures.HeldWork, history: AnswerHistory = .memory()) -> Endpoint<BikiServer> {
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held, history: history))
    _ = endpoint.receive(Self.request(1, "biki/startSession", Self.infinite))
    held.runAll()
    _ = endpoint.tick(now: 100)
    held.runAll()
    _ = endpoint.tick(now: 100)
    return endpoint
  }

  @Test func requestsSentWithoutWaitingAreHandledInOrderOnceTheQuestionIsThere() {
    let held = ServerFixtures.HeldWork()
    var endpoint = Self.started(held)
    #expect(endpoint.receive(Self.request(2, "biki/skip", ["sessionId": "s1"])).isEmpty)
    #expect(endpoint.receive(Self.request(3, "biki/skip", ["sessionId": "s1"])).isEmpty)
    #expect(endpoint.receive(Self.request(4, "biki/skip", ["sessionId": "s1"])).isEmpty)
    // Another session's requests, and everything else, are answered meanwhile.
    #expect(endpoint.call("biki/read", ["text": "8本"])["reading"] == "はっぽん")
    var numbers: [JSON?] = []
    for id in Int64(2)...4 {
      held.runAll()
      let sent = endpoint.tick(now: 100)
      numbers.append(Self.response(sent, id: id)?["question"]?["number"])
    }
    #expect(numbers == [2, 3, 4])
  }

  @Test func aQueuedRequestCanBeCancelledAndTheQueueIsBounded() {
    let held = ServerFixtures.HeldWork()
    var endpoint = Self.started(held)
    _ = endpoint.receive(Self.request(2, "biki/skip", ["sessionId": "s1"]))
    _ = endpoint.receive(Self.request(3, "biki/skip", ["sessionId": "s1"]))
    #expect(
      Self.errorCode(endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 3])), id: 3)
        == ResponseError.requestCancelled)
    for id in Int64(10)..<Int64(10 + QuizService.maximumQueuedPerSession) {
      #expect(endpoint.receive(Self.request(id, "biki/skip", ["sessionId": "s1"])).isEmpty)
    }
    let over = endpoint.receive(Self.request(99, "biki/skip", ["sessionId": "s1"]))
    #expect(Self.errorCode(over, id: 99) == ResponseError.requestFailed)
    held.runAll()
    let sent = endpoint.tick(now: 100)
    #expect(Self.response(sent, id: 2)?["question"]?["number"] == 2)
    #expect(Self.response(sent, id: 3) == nil)
  }

  @Test func aTimeLimitThatPassesWhileTheFirstQuestionIsMadeEndsTheStartWithItsSummary() {
    let clock = ManualClock(at: 100)
    let held = ServerFixtures.HeldWork()
    let history = AnswerHistory.memory()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(clock: clock, held: held, history: history))
    _ = endpoint.receive(
      Self.request(1, "biki/startSession", ["topicId": "test.hon", "mode": ["kind": "timeLimit", "limit": 1]]))
    held.runAll()
    _ = endpoint.tick(now: clock.now())
    // The plugin is still making the first question when the second is up.
    #expect(endpoint.nextDeadline == clock.now() + 1)
    clock.advance(1.5)
    let ended = Self.response(endpoint.tick(now: clock.now()), id: 1)
    #expect(ended?["finished"] == true)
    #expect(ended?["summary"]?["endReason"] == "timeUp")
    #expect(ended?["summary"]?["questions"] == 0)
    #expect(ended?["question"] == nil)
    // The question made too late goes nowhere.
    held.runAll()
    #expect(endpoint.tick(now: clock.now()).isEmpty)
    #expect(endpoint.call("biki/endSession", ["sessionId": "s1"])["summary"]?["endReason"] == "timeUp")
  }

  @Test func aCancelledStartLeavesNoSessionAndItsLateQuestionIsDropped() {
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held))
    _ = endpoint.receive(Self.request(1, "biki/startSession", Self.infinite))
    held.runAll()
    _ = endpoint.tick(now: 100)
    let cancelled = endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 1]))
    #expect(Self.errorCode(cancelled, id: 1) == ResponseError.requestCancelled)
    held.runAll()
    #expect(endpoint.tick(now: 100).isEmpty)
    #expect(endpoint.server.quiz.sessions.isEmpty)
  }

  @Test func aCancelWhileTheGeneratorIsMadeIsAnsweredAtOnce() {
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held))
    _ = endpoint.receive(Self.request(1, "biki/startSession", Self.infinite))
    _ = endpoint.receive(Self.request(2, "biki/generate", ["topicId": "test.hon", "seed": 1, "count": 5]))
    #expect(
      Self.errorCode(endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 1])), id: 1)
        == ResponseError.requestCancelled)
    #expect(
      Self.errorCode(endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 2])), id: 2)
        == ResponseError.requestCancelled)
    held.runAll()
    #expect(endpoint.tick(now: 100).isEmpty)
    // A second cancel of the same request is dropped.
    #expect(endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 2])).isEmpty)
  }

  @Test func aCancelledAnswerKeepsWhatWasRecordedAndEndsTheSession() {
    let held = ServerFixtures.HeldWork()
    let history = AnswerHistory.memory()
    var endpoint = Self.started(held, history: history)
    _ = endpoint.receive(Self.request(2, "biki/skip", ["sessionId": "s1"]))
    #expect(
      Self.errorCode(endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 2])), id: 2)
        == ResponseError.requestCancelled)
    #expect(history.load().entries.filter(\.skipped).count == 1)
    #expect(endpoint.call("biki/endSession", ["sessionId": "s1"])["summary"]?["skipped"] == 1)
  }

  @Test func endingASessionThatIsMakingAQuestionAnswersTheWaitingRequestToo() {
    let held = ServerFixtures.HeldWork()
    var endpoint = Self.started(held)
    _ = endpoint.receive(Self.request(2, "biki/skip", ["sessionId": "s1"]))
    _ = endpoint.receive(Self.request(4, "biki/skip", ["sessionId": "s1"]))
    let ended = endpoint.receive(Self.request(3, "biki/endSession", ["sessionId": "s1"]))
    #expect(Self.response(ended, id: 2)?["finished"] == true)
    #expect(Self.response(ended, id: 2)?["summary"]?["endReason"] == "ended")
    #expect(Self.response(ended, id: 3)?["summary"]?["skipped"] == 1)
    // The skip queued behind finds the session ended.
    #expect(Self.errorCode(ended, id: 4) == ResponseError.invalidParams)
    held.runAll()
    #expect(endpoint.tick(now: 100).isEmpty)
  }

  @Test func anIDStillInFlightIsRefusedForAnotherRequest() {
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held))
    _ = endpoint.receive(Self.request(1, "biki/generate", ["topicId": "test.hon", "seed": 1, "count": 5]))
    let again = endpoint.receive(Self.request(1, "biki/generate", ["topicId": "test.hon", "seed": 2]))
    #expect(Self.errorCode(again, id: 1) == ResponseError.invalidRequest)
    #expect(endpoint.tick(now: 100).isEmpty)
    held.runAll()
    #expect(Self.response(endpoint.tick(now: 100), id: 1)?["questions"]?.arrayValue?.count == 5)
    // Once answered, the id is free again.
    _ = endpoint.receive(Self.request(1, "biki/generate", ["topicId": "test.hon", "seed": 2]))
    #expect(endpoint.tick(now: 100).isEmpty)
    held.runAll()
    #expect(Self.response(endpoint.tick(now: 100), id: 1)?["questions"]?.arrayValue?.count == 1)
  }

  @Test func generateOnAPluginTopicIsAnsweredWhenItsQuestionsAreMade() {
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held))
    #expect(endpoint.receive(Self.request(1, "biki/generate", ["topicId": "test.hon", "seed": 1, "count": 5])).isEmpty)
    // Due at once: the loop's next pass starts it.
    #expect(endpoint.nextDeadline == -.infinity)
    #expect(endpoint.tick(now: 100).isEmpty)
    #expect(held.count == 1)
    held.runAll()
    #expect(Self.response(endpoint.tick(now: 100), id: 1)?["questions"]?.arrayValue?.count == 5)
  }

  @Test func requestsReadTogetherShareOneJobAndEachGetsItsOwnAnswer() {
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held))
    for id in 1...6 {
      let count = Int64(id % 3 + 1)
      #expect(
        endpoint.receive(
          Self.request(
            Int64(id), "biki/generate",
            ["topicId": "test.hon", "seed": .integer(Int64(id * 10)), "count": .integer(count)])
        )
        .isEmpty)
    }
    #expect(endpoint.tick(now: 100).isEmpty)
    #expect(held.count == 1)
    held.runAll()
    let answers = endpoint.tick(now: 100)
    for id in 1...6 {
      let questions = Self.response(answers, id: Int64(id))?["questions"]?.arrayValue
      #expect(questions?.count == id % 3 + 1)
      // Each its own seed's questions, in its order, as a request alone gets them.
      var order = QuestionOrder(count: 100, seed: UInt64(id * 10))
      #expect(questions?.map { $0["seed"] } == (0..<(id % 3 + 1)).map { _ in .string(String(order.next())) })
    }
  }

  @Test func aRequestCancelledBeforeItsQuestionsAreStartedIsAnsweredAsCancelledAndCostsNoWork() {
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held))
    #expect(endpoint.receive(Self.request(1, "biki/generate", ["topicId": "test.hon", "seed": 1])).isEmpty)
    #expect(endpoint.isWaitingForWork)
    let cancelled = endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 1]))
    #expect(Self.errorCode(cancelled, id: 1) == ResponseError.requestCancelled)
    #expect(!endpoint.isWaitingForWork)
    #expect(endpoint.tick(now: 100).isEmpty)
    #expect(held.count == 0)
  }
}

/// A start that cannot make a question is refused and leaves nothing behind.
@Suite struct FailedStartTests {
  @Test(arguments: [false, true])
  func aTopicThatCannotMakeAQuestionIsRefusedAndLeavesNoHistory(callsPlugin: Bool) {
    let lines = Locked<[HistoryLine]>([])
    let history = AnswerHistory.memory(lines: lines)
    var dependencies = ServerFixtures.dependencies(history: history)
    let load = dependencies.loadCatalog
    dependencies.loadCatalog = {
      let catalog = load()
      var registry = catalog.registry
      registry.topics = catalog.registry.topics.map { registered in
        RegisteredTopic(topic: registered.topic, source: registered.source, callsPlugin: callsPlugin) {
          _ throws(ParameterError) in
          let generator = QuestionGenerator(topic: registered.topic, spaceSize: 10) { _ throws(GenerationError) in
            throw GenerationError(topicID: registered.topic.id, reason: "the plugin's worker crashed")
          }
          return callsPlugin ? QuestionGenerator(StandInPluginQuestions(generator)) : generator
        }
      }
      return Catalog(registry: registry, packs: catalog.packs)
    }
    var endpoint = ServerFixtures.endpoint(dependencies)
    let error = endpoint.failure("biki/startSession", ["topicId": "test.hon"])
    #expect(error?.code == ResponseError.requestFailed)
    #expect(error?.message.contains("crashed") == true)
    #expect(lines.withLock { $0 }.isEmpty)
    #expect(endpoint.server.quiz.sessions.isEmpty)
  }
}

/// Tiny time limits used to trap on the session's missing first question.
@Suite struct TinyTimeLimitTests {
  @Test(arguments: [1e-7, 1e-5, 0.001])
  func aTimeLimitThatPassesBeforeTheFirstQuestionEndsTheSessionWithItsSummary(limit: Double) {
    let clock = ManualClock(at: 100)
    var dependencies = ServerFixtures.dependencies(clock: clock)
    // Every reading of the clock finds it 10 ms on: the question takes longer than the limit.
    let now = dependencies.now
    dependencies.now = {
      clock.advance(0.01)
      return now()
    }
    var endpoint = ServerFixtures.endpoint(dependencies)
    for _ in 0..<20 {
      let started = endpoint.call(
        "biki/startSession", ["topicId": "test.hon", "mode": ["kind": "timeLimit", "limit": .double(limit)]])
      #expect(started["finished"] == true)
      #expect(started["question"] == nil)
      #expect(started["summary"]?["endReason"] == "timeUp")
    }
    #expect(endpoint.call("biki/read", ["text": "3本"])["reading"] == "さんぼん")
  }
}
