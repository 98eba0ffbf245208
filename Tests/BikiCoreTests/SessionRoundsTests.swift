import BikiJapanese
import BikiTestSupport
import Testing

@testable import BikiCore

/// `Session.Mode.rounds`: missed questions asked again in rounds until each is right at the
/// first try.
@Suite struct SessionRoundsTests {
  let clock = ManualClock(at: 1000)

  /// Four months; the learner misses the 2nd and 4th in round 1 (one wrong then right, one
  /// skipped), the 4th again in round 2, and nothing in round 3.
  @Test func roundsAskAgainWhatTheRoundBeforeMissedUntilNothingIsMissed() throws {
    let months = try Fixtures.months()
    var (runner, _) = try SessionRunner.start(
      generator: months, skill: .reading, mode: .rounds(questions: 4), seed: 1,
      dependencies: Fixtures.dependencies(clock: clock))
    var asked: [(round: Int, position: Int, month: Int64)] = []
    func ask() throws -> Question {
      let question = try #require(runner.state.current)
      let rounds = try #require(runner.state.rounds)
      asked.append((rounds.number, rounds.position, question.answer.value))
      return question
    }
    // Round 1: questions 0…3 in order.
    for index in 0..<4 {
      let question = try ask()
      #expect(question.seed == UInt64(index))
      switch index {
      case 1:
        _ = runner.send(.answerSubmitted("99"))
        _ = runner.send(.answerSubmitted(String(question.answer.value)))
      case 3: _ = runner.send(.skipRequested)
      default: _ = runner.send(.answerSubmitted(String(question.answer.value)))
      }
    }
    // Round 2: the two missed; the 4th missed again.
    for index in [1, 3] as [UInt64] {
      let question = try ask()
      #expect(question.seed == index)
      _ = runner.send(index == 3 ? .skipRequested : .answerSubmitted(String(question.answer.value)))
    }
    // Round 3: the 4th alone, right: the session ends.
    let last = try ask()
    #expect(last.seed == 3)
    let effects = runner.send(.answerSubmitted(String(last.answer.value)))
    #expect(runner.state.endReason == .allRight)
    #expect(asked.map(\.round) == [1, 1, 1, 1, 2, 2, 3])
    #expect(asked.map(\.position) == [1, 2, 3, 4, 1, 2, 1])
    guard case .sessionFinished(let summary)? = effects.last else {
      Issue.record("no summary: \(effects)")
      return
    }
    #expect(summary.rounds == 3 && summary.questions == 7 && summary.correctFirstTry == 4)
  }

  @Test func nothingToAskIsRefused() throws {
    #expect(throws: SessionError.invalidLimit("there is nothing to ask again")) {
      try SessionRunner.start(
        generator: Fixtures.months(), skill: .reading, mode: .rounds(questions: 0), seed: 1,
        dependencies: Fixtures.dependencies(clock: clock))
    }
  }

  /// Ended by the learner, the summary still says how many rounds were begun.
  @Test func endingEarlySaysTheRoundsBegun() throws {
    var (runner, _) = try SessionRunner.start(
      generator: Fixtures.months(), skill: .reading, mode: .rounds(questions: 2), seed: 1,
      dependencies: Fixtures.dependencies(clock: clock))
    _ = runner.send(.skipRequested)
    _ = runner.send(.skipRequested)
    #expect(runner.state.rounds?.number == 2)
    let effects = runner.send(.endRequested)
    guard case .sessionFinished(let summary)? = effects.last else {
      Issue.record("no summary: \(effects)")
      return
    }
    #expect(summary.endReason == .endedByLearner && summary.rounds == 2)
  }
}
