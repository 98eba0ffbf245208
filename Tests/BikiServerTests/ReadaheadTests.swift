import BikiCore
import BikiHost
import BikiJSON
import BikiProtocol
import BikiSync
import BikiTestSupport
import Testing

@testable import BikiServer

/// A plugin's questions are made ahead: for a client that asks seed after seed, and for a
/// session's next questions. What is made is served on the message loop, without work off it;
/// a client asking at random gets nothing made ahead.
@Suite struct ReadaheadTests {
  @Test func onlyRequestsInSequenceAreReadAhead() {
    var readahead = Readahead()
    let window = Readahead.window
    #expect(readahead.after(seed: 1, count: 1) == nil)
    #expect(readahead.after(seed: 2, count: 1) == 3..<(3 + window))
    // Half the window is still ahead: nothing more yet.
    for seed in 3..<(2 + window / 2) { #expect(readahead.after(seed: seed, count: 1) == nil) }
    // Half a window left: the next window is asked for.
    #expect(readahead.after(seed: 2 + window / 2, count: 1) == (3 + window)..<(3 + window / 2 + window))
    // A jump starts over.
    #expect(readahead.after(seed: 10_000, count: 1) == nil)
    #expect(readahead.after(seed: 10_001, count: 1) == 10_002..<(10_002 + window))
    // At the end of the seeds, nothing overflows.
    #expect(readahead.after(seed: .max - 1, count: 1) == nil)
    #expect(readahead.after(seed: .max, count: 1) == nil)
  }

  /// The test pack's topic, marked as a plugin's, whose questions can be made ahead: `made`
  /// counts the questions the stand-in plugin made.
  static func dependencies(held: ServerFixtures.HeldWork, made: StandInPluginQuestions.Store, quick: Bool = true)
    -> ServerDependencies
  {
    ServerFixtures.asPlugin(ServerFixtures.dependencies(background: held.runner), source: "/plugins/libahead.so") {
      QuestionGenerator(StandInPluginQuestions($0, keeps: true, makesAhead: quick, store: made))
    }
  }

  static func generate(_ id: Int64, seed: Int64) -> IncomingMessage {
    .request(
      id: .number(id), method: "biki/generate", params: ["topicId": "test.hon", "seed": .integer(seed), "count": 1])
  }

  @Test func aClientAskingSeedAfterSeedIsAnsweredFromQuestionsMadeAhead() {
    let held = ServerFixtures.HeldWork()
    let made = StandInPluginQuestions.Store()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held, made: made))
    // The first two are made off the loop; the second shows a run, so the next are made ahead.
    for seed in 1...2 {
      #expect(endpoint.receive(Self.generate(Int64(seed), seed: Int64(seed))).isEmpty)
      // The loop's next pass starts the questions waited for; they are made; the one after
      // sends them.
      #expect(endpoint.tick(now: 0).isEmpty)
      held.runAll()
      #expect(OffLoopSessionTests.response(endpoint.tick(now: 0), id: Int64(seed)) != nil)
    }
    // Made ahead now, each question once (test.hon has 100).
    let madeAhead = made.questionsMade
    #expect(madeAhead > 2 && madeAhead <= 100)
    for seed in 3...40 {
      let answered = endpoint.receive(Self.generate(Int64(seed), seed: Int64(seed)))
      let questions = OffLoopSessionTests.response(answered, id: Int64(seed))?["questions"]?.arrayValue
      // The question a session with this seed asks first, as for any topic.
      let index = QuestionOrder(count: 100, seed: UInt64(seed)).upcoming
      #expect(questions?.first?["seed"] == .string(String(index)), "seed \(seed): \(answered)")
    }
    #expect(held.count == 0)
    #expect(made.questionsMade == madeAhead)
  }

  @Test func aClientAskingAtRandomGetsNothingMadeAhead() {
    let held = ServerFixtures.HeldWork()
    let made = StandInPluginQuestions.Store()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held, made: made))
    for (id, seed) in [(1, 17), (2, 3), (3, 90), (4, 41)] {
      #expect(endpoint.receive(Self.generate(Int64(id), seed: Int64(seed))).isEmpty)
      #expect(endpoint.tick(now: 0).isEmpty)
      held.runAll()
      #expect(OffLoopSessionTests.response(endpoint.tick(now: 0), id: Int64(id)) != nil)
    }
    #expect(made.questionsMade == 4)
  }

  @Test func aSessionsNextQuestionsAreMadeWhileTheLearnerAnswers() throws {
    let held = ServerFixtures.HeldWork()
    let made = StandInPluginQuestions.Store()
    var endpoint = ServerFixtures.endpoint(Self.dependencies(held: held, made: made))
    _ = endpoint.receive(.request(id: .number(1), method: "biki/startSession", params: OffLoopSessionTests.infinite))
    held.runAll()
    _ = endpoint.tick(now: 0)
    held.runAll()
    let started = OffLoopSessionTests.response(endpoint.tick(now: 0), id: 1)
    let session = try #require(started?["sessionId"]?.stringValue)
    // The first question came, and with it the work that makes the next ones.
    held.runAll()
    #expect(made.questionsMade == 1 + Readahead.sessionQuestions)
    for id in 2...8 {
      let skipped = endpoint.receive(
        .request(id: .number(Int64(id)), method: "biki/skip", params: ["sessionId": .string(session)]))
      #expect(OffLoopSessionTests.response(skipped, id: Int64(id))?["question"] != nil, "\(skipped)")
    }
    #expect(held.count <= 1)
  }

  @Test func aSlowPluginsQuestionsAreMadeOnlyWhenWanted() {
    let held = ServerFixtures.HeldWork()
    let made = StandInPluginQuestions.Store()
    let dependencies = Self.dependencies(held: held, made: made, quick: false)
    var endpoint = ServerFixtures.endpoint(dependencies)
    for seed in 1...4 {
      _ = endpoint.receive(Self.generate(Int64(seed), seed: Int64(seed)))
      _ = endpoint.tick(now: 0)
      held.runAll()
      _ = endpoint.tick(now: 0)
    }
    #expect(made.questionsMade == 4)
  }
}
