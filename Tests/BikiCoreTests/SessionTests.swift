import BikiJapanese
import BikiTestSupport
import Testing

@testable import BikiCore

@Suite struct SessionTests {
  let clock = ManualClock(at: 1000)

  func start(_ generator: QuestionGenerator, skill: Skill = .reading, mode: Session.Mode, seed: UInt64 = 1)
    throws -> (SessionRunner, [Session.Effect])
  {
    try SessionRunner.start(
      generator: generator, skill: skill, mode: mode, seed: seed, dependencies: Fixtures.dependencies(clock: clock))
  }

  /// Months, except that odd months cannot be made (as a pack question with an overflow or a
  /// date that did not exist cannot).
  func monthsFailingOnOddMonths() throws -> QuestionGenerator {
    let months = try Fixtures.months()
    return QuestionGenerator(topic: months.topic, spaceSize: months.spaceSize) { index throws(GenerationError) in
      let question = try months.question(seed: index)
      guard question.answer.value % 2 == 0 else { throw GenerationError(topicID: "dates.months", reason: "odd") }
      return question
    }
  }

  @Test func aQuestionThatCannotBeMadeCostsThatQuestionNotTheSession() throws {
    var (runner, _) = try start(monthsFailingOnOddMonths(), mode: .questionLimit(5))
    for _ in 0..<5 {
      let question = try #require(
        runner.state.current, "the session ended: \(String(describing: runner.state.endReason))")
      #expect(question.answer.value % 2 == 0)
      _ = runner.send(.answerSubmitted(String(question.answer.value)))
    }
    #expect(runner.state.endReason == .questionLimitReached)
  }

  /// The reducer itself makes no question: it asks for one by index and is given it.
  @Test func theReducerAsksForQuestionsAndIsGivenThem() throws {
    let months = try Fixtures.months()
    let dependencies = Fixtures.dependencies(clock: clock)
    var (state, effects) = try Session.start(
      topic: months.topic, order: months.order(seed: 4), skill: .reading, mode: .infinite, seed: 4,
      dependencies: dependencies)
    #expect(state.current == nil)
    guard case .questionNeeded(let index)? = effects.last else {
      Issue.record("no question asked for: \(effects)")
      return
    }
    #expect(index < 12)
    // While it waits, answers are not taken.
    #expect(Session.reduce(&state, .answerSubmitted("1"), dependencies) == [])
    // Two failures ask for the next index each; a third in a row ends the session.
    let failure = GenerationError(topicID: "dates.months", reason: "broken")
    for _ in 0..<2 {
      guard case .questionNeeded? = Session.reduce(&state, .questionFailed(failure), dependencies).last else {
        Issue.record("no retry")
        return
      }
    }
    let question = try months.question(seed: 3)
    #expect(Session.reduce(&state, .questionArrived(question), dependencies) == [.questionPresented(question)])
    #expect(state.current == question)
    #expect(state.failedInARow == 0)
  }

  @Test func aTopicWhoseQuestionsKeepFailingEndsTheSessionWithTheReason() throws {
    let months = try Fixtures.months()
    let generator = QuestionGenerator(topic: months.topic, spaceSize: months.spaceSize) { _ throws(GenerationError) in
      throw GenerationError(topicID: "dates.months", reason: "broken")
    }
    #expect(throws: SessionError.self) { try start(generator, mode: .infinite) }
  }

  @Test func aCorrectAnswerIsRecordedAndTheNextQuestionPresented() throws {
    var (runner, effects) = try start(Fixtures.months(), mode: .questionLimit(3))
    let first = try #require(runner.state.current)
    #expect(
      effects == [
        .recorded(.started(topicID: "dates.months", skill: .reading, mode: .questionLimit(3), seed: 1)),
        .questionPresented(first),
      ])

    clock.advance(2.5)
    effects = runner.send(.answerSubmitted(String(first.answer.value)))
    let second = try #require(runner.state.current)
    #expect(
      effects == [
        .recorded(
          .answered(
            .init(
              topicID: "dates.months", seed: first.seed, skill: .reading, prompt: first.kanjiDisplay,
              expected: first.answer.display,
              given: String(first.answer.value), isCorrect: true, seconds: 2.5))),
        .questionPresented(second),
      ])
    #expect(runner.state.feedback == .correct())
    #expect(
      runner.state.progress
        == .init(completed: 1, correct: 1, incorrectAttempts: 0, skipped: 0, questionLimit: 3, timeLimit: nil))
    #expect(runner.state.results.map(\.seconds) == [2.5])
  }

  @Test func aWrongAnswerCanBeRetried() throws {
    var (runner, _) = try start(Fixtures.months(), mode: .questionLimit(2))
    let question = try #require(runner.state.current)
    let wrong = String(question.answer.value % 12 + 1)

    clock.advance(1)
    var effects = runner.send(.answerSubmitted(wrong))
    #expect(
      effects == [
        .recorded(
          .answered(
            .init(
              topicID: "dates.months", seed: question.seed, skill: .reading, prompt: question.kanjiDisplay,
              expected: question.answer.display,
              given: wrong, isCorrect: false, seconds: 1)))
      ])
    #expect(runner.state.current == question)
    #expect(runner.state.feedback == .incorrect(expected: question.answer.display))
    #expect(runner.state.currentWrongAnswers == [wrong])
    #expect(runner.state.progress.incorrectAttempts == 1)

    clock.advance(1)
    effects = runner.send(.answerSubmitted("\(question.answer.value)月"))
    #expect(effects.count == 2)
    #expect(runner.state.results.first?.wrongAnswers == [wrong])
    #expect(runner.state.results.first?.attempts == 2)
    #expect(runner.state.results.first?.seconds == 2)
    #expect(runner.state.results.first?.wasMissed == true)
  }

  @Test func skipRevealsTheAnswerRecordsTheSkipAndMovesOn() throws {
    var (runner, _) = try start(Fixtures.months(), skill: .kana, mode: .infinite)
    let question = try #require(runner.state.current)
    clock.advance(4)
    let effects = runner.send(.skipRequested)
    #expect(runner.state.feedback == .skipped(expected: question.reading.description))
    let skip = Session.AnswerRecord(
      topicID: "dates.months", seed: question.seed, skill: .kana, prompt: question.display,
      expected: question.reading.description, given: "",
      isCorrect: false, skipped: true, seconds: 4)
    #expect(effects == [.recorded(.answered(skip)), .questionPresented(runner.state.current!)])
    #expect(runner.state.results.map(\.outcome) == [.skipped])
    #expect(runner.state.progress.skipped == 1)
  }

  @Test func theQuestionLimitEndsTheSessionWithASummary() throws {
    var (runner, _) = try start(Fixtures.months(), mode: .questionLimit(2))
    clock.advance(3)
    _ = runner.send(.answerSubmitted("x"))
    _ = runner.send(.answerSubmitted(String(runner.state.current!.answer.value)))
    clock.advance(1)
    let effects = runner.send(.skipRequested)
    #expect(runner.state.isFinished)
    #expect(runner.state.current == nil)
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
    #expect(runner.send(.answerSubmitted("1")) == [])
  }

  @Test func theTimeLimitEndsOnATick() throws {
    var (runner, _) = try start(Fixtures.months(), mode: .timeLimit(seconds: 60))
    clock.advance(59.9)
    #expect(runner.send(.clockTicked) == [])
    #expect(!runner.state.isFinished)
    clock.advance(0.1)
    let effects = runner.send(.clockTicked)
    #expect(runner.state.endReason == .timeUp)
    #expect(effects.first == .recorded(.ended(topicID: "dates.months", reason: .timeUp, questions: 0, correct: 0)))
    guard case .sessionFinished(let summary) = effects.last else {
      Issue.record("no summary")
      return
    }
    #expect(summary.totalSeconds == 60)
  }

  @Test func anAnswerAfterTheDeadlineDoesNotCount() throws {
    var (runner, _) = try start(Fixtures.months(), mode: .timeLimit(seconds: 10))
    clock.advance(11)
    let effects = runner.send(.answerSubmitted(String(runner.state.current!.answer.value)))
    #expect(runner.state.endReason == .timeUp)
    #expect(runner.state.results.isEmpty)
    #expect(effects.count == 2)  // the end recorded, and the summary: no answer
  }

  @Test func endingMidQuestionKeepsItsWrongAnswers() throws {
    var (runner, _) = try start(Fixtures.months(), mode: .infinite)
    _ = runner.send(.answerSubmitted("13"))
    _ = runner.send(.endRequested)
    #expect(runner.state.endReason == .endedByLearner)
    #expect(runner.state.results.map(\.outcome) == [.unanswered])
  }

  @Test func aTwelveMonthTopicShowsAllTwelveBeforeAnyRepeat() throws {
    var (runner, _) = try start(Fixtures.months(), mode: .infinite, seed: 2024)
    var seen = [runner.state.current!.answer.value]
    for _ in 1..<24 {
      _ = runner.send(.skipRequested)
      seen.append(runner.state.current!.answer.value)
    }
    #expect(Set(seen.prefix(12)) == Set(1...12))
    #expect(Set(seen.suffix(12)) == Set(1...12))
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 != $1 })
  }

  @Test func aSeedReplaysTheSameSession() throws {
    func run(seed: UInt64) throws -> [String] {
      var (runner, _) = try start(Fixtures.money(), mode: .questionLimit(20), seed: seed)
      var shown: [String] = []
      while let question = runner.state.current {
        shown.append(question.display)
        _ = runner.send(.skipRequested)
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
    var (runner, _) = try start(generator, mode: .infinite, seed: 3)
    for _ in 0..<20 {
      let question = try #require(
        runner.state.current, "the session ended: \(String(describing: runner.state.endReason))")
      #expect(question.answer.value != 11)
      _ = runner.send(.skipRequested)
    }
    #expect(!runner.state.isFinished)
  }
}
