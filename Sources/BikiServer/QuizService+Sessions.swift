import BikiCore
import BikiHost
import BikiJSON
import BikiPractice
import BikiProtocol

extension QuizService {
  // MARK: Starting

  /// Decodes the request on the loop; makes the generator there for a pack's topic, off the loop
  /// when that runs a plugin's code or reads the history (a review).
  mutating func startSession(
    _ replyID: RequestID, _ request: StartSessionRequest, open: inout OpenRequests, outbox: inout [OutgoingMessage]
  ) throws(ResponseError) -> Reply {
    try checkRoomForSession(open)
    let seed = request.seed ?? dependencies.seeds.next()
    let plan: @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Result<SessionPlan, ResponseError>
    switch request.kind {
    case .topic(let topicID, let mode):
      let entry = try topic(id: topicID)
      guard entry.registered.callsPlugin else {
        return try install(
          replyID, try Self.plan(entry, request, mode: mode, seed: seed), open: &open, outbox: &outbox)
      }
      plan = { _ in Result { () throws(ResponseError) in try Self.plan(entry, request, mode: mode, seed: seed) } }
    case .review(let topicID, let count):
      let chosen =
        try topicID.map { id throws(ResponseError) in [try topic(id: id).registered] } ?? catalog.registry.topics
      let dependencies = dependencies
      let skill = request.skill ?? .kana
      plan = { _ in
        Result { () throws(ResponseError) in
          var plan = try Self.reviewPlan(chosen, skill: skill, count: count, seed: seed, dependencies)
          plan.strict = request.strict
          plan.speech = request.speech
          plan.record = request.record
          return plan
        }
      }
    case .missed(let topicID, let sinceDays):
      let chosen =
        try topicID.map { id throws(ResponseError) in [try topic(id: id).registered] } ?? catalog.registry.topics
      let dependencies = dependencies
      let skill = request.skill
      plan = { _ in
        Result { () throws(ResponseError) in
          var plan = try Self.missedPlan(chosen, skill: skill, sinceDays: sinceDays, seed: seed, dependencies)
          plan.strict = request.strict
          plan.speech = request.speech
          plan.record = request.record
          return plan
        }
      }
    }
    sessionsStarted += 1
    let ticket = dependencies.background.start(plan, reporting: { .plan(replyID, $0, $1) }, to: mailbox)
    open.add(replyID, .plan(session: "s\(sessionsStarted)", ticket))
    return .later
  }

  private func checkRoomForSession(_ open: OpenRequests) throws(ResponseError) {
    guard sessions.count + open.sessionsBeingPrepared < QuizService.maximumOpenSessions else {
      throw .requestFailed("\(QuizService.maximumOpenSessions) sessions are open; end some with biki/endSession first")
    }
  }

  private static func plan(_ entry: CatalogEntry, _ request: StartSessionRequest, mode: Session.Mode, seed: UInt64)
    throws(ResponseError) -> SessionPlan
  {
    let generator = try generator(for: entry, parameters: request.parameters)
    let skills = entry.topic.skills
    let skill = request.skill ?? (skills.contains(.reading) ? .reading : skills.first ?? .reading)
    return SessionPlan(
      generator: generator, skill: skill, mode: mode, seed: seed, strict: request.strict, speech: request.speech,
      record: request.record)
  }

  /// A review: forms due first, then weak, then new, from the topics given.
  private static func reviewPlan(
    _ chosen: [RegisteredTopic], skill: Skill, count: Int, seed: UInt64, _ dependencies: ServerDependencies
  ) throws(ResponseError) -> SessionPlan {
    let generators = chosen.compactMap { try? $0.generator() }
    let plan = ReviewPlan.make(
      summary: dependencies.history.summary().summary, skill: skill, generators: generators,
      now: dependencies.wallClock(), seed: seed, count: count)
    let title = chosen.count == 1 ? "Review of \(chosen[0].topic.title)" : "Review of every topic"
    guard
      let planned = plan.generator(
        topic: Topic(id: "review", title: title, category: .number, skills: [skill]), generators: generators)
    else {
      throw .requestFailed("nothing to review with the \(skill.rawValue) skill")
    }
    return SessionPlan(generator: planned, skill: skill, mode: .questionLimit(plan.picks.count), seed: seed)
  }

  /// The questions missed in the last session (or the last `sinceDays` days), in rounds.
  private static func missedPlan(
    _ chosen: [RegisteredTopic], skill: Skill?, sinceDays: Double?, seed: UInt64, _ dependencies: ServerDependencies
  ) throws(ResponseError) -> SessionPlan {
    let again: MissedAgain
    do throws(MissedAgain.Failure) {
      again = try MissedAgain.make(
        history: dependencies.history, topics: Set(chosen.map(\.topic.id)),
        generator: { id in try? chosen.first { $0.topic.id == id }?.generator() }, skill: skill,
        sinceDays: sinceDays, now: dependencies.wallClock())
    } catch {
      throw .requestFailed(error.description)
    }
    return SessionPlan(generator: again.generator, skill: again.skill, mode: again.mode, seed: seed)
  }

  /// Opens a session from its plan and asks for its first question. `reserved` is the id given
  /// when the start arrived, for a session prepared off the loop. Room for it was checked then.
  mutating func install(
    _ replyID: RequestID, _ plan: SessionPlan, reserved: String? = nil, open: inout OpenRequests,
    outbox: inout [OutgoingMessage]
  ) throws(ResponseError) -> Reply {
    let (state, effects): (Session.State, [Session.Effect])
    do {
      (state, effects) = try Session.start(
        topic: plan.generator.topic, order: plan.generator.order(seed: plan.seed), skill: plan.skill, mode: plan.mode,
        seed: plan.seed, strict: plan.strict, dependencies: sessionDependencies)
    } catch {
      // The field at fault first, as every invalid-params message says it.
      switch error {
      case .skillNotOffered: throw .invalidParams("\"skill\": \(error.description)")
      case .invalidLimit: throw .invalidParams("\"mode\": \(error.description)")
      case .generationFailed: throw .invalidParams(error.description)
      }
    }
    let id: String
    if let reserved {
      id = reserved
    } else {
      sessionsStarted += 1
      id = "s\(sessionsStarted)"
    }
    if case .timeLimit(let seconds) = plan.mode { timeLimits[id] = state.startedAt + seconds }
    if let speech = plan.speech { speechChoices[id] = speech }
    if !plan.record { unrecorded.insert(id) }
    let reply = WaitingReply(
      id: replyID, head: .start(sessionID: id, topicID: plan.generator.topic.id, skill: plan.skill, seed: plan.seed))
    var runner = SessionRunner(state: state, generator: plan.generator, dependencies: sessionDependencies)
    let progress = runner.carryOut(effects, making: Self.maker(plan.generator))
    return try advance(id, runner, progress, reply, open: &open, outbox: &outbox)
  }

  /// Makes a session's question where its source can give it at once (a pack's, a plugin's
  /// made ahead); nil for one that must be made off the loop, which `advance` does.
  static func maker(_ generator: QuestionGenerator) -> SessionRunner.Maker {
    { index in generator.questionAtHand(seed: index) }
  }

  // MARK: Answering

  /// The open session a request names, with the question it is asking, taken out of the
  /// table while the request is handled: its runner is then the only copy of the session's
  /// state, which grows with every question a long session asks, and is changed in place rather
  /// than copied at every step. `advance` puts it back (`restore`, when the request fails before
  /// that). Nil when the session is making its next question: the request then waits in the
  /// session's queue.
  private mutating func askingSession(_ request: QueuedRequest, open: inout OpenRequests) throws(ResponseError) -> (
    id: String, runner: SessionRunner, question: Question
  )? {
    let id = request.sessionID
    if open.start(of: id) != nil {
      try queue(request, open: &open)
      return nil
    }
    guard let stage = sessions[id]?.stage else {
      let ended = finished.contains { $0.id == id }
      throw .invalidParams(
        "\"sessionId\": \(ended ? "session \"\(id)\" has finished; biki/endSession returns its summary" : "no open session \"\(id.prefix(80))\"")"
      )
    }
    switch stage {
    case .asking(let question):
      guard let session = sessions.removeValue(forKey: id) else { return nil }
      return (id, session.runner, question)
    case .making:
      try queue(request, open: &open)
      return nil
    }
  }

  /// Puts back a session `askingSession` took out, for a request that failed before its step.
  private mutating func restore(_ id: String, _ runner: SessionRunner, asking question: Question) {
    sessions[id] = OpenSession(runner: runner, stage: .asking(question))
  }

  /// Puts an answer or skip in its session's queue, to be handled once the question is there.
  private func queue(_ request: QueuedRequest, open: inout OpenRequests) throws(ResponseError) {
    guard open.turns(of: request.sessionID).count < QuizService.maximumQueuedPerSession else {
      throw Self.queueFull(request.sessionID)
    }
    open.add(request.id, .turn(request))
  }

  private static func queueFull(_ id: String) -> ResponseError {
    .requestFailed(
      "session \"\(id)\" has \(QuizService.maximumQueuedPerSession) requests waiting for its next question; wait for their responses"
    )
  }

  mutating func answer(
    _ replyID: RequestID, _ request: AnswerRequest, open: inout OpenRequests, outbox: inout [OutgoingMessage]
  ) throws(ResponseError) -> Reply {
    if let late = stepAfterTimeUp(request.sessionID) {
      return .result(AnswerResponse(verdict: .timeUp, expected: nil, standard: nil, hint: nil, step: late).json)
    }
    guard
      case (let id, var runner, let question)? = try askingSession(
        QueuedRequest(id: replyID, kind: .answer(request)), open: &open)
    else {
      return .later
    }
    let given: String
    switch request.answer {
    case .success(let typed): given = typed
    case .failure(let error):
      restore(id, runner, asking: question)
      throw error
    }
    let effects = runner.reduce(.answerSubmitted(given))
    // Read before the runner changes again: a copy of its state held across a change would
    // copy the whole state.
    let (feedback, skill) = (runner.state.feedback, runner.state.skill)
    var verdict = Verdict.timeUp
    for case .recorded(.answered(let answer)) in effects { verdict = answer.isCorrect ? .correct : .incorrect }
    var (expected, standard, uncommon, hint): (RevealedAnswer?, String?, Bool, String?) = (nil, nil, false, nil)
    var readAs: String?
    // A wrong answer leaves the question open for another try, so the answer stays hidden; a
    // hint says how to answer (digits, kana). A right one shows the reading it matched (of the
    // counter the learner chose) and, for another form than the standard, the standard.
    switch feedback {
    case .correct(let matched, let standardForm, let isUncommon, let romaji)?:
      expected = RevealedAnswer(question, skill: skill, matched: matched)
      standard = standardForm
      uncommon = isUncommon
      readAs = romaji
    case .incorrect(_, let wrongKind?)? where verdict == .incorrect:
      hint = wrongKind
    case .unread(let why)? where effects.isEmpty:
      // Not an answer at all, and not counted: said as incorrect, with why.
      verdict = .incorrect
      hint = why
    default: break
    }
    let progress = runner.carryOut(effects, making: Self.maker(runner.generator))
    let reply = WaitingReply(
      id: replyID,
      head: .answer(verdict, expected: expected, standard: standard, uncommon: uncommon, hint: hint, readAs: readAs))
    return try advance(id, runner, progress, reply, open: &open, outbox: &outbox)
  }

  mutating func skip(
    _ replyID: RequestID, _ request: SkipRequest, open: inout OpenRequests, outbox: inout [OutgoingMessage]
  ) throws(ResponseError) -> Reply {
    if let late = stepAfterTimeUp(request.sessionID) {
      return .result(SkipResponse(verdict: .timeUp, expected: nil, step: late).json)
    }
    guard
      case (let id, var runner, let question)? = try askingSession(
        QueuedRequest(id: replyID, kind: .skip(request)), open: &open)
    else {
      return .later
    }
    let effects = runner.reduce(.skipRequested)
    var expected: RevealedAnswer?
    // After the time limit the skip does not count and nothing is revealed.
    for case .recorded(.answered(let skip)) in effects where skip.skipped {
      expected = RevealedAnswer(question, skill: runner.state.skill)
    }
    let progress = runner.carryOut(effects, making: Self.maker(runner.generator))
    return try advance(
      id, runner, progress, WaitingReply(id: replyID, head: .skip(expected: expected)), open: &open, outbox: &outbox)
  }

  /// The response to an answer or skip that reached a session whose time ran out before it: the
  /// learner typed in time to see the question but not to beat the clock, so the answer gets
  /// the verdict `timeUp` and the summary, as if the clock had run out on receipt.
  private func stepAfterTimeUp(_ id: String) -> SessionStep? {
    guard sessions[id] == nil, let ended = finished.last(where: { $0.id == id }), ended.timeRanOut else { return nil }
    return SessionStep(question: nil, summary: ended.summary, progress: ended.progress, finished: true)
  }

  // MARK: Carrying out what the reducer asks

  /// Carries out what the session runner hands back: writes its records, builds the waiting
  /// response, and makes off the loop the plugin question the runner stopped at (answering
  /// `.later`); once the session has its next question or has ended, the response to `reply`.
  mutating func advance(
    _ id: String, _ runner: SessionRunner, _ progress: SessionRunner.Progress, _ reply: WaitingReply,
    open: inout OpenRequests, outbox: inout [OutgoingMessage]
  ) throws(ResponseError) -> Reply {
    var reply = reply
    var (question, summary): (OpenQuestion?, SessionSummary?) = (nil, nil)
    for effect in progress.effects {
      switch effect {
      case .recorded(let record):
        if reply.startsSession { reply.unwritten.append(record) } else { write(record, of: id, outbox: &outbox) }
      case .questionNeeded: break  // made by the runner
      case .questionSkipped: break  // the next is asked; a session that cannot go on finishes, saying why
      case .questionPresented(let presented):
        let state = runner.state
        question = OpenQuestion(presented, number: state.results.count + 1, skill: state.skill)
        if state.skill == .listening { prepareSpeech(presented, for: id, after: state.order, runner.generator) }
      case .sessionFinished(let finished):
        if reply.startsSession, runner.state.results.isEmpty, case .generationFailed(let reason) = finished.endReason {
          // Nothing was asked: the start fails, and the session is not kept.
          remove(id)
          throw .requestFailed(reason)
        }
        summary = close(id, summary: finished, state: runner.state)
      }
    }
    if let index = progress.waitingFor {
      // A plugin's question not made yet: made off the loop, and the next few made ahead once
      // it is here (`questionMade`), as it comes first.
      let (generator, replyID) = (runner.generator, reply.id)
      let make: @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Result<Question, GenerationError> = { _ in
        Result { () throws(GenerationError) in try generator.questionWithForms(seed: index) }
      }
      let ticket = dependencies.background.start(make, reporting: { .question(replyID, $0, $1) }, to: mailbox)
      sessions[id] = OpenSession(runner: runner, stage: .making(reply.id))
      open.add(reply.id, .question(session: id, ticket, reply))
      return .later
    }
    // Served in place: the next few questions are made while the learner answers, where the
    // source makes any ahead (a plugin's).
    makeAhead(sessionQuestionsAfter: runner.state.order, runner.generator)
    for record in reply.unwritten { write(record, of: id, outbox: &outbox) }
    let state = runner.state
    // The reducer's current question is the one asked: a new one, or the same after a wrong answer.
    if let asking = state.current, !state.isFinished {
      sessions[id] = OpenSession(runner: runner, stage: .asking(asking))
    } else {
      remove(id)
    }
    let step = SessionStep(
      question: question, summary: summary, progress: SessionProgress(state, now: dependencies.now()),
      finished: state.isFinished)
    return .result(reply.response(step))
  }

  /// Moves a finished session out of the table, keeping its summary for a late endSession.
  mutating func close(_ id: String, summary: Session.Summary, state: Session.State) -> SessionSummary {
    remove(id)
    let written = SessionSummary(summary, skill: state.skill)
    var timeRanOut = false
    if case .timeUp = summary.endReason { timeRanOut = true }
    finished.removeAll { $0.id == id }
    finished.append(
      FinishedSession(
        id: id, summary: written, progress: SessionProgress(state, now: dependencies.now()), timeRanOut: timeRanOut))
    if finished.count > QuizService.finishedKept { finished.removeFirst() }
    return written
  }

  mutating func remove(_ id: String) {
    sessions[id] = nil
    timeLimits[id] = nil
    // Audio made ahead for a session that is over is no longer wanted.
    speechChoices[id] = nil
    unrecorded.remove(id)
    dependencies.endSpeech(id)
  }

  // MARK: Ending

  mutating func endSession(_ request: EndSessionRequest, open: inout OpenRequests, outbox: inout [OutgoingMessage])
    throws(ResponseError) -> EndSessionResponse
  {
    let id = request.sessionID
    if let index = finished.firstIndex(where: { $0.id == id }) {
      return EndSessionResponse(summary: finished.remove(at: index).summary)
    }
    if let start = open.start(of: id) {
      // Nothing was asked yet: the start is told, and so is whatever was sent after it.
      start.work.cancel()
      open.remove(start.id)
      outbox.append(
        .error(
          id: start.id, .requestFailed("session \"\(id)\" was ended by biki/endSession before its first question")))
      replay(session: id, open: &open, outbox: &outbox)
      return EndSessionResponse(summary: nil)
    }
    guard let session = sessions[id] else {
      throw .invalidParams("\"sessionId\": no open session \"\(id.prefix(80))\"")
    }
    if case .making(let replyID) = session.stage, case .question(_, let ticket, let reply)? = open[replyID] {
      // The requests waiting for the next question get the summary too, and are not left hanging.
      ticket.cancel()
      var runner = session.runner
      let progress = runner.carryOut(runner.reduce(.endRequested), making: Self.maker(runner.generator))
      settle(id, runner, progress, reply, open: &open, outbox: &outbox)
      guard let index = finished.firstIndex(where: { $0.id == id }) else { return EndSessionResponse(summary: nil) }
      return EndSessionResponse(summary: finished.remove(at: index).summary)
    }
    var state = session.state
    let effects = Session.reduce(&state, .endRequested, sessionDependencies)
    for case .recorded(let record) in effects { write(record, of: id, outbox: &outbox) }
    remove(id)
    for case .sessionFinished(let summary) in effects {
      return EndSessionResponse(summary: SessionSummary(summary, skill: state.skill))
    }
    return EndSessionResponse(summary: nil)
  }

  /// Ends time-limited sessions whose time is up. A session asking a question tells the client
  /// with `biki/sessionFinished`; one still making a question answers the request waiting for
  /// it with the summary instead (a start whose time ran out before its first question included).
  mutating func finishTimedOutSessions(now: Double, open: inout OpenRequests, outbox: inout [OutgoingMessage]) {
    for (id, deadline) in timeLimits where deadline <= now {
      guard let session = sessions[id] else { continue }
      var runner = session.runner
      let effects = runner.reduce(.clockTicked)
      guard !effects.isEmpty else { continue }
      let state = runner.state
      switch session.stage {
      case .making(let replyID):
        guard case .question(_, let ticket, let reply)? = open[replyID] else { continue }
        ticket.cancel()
        settle(
          id, runner, runner.carryOut(effects, making: Self.maker(runner.generator)), reply, open: &open,
          outbox: &outbox)
      case .asking:
        for case .recorded(let record) in effects { write(record, of: id, outbox: &outbox) }
        for case .sessionFinished(let summary) in effects {
          let notification = SessionFinishedNotification(
            sessionID: id, summary: close(id, summary: summary, state: state))
          outbox.append(.notification(method: "biki/sessionFinished", params: notification.json))
        }
      }
    }
  }
}
