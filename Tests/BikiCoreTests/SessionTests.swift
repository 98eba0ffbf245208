import BikiCore
import BikiJapanese
import Testing

@Suite struct SessionTests {
  let clock = FakeClock()

  func start(_ generator: QuestionGenerator, skill: Skill = .reading, mode: Session.Mode, seed: UInt64 = 1)
    throws -> (Session.State, [Session.Effect], Session.Dependencies)
  {
    let dependencies = Fixtures.dependencies(generator, clock: clock)
    let (state, effects) = try Session.start(skill: skill, mode: mode, seed: seed, dependencies: dependencies)
    return (state, effects, dependencies)
  }

  /// Months, except that odd months cannot be made (as a pack question with an overflow or a
  /// date that did not exist cannot).
  func monthsFailingOnOddMonths() throws -> QuestionGenerator {
    let months = try Fixtures.months()
    var generator = months
    generator.questionAt = { index throws(GenerationError) in
      let question = try months.questionAt(index)
      guard question.answer.value % 2 == 0 else { throw GenerationError(topicID: "dates.months", reason: "odd") }
      return question
    }
    return generator
  }

  @Test func aQuestionThatCannotBeMadeCostsThatQuestionNotTheSession() throws {
    var (state, _, dependencies) = try start(monthsFailingOnOddMonths(), mode: .questionLimit(5))
    for _ in 0..<5 {
      let question = try #require(state.current, "the session ended: \(String(describing: state.endReason))")
      #expect(question.answer.value % 2 == 0)
      _ = Session.reduce(&state, .answerSubmitted(String(question.answer.value)), dependencies)
    }
    #expect(state.endReason == .questionLimitReached)
  }

  @Test func aTopicWhoseQuestionsKeepFailingEndsTheSessionWithTheReason() throws {
    var generator = try Fixtures.months()
    generator.questionAt = { _ throws(GenerationError) in throw GenerationError(topicID: "dates.months", reason: "broken") }
    #expect(throws: SessionError.self) { try start(generator, mode: .infinite) }
  }

  @Test func aCorrectAnswerIsRecordedAndTheNextQuestionPresented() throws {
    var (state, effects, dependencies) = try start(Fixtures.months(), mode: .questionLimit(3))
    let first = try #require(state.current)
    #expect(effects == [.questionPresented(first)])

    clock.advance(2.5)
    effects = Session.reduce(&state, .answerSubmitted(String(first.answer.value)), dependencies)
    let second = try #require(state.current)
    #expect(effects == [
      .answerRecorded(.init(topicID: "dates.months", seed: first.seed, skill: .reading, given: String(first.answer.value), isCorrect: true, seconds: 2.5)),
      .questionPresented(second),
    ])
    #expect(state.feedback == .correct)
    #expect(state.progress == .init(completed: 1, correct: 1, incorrectAttempts: 0, skipped: 0, questionLimit: 3, timeLimit: nil))
    #expect(state.results.map(\.seconds) == [2.5])
  }

  @Test func aWrongAnswerCanBeRetried() throws {
    var (state, _, dependencies) = try start(Fixtures.months(), mode: .questionLimit(2))
    let question = try #require(state.current)
    let wrong = String(question.answer.value % 12 + 1)

    clock.advance(1)
    var effects = Session.reduce(&state, .answerSubmitted(wrong), dependencies)
    #expect(effects == [.answerRecorded(.init(topicID: "dates.months", seed: question.seed, skill: .reading, given: wrong, isCorrect: false, seconds: 1))])
    #expect(state.current == question)
    #expect(state.feedback == .incorrect(expected: question.answer.display))
    #expect(state.currentWrongAnswers == [wrong])
    #expect(state.progress.incorrectAttempts == 1)

    clock.advance(1)
    effects = Session.reduce(&state, .answerSubmitted("\(question.answer.value)月"), dependencies)
    #expect(effects.count == 2)
    #expect(state.results.first?.wrongAnswers == [wrong])
    #expect(state.results.first?.attempts == 2)
    #expect(state.results.first?.seconds == 2)
    #expect(state.results.first?.wasMissed == true)
  }

  @Test func skipRevealsTheAnswerAndMovesOn() throws {
    var (state, _, dependencies) = try start(Fixtures.months(), skill: .kana, mode: .infinite)
    let question = try #require(state.current)
    let effects = Session.reduce(&state, .skipRequested, dependencies)
    #expect(state.feedback == .skipped(expected: question.reading.description))
    #expect(effects == [.questionPresented(state.current!)])
    #expect(state.results.map(\.outcome) == [.skipped])
    #expect(state.progress.skipped == 1)
  }

  @Test func theQuestionLimitEndsTheSessionWithASummary() throws {
    var (state, _, dependencies) = try start(Fixtures.months(), mode: .questionLimit(2))
    clock.advance(3)
    _ = Session.reduce(&state, .answerSubmitted("x"), dependencies)
    _ = Session.reduce(&state, .answerSubmitted(String(state.current!.answer.value)), dependencies)
    clock.advance(1)
    let effects = Session.reduce(&state, .skipRequested, dependencies)
    #expect(state.isFinished)
    #expect(state.current == nil)
    let summary = try #require(effects.last.flatMap { if case .sessionFinished(let s) = $0 { s } else { nil } })
    #expect(summary.endReason == .questionLimitReached)
    #expect(summary.questions == 2)
    #expect(summary.correct == 1)
    #expect(summary.correctFirstTry == 0)
    #expect(summary.incorrectAttempts == 1)
    #expect(summary.skipped == 1)
    #expect(summary.attempts == 2)
    #expect(summary.secondsPerQuestion == [3, 1])
    #expect(summary.averageSeconds == 2)
    #expect(summary.totalSeconds == 4)
    #expect(summary.missed.count == 2)
    #expect(Session.reduce(&state, .answerSubmitted("1"), dependencies) == [])
  }

  @Test func theTimeLimitEndsOnATick() throws {
    var (state, _, dependencies) = try start(Fixtures.months(), mode: .timeLimit(seconds: 60))
    clock.advance(59.9)
    #expect(Session.reduce(&state, .clockTicked, dependencies) == [])
    #expect(!state.isFinished)
    clock.advance(0.1)
    let effects = Session.reduce(&state, .clockTicked, dependencies)
    #expect(state.endReason == .timeUp)
    guard case .sessionFinished(let summary) = effects.first else { Issue.record("no summary"); return }
    #expect(summary.totalSeconds == 60)
  }

  @Test func anAnswerAfterTheDeadlineDoesNotCount() throws {
    var (state, _, dependencies) = try start(Fixtures.months(), mode: .timeLimit(seconds: 10))
    clock.advance(11)
    let effects = Session.reduce(&state, .answerSubmitted(String(state.current!.answer.value)), dependencies)
    #expect(state.endReason == .timeUp)
    #expect(state.results.isEmpty)
    #expect(effects.count == 1)
  }

  @Test func endingMidQuestionKeepsItsWrongAnswers() throws {
    var (state, _, dependencies) = try start(Fixtures.months(), mode: .infinite)
    _ = Session.reduce(&state, .answerSubmitted("13"), dependencies)
    _ = Session.reduce(&state, .endRequested, dependencies)
    #expect(state.endReason == .endedByLearner)
    #expect(state.results.map(\.outcome) == [.unanswered])
  }

  @Test func aTwelveMonthTopicShowsAllTwelveBeforeAnyRepeat() throws {
    var (state, _, dependencies) = try start(Fixtures.months(), mode: .infinite, seed: 2024)
    var seen = [state.current!.answer.value]
    for _ in 1..<24 {
      _ = Session.reduce(&state, .skipRequested, dependencies)
      seen.append(state.current!.answer.value)
    }
    #expect(Set(seen.prefix(12)) == Set(1...12))
    #expect(Set(seen.suffix(12)) == Set(1...12))
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 != $1 })
  }

  @Test func aSeedReplaysTheSameSession() throws {
    func run(seed: UInt64) throws -> [String] {
      var (state, _, dependencies) = try start(Fixtures.money(), mode: .questionLimit(20), seed: seed)
      var shown: [String] = []
      while let question = state.current {
        shown.append(question.display)
        _ = Session.reduce(&state, .skipRequested, dependencies)
      }
      return shown
    }
    #expect(try run(seed: 5) == run(seed: 5))
    #expect(try run(seed: 5) != run(seed: 6))
  }

  @Test func aSkillTheTopicDoesNotOfferIsRefused() throws {
    let generator = try NumberPhraseGenerator(range: 1...10, phrasing: .number)
      .generator(for: Fixtures.topic("numbers.listen", skills: [.listening]))
    #expect(throws: SessionError.skillNotOffered(.kana, topic: "numbers.listen", offered: [.listening])) {
      try start(generator, skill: .kana, mode: .infinite)
    }
  }

  @Test func limitsMustBePositive() throws {
    #expect(throws: SessionError.self) { try start(Fixtures.months(), mode: .questionLimit(0)) }
    #expect(throws: SessionError.self) { try start(Fixtures.months(), mode: .timeLimit(seconds: -1)) }
    #expect(throws: SessionError.self) { try start(Fixtures.months(), mode: .timeLimit(seconds: .nan)) }
  }

  @Test func anUnreadableQuestionIsPassedOver() throws {
    let generator = try NumberPhraseGenerator(range: 9...11, phrasing: .counted(.tsu))
      .generator(for: Fixtures.topic("counters.tsu", .counter))
    // 11つ cannot be read: it is passed over, and 9つ and 10つ go on being asked.
    var (session, _, dependencies) = try start(generator, mode: .infinite, seed: 3)
    for _ in 0..<20 {
      let question = try #require(session.current, "the session ended: \(String(describing: session.endReason))")
      #expect(question.answer.value != 11)
      _ = Session.reduce(&session, .skipRequested, dependencies)
    }
    #expect(!session.isFinished)
  }
}
