import BikiCore
import BikiPractice
import BikiSync
import Testing

@testable import BikiServer

/// The server asks for a refit of the scheduler when it starts and whenever a session ends;
/// the refit itself runs off the loop (`BackgroundRefit`) and fits only when one is due.
@Suite struct RefitTests {
  static func entries(_ count: Int) -> [HistoryEntry] {
    let log = SimulatedLearner(newPerDay: 8, forms: 200).practise(days: 60, scheduler: FSRS()).log
    let entries = log.historyEntries(start: 1_790_000_000)
    #expect(entries.count >= count)
    return Array(entries.prefix(count))
  }

  @Test func aRefitIsAskedForAtStartUpAndWhenASessionEnds() {
    let asked = Locked(0)
    var dependencies = ServerFixtures.dependencies()
    dependencies.refitScheduler = { asked.withLock { $0 += 1 } }
    var endpoint = ServerFixtures.endpoint(dependencies)
    #expect(asked.withLock { $0 } == 1)
    _ = endpoint.call("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "questionLimit", "limit": 2]])
    _ = endpoint.call("biki/skip", ["sessionId": "s1"])
    #expect(asked.withLock { $0 } == 1)
    let ended = endpoint.call("biki/skip", ["sessionId": "s1"])
    #expect(ended["finished"] == true)
    #expect(asked.withLock { $0 } == 2)
  }

  /// Once 500 new answers are in, the refit a session's end asks for is made and kept.
  @Test func theRefitASessionsEndAsksForIsKept() throws {
    let earlier = StoredFit(
      fit: FittedParameters(parameters: FSRS.defaultParameters, extent: .defaults, predictions: 0), answers: 100,
      at: 1_799_999_000)
    let fit = Locked<StoredFit?>(earlier)
    let history = AnswerHistory.memory(lines: Locked(Self.entries(599).map(HistoryLine.answer)), fit: fit)
    var dependencies = ServerFixtures.dependencies(history: history)
    let refit = BackgroundRefit(history, wallClock: { 1_800_000_000 })
    dependencies.refitScheduler = refit.start
    var endpoint = ServerFixtures.endpoint(dependencies)
    refit.wait()
    #expect(fit.withLock { $0 } == earlier)
    _ = endpoint.call("biki/startSession", ["topicId": "test.hon", "mode": ["kind": "questionLimit", "limit": 1]])
    _ = endpoint.call("biki/skip", ["sessionId": "s1"])
    refit.wait()
    let stored = try #require(fit.withLock { $0 })
    #expect(stored.answers == 600 && stored.fit.extent != .defaults && stored.at == 1_800_000_000, "\(stored)")
  }
}
