import BikiJapanese
import BikiTestSupport
import Testing

@testable import BikiCore

/// The session reducer tested as isowords tests its reducers: each action's expected state is
/// the state before it with the changes the test names, and the whole state must equal it, so
/// a field changed that the test does not name fails too. The clock is moved by hand.
@Suite struct SessionReducerTests {
  let clock = ManualClock(at: 1000)
  var dependencies: Session.Dependencies { Session.Dependencies(now: clock.now) }

  static let eight = Question(
    topicID: "t.hon", seed: 0, display: "8本", kanjiDisplay: "八本", reading: Reading(alternatives: ["はっぽん", "はちほん"]),
    answer: Answer(value: 8, postfix: "本"))
  static let three = Question(
    topicID: "t.hon", seed: 1, display: "3本", kanjiDisplay: "三本", reading: Reading("さんぼん"),
    answer: Answer(value: 3, postfix: "本"))

  /// Sends `action`, expecting exactly `effects` and the state before it changed by `change` alone.
  func send(
    _ state: inout Session.State, _ action: Session.Action, effects expected: [Session.Effect],
    sourceLocation: SourceLocation = #_sourceLocation, _ change: (inout Session.State) -> Void
  ) {
    var expectedState = state
    change(&expectedState)
    let effects = Session.reduce(&state, action, dependencies)
    #expect(effects == expected, sourceLocation: sourceLocation)
    #expect(state == expectedState, sourceLocation: sourceLocation)
  }

  func record(_ question: Question, given: String, isCorrect: Bool, skipped: Bool = false, seconds: Double, first: Bool)
    -> Session.Effect
  {
    .recorded(
      .answered(
        Session.AnswerRecord(
          topicID: question.topicID, seed: question.seed, skill: .reading, prompt: question.kanjiDisplay,
          expected: question.answer.display,
          given: given, isCorrect: isCorrect, skipped: skipped, seconds: seconds, isFirstAttempt: first,
          forms: question.forms)))
  }

  @Test func aSessionOfTwoQuestionsStepByStep() throws {
    let topic = Topic(id: "t.hon", title: "本", category: .counter, skills: [.reading])
    var (state, effects) = try Session.start(
      topic: topic, order: .sequential(count: 2), skill: .reading, mode: .questionLimit(2), seed: 7,
      dependencies: dependencies)
    #expect(
      effects == [
        .recorded(.started(topicID: "t.hon", skill: .reading, mode: .questionLimit(2), seed: 7)),
        .questionNeeded(index: 0),
      ])
    var order = QuestionOrder.sequential(count: 2)
    _ = order.next()
    #expect(
      state
        == Session.State(
          topicID: "t.hon", skill: .reading, mode: .questionLimit(2), seed: 7, order: order, current: nil,
          questionStartedAt: 1000, startedAt: 1000))

    send(&state, .questionArrived(Self.eight), effects: [.questionPresented(Self.eight)]) { $0.current = Self.eight }
    // Nothing but the question: an answer before it arrives, or a second question, changes nothing.
    send(&state, .questionArrived(Self.three), effects: []) { _ in }

    clock.advance(2)
    let wrong = AnswerChecker.check("9", against: Self.eight, skill: .reading)
    send(
      &state, .answerSubmitted("9"),
      effects: [record(Self.eight, given: "9", isCorrect: false, seconds: 2, first: true)]
    ) {
      $0.currentWrongAnswers = ["9"]
      $0.feedback = .incorrect(expected: "8本", hint: wrong.hint)
    }

    clock.advance(1)
    let right = AnswerChecker.check("8本", against: Self.eight, skill: .reading)
    send(
      &state, .answerSubmitted("8本"),
      effects: [record(Self.eight, given: "8本", isCorrect: true, seconds: 3, first: false), .questionNeeded(index: 1)]
    ) {
      $0.record(Session.QuestionResult(question: Self.eight, outcome: .correct, wrongAnswers: ["9"], seconds: 3))
      $0.currentWrongAnswers = []
      $0.current = nil
      $0.feedback = .correct(matched: right.matched, standard: right.standard)
      _ = $0.order.next()
    }

    send(&state, .questionArrived(Self.three), effects: [.questionPresented(Self.three)]) {
      $0.current = Self.three
      $0.questionStartedAt = 1003
    }

    clock.advance(4)
    let missed = [
      Session.QuestionResult(question: Self.eight, outcome: .correct, wrongAnswers: ["9"], seconds: 3),
      Session.QuestionResult(question: Self.three, outcome: .skipped, wrongAnswers: [], seconds: 4),
    ]
    let summary = Session.Summary(
      topicID: "t.hon", endReason: .questionLimitReached, questions: 2, correct: 1, correctFirstTry: 0,
      incorrectAttempts: 1, skipped: 1,
      attempts: 2, totalSeconds: 7, secondsPerQuestion: [3, 4], missed: missed)
    send(
      &state, .skipRequested,
      effects: [
        record(Self.three, given: "", isCorrect: false, skipped: true, seconds: 4, first: true),
        .recorded(.ended(topicID: "t.hon", reason: .questionLimitReached, questions: 2, correct: 1)),
        .sessionFinished(summary),
      ]
    ) {
      $0.feedback = .skipped(expected: "3本")
      $0.record(missed[1])  // the first is recorded already
      $0.current = nil
      $0.endReason = .questionLimitReached
    }
    // A finished session takes nothing more.
    send(&state, .answerSubmitted("3"), effects: []) { _ in }
  }

  func started(mode: Session.Mode) throws -> Session.State {
    let topic = Topic(id: "t.hon", title: "本", category: .counter, skills: [.reading])
    return try Session.start(
      topic: topic, order: .sequential(count: 10), skill: .reading, mode: mode, seed: 3, dependencies: dependencies
    ).0
  }

  /// A question that cannot be made costs that question, said as skipped: the next index is
  /// asked for, a made question clears the count, and the third failure in a row ends the
  /// session saying why.
  @Test func failuresInARowAskForTheNextQuestionThenEndTheSession() throws {
    var state = try started(mode: .infinite)
    let broken = GenerationError(topicID: "t.hon", reason: "broken")
    send(&state, .questionFailed(broken), effects: [.questionSkipped(broken), .questionNeeded(index: 1)]) {
      $0.failedInARow = 1
      _ = $0.order.next()
    }
    send(&state, .questionArrived(Self.eight), effects: [.questionPresented(Self.eight)]) {
      $0.current = Self.eight
      $0.failedInARow = 0
    }
    // While a question is shown, a late failure changes nothing.
    send(&state, .questionFailed(broken), effects: []) { _ in }
    send(
      &state, .skipRequested,
      effects: [
        record(Self.eight, given: "", isCorrect: false, skipped: true, seconds: 0, first: true),
        .questionNeeded(index: 2),
      ]
    ) {
      $0.feedback = .skipped(expected: "8本")
      $0.record(Session.QuestionResult(question: Self.eight, outcome: .skipped, wrongAnswers: [], seconds: 0))
      $0.current = nil
      _ = $0.order.next()
    }
    for count in 1...2 {
      send(
        &state, .questionFailed(broken), effects: [.questionSkipped(broken), .questionNeeded(index: UInt64(2 + count))]
      ) {
        $0.failedInARow = count
        _ = $0.order.next()
      }
    }
    let reason = Session.EndReason.generationFailed(broken.description)
    let summary = Session.Summary(
      topicID: "t.hon", endReason: reason, questions: 1, correct: 0, correctFirstTry: 0, incorrectAttempts: 0,
      skipped: 1, attempts: 0, totalSeconds: 0, secondsPerQuestion: [0],
      missed: [Session.QuestionResult(question: Self.eight, outcome: .skipped, wrongAnswers: [], seconds: 0)])
    send(
      &state, .questionFailed(broken),
      effects: [
        .recorded(.ended(topicID: "t.hon", reason: reason, questions: 1, correct: 0)), .sessionFinished(summary),
      ]
    ) {
      $0.failedInARow = 3
      $0.endReason = reason
    }
  }

  /// Past the time limit, whatever arrives ends the session and does not count: an answer typed
  /// after the deadline is not taken, and the wrong answers already given are kept as missed.
  @Test func theTimeLimitEndsTheSessionAndALateAnswerDoesNotCount() throws {
    var state = try started(mode: .timeLimit(seconds: 30))
    send(&state, .questionArrived(Self.eight), effects: [.questionPresented(Self.eight)]) { $0.current = Self.eight }
    clock.advance(10)
    let wrong = AnswerChecker.check("9", against: Self.eight, skill: .reading)
    send(
      &state, .answerSubmitted("9"),
      effects: [record(Self.eight, given: "9", isCorrect: false, seconds: 10, first: true)]
    ) {
      $0.currentWrongAnswers = ["9"]
      $0.feedback = .incorrect(expected: "8本", hint: wrong.hint)
    }
    clock.advance(20)
    let unanswered = Session.QuestionResult(
      question: Self.eight, outcome: .unanswered, wrongAnswers: ["9"], seconds: 30)
    let summary = Session.Summary(
      topicID: "t.hon", endReason: .timeUp, questions: 1, correct: 0, correctFirstTry: 0, incorrectAttempts: 1,
      skipped: 0, attempts: 1, totalSeconds: 30, secondsPerQuestion: [30], missed: [unanswered])
    send(
      &state, .answerSubmitted("8本"),
      effects: [
        .recorded(.ended(topicID: "t.hon", reason: .timeUp, questions: 1, correct: 0)), .sessionFinished(summary),
      ]
    ) {
      $0.record(unanswered)
      $0.currentWrongAnswers = []
      $0.current = nil
      $0.endReason = .timeUp
    }
    send(&state, .clockTicked, effects: []) { _ in }
  }

  /// Ending by hand before any answer: nothing is recorded as missed, the summary is empty.
  @Test func endingAtOnceRecordsAnEmptySession() throws {
    var state = try started(mode: .questionLimit(5))
    send(&state, .questionArrived(Self.three), effects: [.questionPresented(Self.three)]) { $0.current = Self.three }
    clock.advance(2)
    let summary = Session.Summary(
      topicID: "t.hon", endReason: .endedByLearner, questions: 0, correct: 0, correctFirstTry: 0, incorrectAttempts: 0,
      skipped: 0, attempts: 0, totalSeconds: 2, secondsPerQuestion: [], missed: [])
    send(
      &state, .endRequested,
      effects: [
        .recorded(.ended(topicID: "t.hon", reason: .endedByLearner, questions: 0, correct: 0)),
        .sessionFinished(summary),
      ]
    ) {
      $0.current = nil
      $0.endReason = .endedByLearner
    }
  }
}
