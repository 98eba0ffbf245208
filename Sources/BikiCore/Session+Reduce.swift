extension Session {
  /// A new session, waiting for its first question: the effects record its start and ask for
  /// the question at the first index of its order.
  package static func start(
    topic: Topic, order: QuestionOrder, skill: Skill, mode: Mode, seed: UInt64, strict: Bool = false,
    dependencies: Dependencies
  ) throws(SessionError) -> (State, [Effect]) {
    guard topic.skills.contains(skill) else {
      throw .skillNotOffered(skill, topic: topic.id, offered: topic.skills)
    }
    switch mode {
    case .questionLimit(let limit) where limit < 1:
      throw .invalidLimit("a question limit must be at least 1, not \(limit)")
    case .timeLimit(let seconds) where !(seconds > 0 && seconds.isFinite):
      throw .invalidLimit("a time limit must be a positive number of seconds, not \(seconds)")
    case .rounds(let questions) where questions < 1:
      throw .invalidLimit("there is nothing to ask again")
    default: break
    }
    let now = dependencies.now()
    var state = State(
      topicID: topic.id, skill: skill, mode: mode, seed: seed, order: order, current: nil, questionStartedAt: now,
      startedAt: now)
    if case .rounds(let questions) = mode { state.rounds = Rounds(questions: questions) }
    state.strict = strict
    let first = askNext(&state, now: now)
    return (state, [.recorded(.started(topicID: topic.id, skill: skill, mode: mode, seed: seed))] + first)
  }

  /// Asks for the next question: the next in the topic's order, or in a `rounds` session the
  /// next of its round, ending the session once a round has missed nothing.
  private static func askNext(_ state: inout State, now: Double) -> [Effect] {
    guard state.rounds != nil else { return [.questionNeeded(index: state.order.next())] }
    guard let index = state.rounds?.next() else { return finish(&state, .allRight, now: now) }
    return [.questionNeeded(index: index)]
  }

  package static func reduce(_ state: inout State, _ action: Action, _ dependencies: Dependencies) -> [Effect] {
    guard !state.isFinished else { return [] }
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
    case .questionArrived(let question):
      guard state.current == nil else { return [] }
      state.current = question
      state.failedInARow = 0
      state.questionStartedAt = now
      return [.questionPresented(question)]
    case .questionFailed(let error):
      guard state.current == nil else { return [] }
      // A question that cannot be made costs that question, not the session: the next in the
      // order is asked for, up to `generationAttempts` in a row.
      state.failedInARow += 1
      guard state.failedInARow < generationAttempts else {
        return finish(&state, .generationFailed(error.description), now: now)
      }
      // In rounds, a question that cannot be made is not asked again.
      state.rounds?.close(missed: false)
      return [.questionSkipped(error)] + askNext(&state, now: now)
    case .skipRequested:
      guard let question = state.current else { return [] }
      state.feedback = .skipped(expected: question.expected(for: state.skill))
      let record = answerRecord(question, state, given: "", isCorrect: false, skipped: true, now: now)
      return [.recorded(.answered(record))] + complete(&state, .skipped, now: now)
    case .answerSubmitted(let input):
      guard let question = state.current else { return [] }
      let verdict = AnswerChecker.check(input, against: question, skill: state.skill, strict: state.strict)
      guard verdict.isRead else {
        state.feedback = .unread(hint: verdict.hint ?? "")
        return []
      }
      let record = answerRecord(question, state, given: input, isCorrect: verdict.isCorrect, skipped: false, now: now)
      guard verdict.isCorrect else {
        state.currentWrongAnswers.append(input)
        state.feedback = .incorrect(expected: verdict.expected, hint: verdict.hint)
        return [.recorded(.answered(record))]
      }
      state.feedback = .correct(
        matched: verdict.matched, standard: verdict.standard, uncommon: verdict.isUncommon, readAs: verdict.readAs)
      return [.recorded(.answered(record))] + complete(&state, .correct, now: now)
    }
  }

  private static func answerRecord(
    _ question: Question, _ state: State, given: String, isCorrect: Bool, skipped: Bool, now: Double
  ) -> AnswerRecord {
    AnswerRecord(
      topicID: question.topicID, seed: question.seed, skill: state.skill, prompt: question.prompt(for: state.skill),
      expected: question.expected(for: state.skill), given: given, isCorrect: isCorrect, skipped: skipped,
      seconds: now - state.questionStartedAt,
      isFirstAttempt: state.currentWrongAnswers.isEmpty, forms: question.forms)
  }

  /// Closes the current question and asks for the next, unless the session is over.
  private static func complete(_ state: inout State, _ outcome: QuestionResult.Outcome, now: Double) -> [Effect] {
    guard let question = state.current else { return [] }
    state.record(
      QuestionResult(
        question: question, outcome: outcome, wrongAnswers: state.currentWrongAnswers,
        seconds: now - state.questionStartedAt))
    state.rounds?.close(missed: outcome != .correct || !state.currentWrongAnswers.isEmpty)
    state.currentWrongAnswers = []
    state.current = nil
    if case .questionLimit(let limit) = state.mode, state.results.count >= limit {
      return finish(&state, .questionLimitReached, now: now)
    }
    return askNext(&state, now: now)
  }

  /// How many questions in a row may fail before a session gives up.
  static let generationAttempts = 3

  private static func finish(_ state: inout State, _ reason: EndReason, now: Double) -> [Effect] {
    if let open = state.current, !state.currentWrongAnswers.isEmpty {
      state.record(
        QuestionResult(
          question: open, outcome: .unanswered, wrongAnswers: state.currentWrongAnswers,
          seconds: now - state.questionStartedAt))
      state.currentWrongAnswers = []
    }
    state.current = nil
    state.endReason = reason
    let summary = summary(of: state, now: now)
    return [
      .recorded(.ended(topicID: state.topicID, reason: reason, questions: summary.questions, correct: summary.correct)),
      .sessionFinished(summary),
    ]
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
      missed: results.filter(\.wasMissed), rounds: state.rounds?.number)
  }
}

/// The shell around the session reducer: it makes the questions the reducer asks for, with the
/// topic's generator, and hands back everything else for its caller to carry out (present,
/// record, summarise). `biki quiz` and `biki serve` both drive sessions through it: `biki quiz`
/// makes every question in place; `biki serve` makes a pack's in place and a plugin's off its
/// message loop, so making may stop at a question and carry on when it arrives.
package struct SessionRunner: Sendable {
  package private(set) var state: Session.State
  package let generator: QuestionGenerator
  let dependencies: Session.Dependencies
  /// The effects that follow a question being made elsewhere, carried out once it arrives.
  private var afterQuestion: [Session.Effect] = []

  /// How a question the reducer asks for is made: in place (its result), or elsewhere (nil),
  /// to be sent back with `arrived`.
  package typealias Maker = (_ index: UInt64) -> Result<Question, GenerationError>?

  /// What carrying out effects came to: every effect but the questions made, in order, and
  /// the index of the question being made elsewhere, if carrying out stopped at one.
  package struct Progress {
    package var effects: [Session.Effect]
    package var waitingFor: UInt64?
  }

  package init(state: Session.State, generator: QuestionGenerator, dependencies: Session.Dependencies) {
    self.state = state
    self.generator = generator
    self.dependencies = dependencies
  }

  /// Starts a session and makes its first question. A topic whose first questions all fail is
  /// refused with `generationFailed`, as there is nothing to ask.
  package static func start(
    generator: QuestionGenerator, skill: Skill, mode: Session.Mode, seed: UInt64, strict: Bool = false,
    dependencies: Session.Dependencies
  ) throws(SessionError) -> (SessionRunner, [Session.Effect]) {
    let (state, effects) = try Session.start(
      topic: generator.topic, order: generator.order(seed: seed), skill: skill, mode: mode, seed: seed, strict: strict,
      dependencies: dependencies)
    var runner = SessionRunner(state: state, generator: generator, dependencies: dependencies)
    let all = runner.carryOut(effects, making: runner.inPlace).effects
    if runner.state.isFinished, case .generationFailed(let reason)? = runner.state.endReason {
      throw .generationFailed(GenerationError(topicID: generator.topic.id, reason: reason))
    }
    return (runner, all)
  }

  /// Reduces an action; questions asked for are made before this returns.
  package mutating func send(_ action: Session.Action) -> [Session.Effect] {
    send(action, making: inPlace).effects
  }

  /// Reduces an action, leaving the questions it asks for to `carryOut`: the state between the
  /// two is the answer's (its feedback), before the next question arrives.
  package mutating func reduce(_ action: Session.Action) -> [Session.Effect] {
    Session.reduce(&state, action, dependencies)
  }

  /// Reduces an action and carries out its effects, making questions with `make`.
  package mutating func send(_ action: Session.Action, making make: Maker) -> Progress {
    carryOut(Session.reduce(&state, action, dependencies), making: make)
  }

  /// The question made elsewhere has arrived (or failed): carries on where carrying out stopped.
  package mutating func arrived(_ made: Result<Question, GenerationError>, making make: Maker) -> Progress {
    let rest = afterQuestion
    afterQuestion = []
    return carryOut(Session.reduce(&state, Self.arrival(made), dependencies) + rest, making: make)
  }

  /// Makes every question in place.
  private var inPlace: Maker {
    { [generator] index in Result { () throws(GenerationError) in try generator.questionWithForms(seed: index) } }
  }

  static func arrival(_ made: Result<Question, GenerationError>) -> Session.Action {
    switch made {
    case .success(let question): .questionArrived(question)
    case .failure(let error): .questionFailed(error)
    }
  }

  /// Carries out `questionNeeded` effects (in order, as they appear) and returns every other
  /// effect, including those the made questions lead to; stops at a question `make` makes
  /// elsewhere, keeping what follows it.
  package mutating func carryOut(_ effects: [Session.Effect], making make: Maker) -> Progress {
    var pending = effects[...]
    var handed: [Session.Effect] = []
    while let effect = pending.popFirst() {
      guard case .questionNeeded(let index) = effect else {
        handed.append(effect)
        continue
      }
      guard let made = make(index) else {
        afterQuestion = Array(pending)
        return Progress(effects: handed, waitingFor: index)
      }
      pending = Session.reduce(&state, Self.arrival(made), dependencies)[...] + pending
    }
    return Progress(effects: handed, waitingFor: nil)
  }
}
