extension Session {
  /// A new session and the effect that presents its first question.
  public static func start(
    skill: Skill, mode: Mode, seed: UInt64, dependencies: Dependencies
  ) throws(SessionError) -> (State, [Effect]) {
    let topic = dependencies.generator.topic
    guard topic.skills.contains(skill) else {
      throw .skillNotOffered(skill, topic: topic.id, offered: topic.skills)
    }
    switch mode {
    case .questionLimit(let limit) where limit < 1:
      throw .invalidLimit("a question limit must be at least 1, not \(limit)")
    case .timeLimit(let seconds) where !(seconds > 0 && seconds.isFinite):
      throw .invalidLimit("a time limit must be a positive number of seconds, not \(seconds)")
    default: break
    }
    let now = dependencies.now()
    var order = QuestionOrder(count: dependencies.generator.spaceSize, seed: seed)
    let question: Question
    do {
      question = try nextQuestion(&order, dependencies)
    } catch {
      throw .generationFailed(error)
    }
    let state = State(
      topicID: topic.id, skill: skill, mode: mode, seed: seed, order: order, current: question,
      questionStartedAt: now, startedAt: now)
    return (state, [.questionPresented(question)])
  }

  public static func reduce(_ state: inout State, _ action: Action, _ dependencies: Dependencies) -> [Effect] {
    guard let question = state.current else { return [] }
    let now = dependencies.now()
    if case .timeLimit(let seconds) = state.mode, now - state.startedAt >= seconds {
      // An answer that arrives after the deadline does not count.
      return finish(&state, .timeUp, now: now)
    }
    switch action {
    case .clockTicked:
      return []
    case .endRequested:
      return finish(&state, .endedByLearner, now: now)
    case .skipRequested:
      state.feedback = .skipped(expected: question.expected(for: state.skill))
      return complete(&state, .skipped, now: now, dependencies)
    case .answerSubmitted(let input):
      let verdict = AnswerChecker.check(input, against: question, skill: state.skill)
      let record = AnswerRecord(
        topicID: question.topicID, seed: question.seed, skill: state.skill, given: input,
        isCorrect: verdict.isCorrect, seconds: now - state.questionStartedAt)
      guard verdict.isCorrect else {
        state.currentWrongAnswers.append(input)
        state.feedback = .incorrect(expected: verdict.expected)
        return [.answerRecorded(record)]
      }
      state.feedback = .correct
      return [.answerRecorded(record)] + complete(&state, .correct, now: now, dependencies)
    }
  }

  /// Closes the current question and asks the next, unless the session is over.
  private static func complete(
    _ state: inout State, _ outcome: QuestionResult.Outcome, now: Double, _ dependencies: Dependencies
  ) -> [Effect] {
    state.results.append(
      QuestionResult(
        question: state.current!, outcome: outcome, wrongAnswers: state.currentWrongAnswers,
        seconds: now - state.questionStartedAt))
    state.currentWrongAnswers = []
    if case .questionLimit(let limit) = state.mode, state.results.count >= limit {
      return finish(&state, .questionLimitReached, now: now)
    }
    do {
      let next = try nextQuestion(&state.order, dependencies)
      state.current = next
      state.questionStartedAt = now
      return [.questionPresented(next)]
    } catch {
      return finish(&state, .generationFailed(error.description), now: now)
    }
  }

  /// A question that cannot be made costs that question, not the session: the next in the
  /// order is tried, up to `generationAttempts` in all.
  static func nextQuestion(_ order: inout QuestionOrder, _ dependencies: Dependencies) throws(GenerationError) -> Question {
    var lastError: GenerationError?
    for _ in 0..<generationAttempts {
      do {
        return try dependencies.generator.question(seed: order.next())
      } catch {
        lastError = error
      }
    }
    throw lastError ?? GenerationError(topicID: dependencies.generator.topic.id, reason: "no question could be made")
  }

  /// How many questions in a row may fail before a session gives up.
  public static let generationAttempts = 3

  private static func finish(_ state: inout State, _ reason: EndReason, now: Double) -> [Effect] {
    if let open = state.current, !state.currentWrongAnswers.isEmpty {
      state.results.append(
        QuestionResult(
          question: open, outcome: .unanswered, wrongAnswers: state.currentWrongAnswers,
          seconds: now - state.questionStartedAt))
      state.currentWrongAnswers = []
    }
    state.current = nil
    state.endReason = reason
    return [.sessionFinished(summary(of: state, now: now))]
  }

  static func summary(of state: State, now: Double) -> Summary {
    let results = state.results
    return Summary(
      topicID: state.topicID, endReason: state.endReason ?? .endedByLearner, questions: results.count,
      correct: results.filter { $0.outcome == .correct }.count,
      correctFirstTry: results.filter { $0.outcome == .correct && $0.wrongAnswers.isEmpty }.count,
      incorrectAttempts: results.reduce(0) { $0 + $1.wrongAnswers.count },
      skipped: results.filter { $0.outcome == .skipped }.count,
      attempts: results.reduce(0) { $0 + $1.attempts },
      totalSeconds: now - state.startedAt,
      secondsPerQuestion: results.map(\.seconds),
      missed: results.filter(\.wasMissed))
  }
}
