import BikiCore
import BikiHost
import BikiJSON
import BikiPractice
import BikiProtocol

/// A session in the server's table. It is asking a question or making the next one, and its
/// stage says which: a handler reads the question from `.asking`, never from an optional.
struct OpenSession {
  var state: Session.State
  let generator: QuestionGenerator
  var stage: Stage

  enum Stage {
    /// The learner has this question in front of them.
    case asking(Question)
    /// The next question is being made off the loop (it runs a plugin's code).
    case making(NextQuestion)
  }
}

/// A session's next question being made off the loop, and the requests waiting for it.
struct NextQuestion {
  let job: Job<Result<Question, GenerationError>>
  /// The request that asked for it, answered when it is there.
  var reply: WaitingReply
  /// The session's requests that came in meanwhile (from a client that sends without waiting
  /// for each response), handled in order once it is there.
  var queued: [QueuedRequest] = []
}

/// A session whose generator is being made off the loop (its topic runs a plugin's code, or it
/// is a review that reads the history), with the request that starts it and the session's
/// requests sent meanwhile. Its id is given when the start arrives, so ids follow the order of
/// the requests.
struct PreparingSession {
  let job: Job<Result<SessionPlan, ResponseError>>
  var replyID: RequestID
  var queued: [QueuedRequest] = []
}

/// A `biki/generate` request for a plugin's questions, waiting for the loop's next pass to
/// start with the others read alongside it.
struct WaitingGenerate {
  /// The most questions one job makes for the requests it answers: a large batch is split, so
  /// the first answers do not wait for the last.
  static let questionsPerJob: Int64 = 256

  var replyID: RequestID
  var entry: CatalogEntry
  var parameters: [String: Int64]
  var seed: UInt64
  var count: Int64

  /// Requests that can share a job: the same topic entry and parameters.
  struct Batch: Hashable {
    var entry: ObjectIdentifier
    var parameters: [String: Int64]

    init(_ request: WaitingGenerate) {
      entry = ObjectIdentifier(request.entry)
      parameters = request.parameters
    }
  }
}

/// An answer or skip that reached a session while it was making its next question.
struct QueuedRequest {
  enum Kind {
    case answer(AnswerRequest)
    case skip(SkipRequest)
  }
  var id: RequestID
  var kind: Kind

  var sessionID: String {
    switch kind {
    case .answer(let answer): answer.sessionID
    case .skip(let skip): skip.sessionID
    }
  }
}

/// A request whose response waits for its session's next question (or its end).
struct WaitingReply {
  var id: RequestID
  /// What the response carries before the question: the session's ids for a start, the
  /// verdict for an answer.
  var members: [(String, JSON)]
  var startsSession: Bool
  /// A start's records, written once it has a question: a session that never starts (its
  /// topic cannot make a question) leaves nothing in the history.
  var unwritten: [Session.Record] = []
}

/// A session that ended by itself, kept for a while after.
struct FinishedSession {
  var id: String
  var summary: JSON
  var progress: JSON
  /// Whether it ended because its time limit passed (not by reaching its question limit).
  var timeRanOut: Bool
}

extension BikiServer {
  func topic(id: String) throws(ResponseError) -> CatalogEntry { try Self.topic(id: id, in: catalog) }

  static func topic(id: String, in catalog: Catalog) throws(ResponseError) -> CatalogEntry {
    guard let found = catalog.topic(id: id) else {
      let hint = catalog.suggestion(for: id).map { "; did you mean \"\($0)\"?" } ?? ""
      // Clients add where their users see the list (`:BikiTopics`, `biki topics`).
      throw .invalidParams("\"topicId\": no topic \"\(Excerpt.of(id, limit: 80))\"\(hint)")
    }
    return found
  }

  static func generator(for entry: CatalogEntry, parameters: [String: Int64]) throws(ResponseError) -> QuestionGenerator
  {
    do {
      return try entry.generator(parameters: parameters)
    } catch {
      throw .invalidParams("\"params\": \(error)")
    }
  }

  // MARK: Starting

  /// Decodes the request on the loop; makes the generator there for a pack's topic, off the loop
  /// when that runs a plugin's code or reads the history (a review).
  mutating func startSession(_ replyID: RequestID, _ request: StartSessionRequest, outbox: inout [OutgoingMessage])
    throws(ResponseError) -> Reply
  {
    try checkRoomForSession()
    let seed = request.seed ?? dependencies.seeds.next()
    let job: Job<Result<SessionPlan, ResponseError>>
    switch request.kind {
    case .topic(let topicID, let mode):
      let entry = try topic(id: topicID)
      guard entry.registered.callsPlugin else {
        return try install(replyID, try Self.plan(entry, request, mode: mode, seed: seed), outbox: &outbox)
      }
      job = dependencies.background.start { _ in
        Result { () throws(ResponseError) in try Self.plan(entry, request, mode: mode, seed: seed) }
      }
    case .review(let topicID, let count):
      let chosen =
        try topicID.map { id throws(ResponseError) in [try topic(id: id).registered] } ?? catalog.registry.topics
      let dependencies = dependencies
      let skill = request.skill ?? .kana
      job = dependencies.background.start { _ in
        Result { () throws(ResponseError) in
          try Self.reviewPlan(chosen, skill: skill, count: count, seed: seed, dependencies)
        }
      }
    }
    if let prepared = job.found { return try install(replyID, try prepared.get(), outbox: &outbox) }
    sessionsStarted += 1
    preparing["s\(sessionsStarted)"] = PreparingSession(job: job, replyID: replyID)
    return .later
  }

  private func checkRoomForSession() throws(ResponseError) {
    guard sessions.count + preparing.count < BikiServer.maximumOpenSessions else {
      throw .requestFailed("\(BikiServer.maximumOpenSessions) sessions are open; end some with biki/endSession first")
    }
  }

  private static func plan(_ entry: CatalogEntry, _ request: StartSessionRequest, mode: Session.Mode, seed: UInt64)
    throws(ResponseError) -> SessionPlan
  {
    let generator = try generator(for: entry, parameters: request.parameters)
    let skills = entry.topic.skills
    let skill = request.skill ?? (skills.contains(.reading) ? .reading : skills.first ?? .reading)
    return SessionPlan(generator: generator, skill: skill, mode: mode, seed: seed)
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

  /// Opens a session from its plan and asks for its first question. `reserved` is the id given
  /// when the start arrived, for a session prepared off the loop. Room for it was checked then.
  private mutating func install(
    _ replyID: RequestID, _ plan: SessionPlan, reserved: String? = nil, outbox: inout [OutgoingMessage]
  ) throws(ResponseError) -> Reply {
    let (state, effects): (Session.State, [Session.Effect])
    do {
      (state, effects) = try Session.start(
        topic: plan.generator.topic, order: plan.generator.order(seed: plan.seed), skill: plan.skill, mode: plan.mode,
        seed: plan.seed,
        dependencies: sessionDependencies)
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
    let reply = WaitingReply(
      id: replyID,
      members: [
        ("sessionId", .string(id)), ("topicId", .string(plan.generator.topic.id)),
        ("skill", .string(plan.skill.rawValue)),
        ("seed", .string(String(plan.seed))),
      ],
      startsSession: true)
    return try advance(id, state, plan.generator, effects, reply, outbox: &outbox)
  }

  var sessionDependencies: Session.Dependencies { Session.Dependencies(now: dependencies.now) }

  // MARK: Answering

  /// The open session a request names, with the question it is asking; nil when the session
  /// is making its next question, in which case the request waits for it in the session's queue.
  private mutating func askingSession(_ request: QueuedRequest) throws(ResponseError) -> (
    id: String, session: OpenSession, question: Question
  )? {
    let id = request.sessionID
    if var waiting = preparing[id] {
      guard waiting.queued.count < BikiServer.maximumQueuedPerSession else { throw Self.queueFull(id) }
      waiting.queued.append(request)
      preparing[id] = waiting
      return nil
    }
    guard let session = sessions[id] else {
      let ended = finished.contains { $0.id == id }
      throw .invalidParams(
        "\"sessionId\": \(ended ? "session \"\(id)\" has finished; biki/endSession returns its summary" : "no open session \"\(id.prefix(80))\"")"
      )
    }
    switch session.stage {
    case .asking(let question):
      return (id, session, question)
    case .making(var next):
      guard next.queued.count < BikiServer.maximumQueuedPerSession else { throw Self.queueFull(id) }
      next.queued.append(request)
      sessions[id]?.stage = .making(next)
      return nil
    }
  }

  private static func queueFull(_ id: String) -> ResponseError {
    .requestFailed(
      "session \"\(id)\" has \(BikiServer.maximumQueuedPerSession) requests waiting for its next question; wait for their responses"
    )
  }

  mutating func answer(_ replyID: RequestID, _ request: AnswerRequest, outbox: inout [OutgoingMessage])
    throws(ResponseError) -> Reply
  {
    if let late = answerAfterTimeUp(request.sessionID) { return .result(late) }
    guard let (id, session, question) = try askingSession(QueuedRequest(id: replyID, kind: .answer(request))) else {
      return .later
    }
    let given = try request.answer.get()
    var state = session.state
    let effects = Session.reduce(&state, .answerSubmitted(given), sessionDependencies)
    var verdict: JSON = "timeUp"
    for case .recorded(.answered(let answer)) in effects { verdict = answer.isCorrect ? "correct" : "incorrect" }
    var members: [(String, JSON)] = [("verdict", verdict)]
    // A wrong answer leaves the question open for another try, so the answer stays hidden; a
    // hint says how to answer (digits, kana). A right one shows the reading it matched (of the
    // counter the learner chose) and, for another form than the standard, the standard.
    switch state.feedback {
    case .correct(let matched, let standard)?:
      members.append(("expected", WireFormat.expected(question, skill: state.skill, matched: matched)))
      if let standard { members.append(("standard", .string(standard))) }
    case .incorrect(_, let hint?)? where verdict == "incorrect":
      members.append(("hint", .string(hint)))
    default: break
    }
    return try advance(
      id, state, session.generator, effects, WaitingReply(id: replyID, members: members, startsSession: false),
      outbox: &outbox)
  }

  mutating func skip(_ replyID: RequestID, _ request: SkipRequest, outbox: inout [OutgoingMessage])
    throws(ResponseError) -> Reply
  {
    if let late = answerAfterTimeUp(request.sessionID) { return .result(late) }
    guard let (id, session, question) = try askingSession(QueuedRequest(id: replyID, kind: .skip(request))) else {
      return .later
    }
    var state = session.state
    let effects = Session.reduce(&state, .skipRequested, sessionDependencies)
    var members: [(String, JSON)] = []
    // After the time limit the skip does not count and nothing is revealed.
    for case .recorded(.answered(let skip)) in effects where skip.skipped {
      members.append(("expected", WireFormat.expected(question, skill: state.skill)))
    }
    return try advance(
      id, state, session.generator, effects, WaitingReply(id: replyID, members: members, startsSession: false),
      outbox: &outbox)
  }

  /// The response to an answer or skip that reached a session whose time ran out before it: the
  /// learner typed in time to see the question but not to beat the clock, so the answer gets
  /// the verdict `timeUp` and the summary, as if the clock had run out on receipt.
  private func answerAfterTimeUp(_ id: String) -> JSON? {
    guard sessions[id] == nil, let ended = finished.last(where: { $0.id == id }), ended.timeRanOut else { return nil }
    return ["verdict": "timeUp", "summary": ended.summary, "progress": ended.progress, "finished": true]
  }

  // MARK: Carrying out what the reducer asks

  /// Carries out a session's effects: writes its records, makes the questions it asks for (in
  /// place for a pack's topic; off the loop for a plugin's, answering `.later`), and once the
  /// session has its next question or has ended, the response to `reply`.
  mutating func advance(
    _ id: String, _ state: Session.State, _ generator: QuestionGenerator, _ effects: [Session.Effect],
    _ reply: WaitingReply,
    outbox: inout [OutgoingMessage]
  ) throws(ResponseError) -> Reply {
    var state = state
    var reply = reply
    var pending = effects[...]
    making.remove(id)
    while let effect = pending.popFirst() {
      switch effect {
      case .recorded(let record):
        if reply.startsSession { reply.unwritten.append(record) } else { write(record, outbox: &outbox) }
      case .questionNeeded(let index):
        let made: Result<Question, GenerationError>
        if generator.callsPlugin, let ready = generator.readyQuestions(seeds: [index])?.first {
          // Made ahead: served in place, and the next few are made while the learner answers.
          made = ready
          makeAhead(sessionQuestionsAfter: state.order, generator)
        } else if generator.callsPlugin {
          // The next few are made ahead once this one is here (`collectFinishedWork`): it comes first.
          let job = dependencies.background.start { _ in
            Result { () throws(GenerationError) in try generator.questionWithForms(seed: index) }
          }
          guard let found = job.found else {
            sessions[id] = OpenSession(
              state: state, generator: generator, stage: .making(NextQuestion(job: job, reply: reply)))
            making.insert(id)
            return .later
          }
          made = found
        } else {
          made = Result { () throws(GenerationError) in try generator.questionWithForms(seed: index) }
        }
        pending = Session.reduce(&state, Self.arrival(made), sessionDependencies)[...] + pending
      case .questionPresented(let question):
        reply.members.append(
          ("question", WireFormat.openQuestion(question, number: state.results.count + 1, skill: state.skill)))
        if state.skill == .listening { prepareSpeech(question, after: state.order, generator) }
      case .sessionFinished(let summary):
        if reply.startsSession, state.results.isEmpty, case .generationFailed(let reason) = summary.endReason {
          // Nothing was asked: the start fails, and the session is not kept.
          remove(id)
          throw .requestFailed(reason)
        }
        reply.members.append(("summary", close(id, summary: summary, state: state)))
      }
    }
    for record in reply.unwritten { write(record, outbox: &outbox) }
    // The reducer's current question is the one asked: a new one, or the same after a wrong answer.
    if let asking = state.current, !state.isFinished {
      sessions[id] = OpenSession(state: state, generator: generator, stage: .asking(asking))
    } else {
      remove(id)
    }
    reply.members.append(("progress", WireFormat.progress(state, now: dependencies.now())))
    reply.members.append(("finished", .bool(state.isFinished)))
    return .result(.object(pairs: reply.members))
  }

  static func arrival(_ made: Result<Question, GenerationError>) -> Session.Action {
    switch made {
    case .success(let question): .questionArrived(question)
    case .failure(let error): .questionFailed(error)
    }
  }

  /// Moves a finished session out of the table, keeping its summary for a late endSession.
  private mutating func close(_ id: String, summary: Session.Summary, state: Session.State) -> JSON {
    remove(id)
    let json = WireFormat.summary(summary, skill: state.skill)
    var timeRanOut = false
    if case .timeUp = summary.endReason { timeRanOut = true }
    finished.removeAll { $0.id == id }
    finished.append(
      FinishedSession(
        id: id, summary: json, progress: WireFormat.progress(state, now: dependencies.now()), timeRanOut: timeRanOut))
    if finished.count > BikiServer.finishedKept { finished.removeFirst() }
    return json
  }

  private mutating func remove(_ id: String) {
    sessions[id] = nil
    timeLimits[id] = nil
    making.remove(id)
  }

  // MARK: Ending

  mutating func endSession(_ request: EndSessionRequest, outbox: inout [OutgoingMessage]) throws(ResponseError) -> JSON
  {
    let id = request.sessionID
    if let index = finished.firstIndex(where: { $0.id == id }) {
      return ["summary": finished.remove(at: index).summary]
    }
    if let waiting = preparing.removeValue(forKey: id) {
      // Nothing was asked yet: the start is told, and so is whatever was sent after it.
      waiting.job.cancel()
      outbox.append(
        .error(
          id: waiting.replyID,
          .requestFailed("session \"\(id)\" was ended by biki/endSession before its first question")))
      replay(waiting.queued, outbox: &outbox)
      return ["summary": .null]
    }
    guard let session = sessions[id] else {
      throw .invalidParams("\"sessionId\": no open session \"\(id.prefix(80))\"")
    }
    var state = session.state
    let effects = Session.reduce(&state, .endRequested, sessionDependencies)
    if case .making(let next) = session.stage {
      // The requests waiting for the next question get the summary too, and are not left hanging.
      next.job.cancel()
      settle(id, session, next, state: state, effects: effects, outbox: &outbox)
      guard let index = finished.firstIndex(where: { $0.id == id }) else { return ["summary": .null] }
      return ["summary": finished.remove(at: index).summary]
    }
    for case .recorded(let record) in effects { write(record, outbox: &outbox) }
    remove(id)
    for case .sessionFinished(let summary) in effects {
      return ["summary": WireFormat.summary(summary, skill: state.skill)]
    }
    return ["summary": .null]
  }

  /// Ends time-limited sessions whose time is up. A session asking a question tells the client
  /// with `biki/sessionFinished`; one still making a question answers the request waiting for
  /// it with the summary instead (a start whose time ran out before its first question included).
  mutating func finishTimedOutSessions(now: Double, outbox: inout [OutgoingMessage]) {
    for (id, deadline) in timeLimits where deadline <= now {
      guard let session = sessions[id] else { continue }
      var state = session.state
      let effects = Session.reduce(&state, .clockTicked, sessionDependencies)
      guard !effects.isEmpty else { continue }
      switch session.stage {
      case .making(let next):
        next.job.cancel()
        settle(id, session, next, state: state, effects: effects, outbox: &outbox)
      case .asking:
        for case .recorded(let record) in effects { write(record, outbox: &outbox) }
        for case .sessionFinished(let summary) in effects {
          let json = close(id, summary: summary, state: state)
          outbox.append(
            .notification(method: "biki/sessionFinished", params: ["sessionId": .string(id), "summary": json]))
        }
      }
    }
  }

  // MARK: Work finished off the loop

  /// Answers the requests whose work has finished: sessions prepared, questions made, batches
  /// generated.
  mutating func collectFinishedWork(outbox: inout [OutgoingMessage]) {
    for (id, waiting) in preparing {
      guard let prepared = waiting.job.found else { continue }
      preparing[id] = nil
      respond(
        waiting.replyID,
        Result { () throws(ResponseError) in
          try install(waiting.replyID, try prepared.get(), reserved: id, outbox: &outbox)
        },
        outbox: &outbox)
      replay(waiting.queued, outbox: &outbox)
    }
    for id in making {
      guard let session = sessions[id], case .making(let next) = session.stage, let made = next.job.found else {
        continue
      }
      makeAhead(sessionQuestionsAfter: session.state.order, session.generator)
      var state = session.state
      let effects = Session.reduce(&state, Self.arrival(made), sessionDependencies)
      settle(id, session, next, state: state, effects: effects, outbox: &outbox)
    }
    for (replyID, job) in generating {
      guard let made = job.found else { continue }
      generating[replyID] = nil
      respond(replyID, made.map(Reply.result), outbox: &outbox)
    }
  }

  /// `$/cancelRequest` for a request whose work runs off the loop. A cancelled start leaves no
  /// session. A cancelled answer or skip was already recorded, and without its response the
  /// client cannot see the next question, so its session ends (`biki/endSession` returns the
  /// summary).
  package mutating func cancel(_ replyID: RequestID, outbox: inout [OutgoingMessage]) {
    for (id, var waiting) in preparing {
      if waiting.replyID == replyID {
        waiting.job.cancel()
        preparing[id] = nil
        outbox.append(Endpoint<BikiServer>.cancelled(replyID))
        // What was sent to the session meanwhile finds no session, and says so.
        replay(waiting.queued, outbox: &outbox)
        return
      }
      if let index = waiting.queued.firstIndex(where: { $0.id == replyID }) {
        waiting.queued.remove(at: index)
        preparing[id] = waiting
        outbox.append(Endpoint<BikiServer>.cancelled(replyID))
        return
      }
    }
    if let job = generating.removeValue(forKey: replyID) {
      job.cancel()
      outbox.append(Endpoint<BikiServer>.cancelled(replyID))
      return
    }
    if let index = toGenerate.firstIndex(where: { $0.replyID == replyID }) {
      toGenerate.remove(at: index)
      outbox.append(Endpoint<BikiServer>.cancelled(replyID))
      return
    }
    if cancelReload(replyID, outbox: &outbox) { return }
    for id in making {
      guard let session = sessions[id], case .making(var next) = session.stage else { continue }
      if let index = next.queued.firstIndex(where: { $0.id == replyID }) {
        // Still waiting its turn: it simply does not run.
        next.queued.remove(at: index)
        sessions[id]?.stage = .making(next)
        outbox.append(Endpoint<BikiServer>.cancelled(replyID))
        return
      }
      guard next.reply.id == replyID else { continue }
      next.job.cancel()
      outbox.append(Endpoint<BikiServer>.cancelled(replyID))
      if next.reply.startsSession {
        remove(id)
      } else {
        var state = session.state
        let effects = Session.reduce(&state, .endRequested, sessionDependencies)
        for case .recorded(let record) in effects { write(record, outbox: &outbox) }
        for case .sessionFinished(let summary) in effects { _ = close(id, summary: summary, state: state) }
        remove(id)
      }
      // What was queued behind it now finds the session ended, and says so.
      replay(next.queued, outbox: &outbox)
      return
    }
  }

  /// Answers the request waiting for a session's question with what the reducer made of its
  /// arrival (or of the session's end), then the requests queued behind it, in order.
  private mutating func settle(
    _ id: String, _ session: OpenSession, _ next: NextQuestion, state: Session.State, effects: [Session.Effect],
    outbox: inout [OutgoingMessage]
  ) {
    respond(
      next.reply.id,
      Result { () throws(ResponseError) in
        try advance(id, state, session.generator, effects, next.reply, outbox: &outbox)
      }, outbox: &outbox)
    replay(next.queued, outbox: &outbox)
  }

  /// Handles queued requests in order until one has to wait for a question again; the rest
  /// then wait behind it.
  private mutating func replay(_ queued: [QueuedRequest], outbox: inout [OutgoingMessage]) {
    var rest = queued[...]
    while let request = rest.popFirst() {
      let outcome = Result { () throws(ResponseError) -> Reply in
        switch request.kind {
        case .answer(let answer): try self.answer(request.id, answer, outbox: &outbox)
        case .skip(let skip): try self.skip(request.id, skip, outbox: &outbox)
        }
      }
      respond(request.id, outcome, outbox: &outbox)
      let id = request.sessionID
      guard case .success(.later) = outcome, case .making(var next)? = sessions[id]?.stage else { continue }
      next.queued += rest
      sessions[id]?.stage = .making(next)
      return
    }
  }

  /// Whether any request is waiting for work off the loop: `shutdown` is answered, and the
  /// process exits, only once none is.
  package var hasPendingRequests: Bool {
    !preparing.isEmpty || !making.isEmpty || !generating.isEmpty || !toGenerate.isEmpty
      || !(reload?.replies.isEmpty ?? true)
  }

  /// Whether a request with this id is answered `.later` and not yet answered.
  func isWaiting(_ replyID: RequestID) -> Bool {
    if generating[replyID] != nil || toGenerate.contains(where: { $0.replyID == replyID }) || waitsForReload(replyID) {
      return true
    }
    if preparing.values.contains(where: { $0.replyID == replyID || $0.queued.contains { $0.id == replyID } }) {
      return true
    }
    return making.contains { id in
      guard case .making(let next)? = sessions[id]?.stage else { return false }
      return next.reply.id == replyID || next.queued.contains { $0.id == replyID }
    }
  }

  package var pendingRequestsDescription: String {
    let starting = preparing.map {
      "start of \($0.key) (request \($0.value.replyID.json.serialized), \($0.value.job.found == nil ? "preparing" : "prepared"))"
    }
    let asking = making.sorted().map { id -> String in
      guard case .making(let next)? = sessions[id]?.stage else { return "session \(id) (no longer making a question)" }
      return
        "session \(id)'s next question (request \(next.reply.id.json.serialized), \(next.job.found == nil ? "being made" : "made"), \(next.queued.count) queued)"
    }
    let batches =
      generating.map {
        "biki/generate (request \($0.key.json.serialized), \($0.value.found == nil ? "being made" : "made"))"
      } + toGenerate.map { "biki/generate (request \($0.replyID.json.serialized), about to be made)" }
    let reloads = (reload?.replies ?? []).map {
      "biki/reloadPacks (request \($0.json.serialized), \(reload?.job.found == nil ? "loading" : "loaded"))"
    }
    return (starting + asking + batches + reloads).joined(separator: "; ")
  }

  /// Sends the response to a request answered `.later`, once it is ready.
  func respond(_ replyID: RequestID, _ outcome: Result<Reply, ResponseError>, outbox: inout [OutgoingMessage]) {
    switch outcome {
    case .success(.result(let result)): outbox.append(.result(id: replyID, result))
    case .success(.later): break
    case .failure(let error): outbox.append(.error(id: replyID, error))
    }
  }

  // MARK: Generating

  /// Stateless questions: made in place for a pack's topic, off the loop for a plugin's. It
  /// decodes its own request, as the catalog judges the topic and its parameters between fields.
  mutating func generate(_ replyID: RequestID, _ params: Params) throws(ResponseError) -> Reply {
    // A pack's generator is made as soon as its parameters are read, so they are judged before
    // the other fields.
    // The closures see the catalog, not `self`: capturing the server copied all of it per request.
    let catalog = catalog
    let (request, entry, madeHere) = try GenerateRequest.decode(
      params, lookUp: { id throws(ResponseError) in try Self.topic(id: id, in: catalog) },
      judge: { entry, parameters throws(ResponseError) in
        entry.registered.callsPlugin ? nil : try Self.generator(for: entry, parameters: parameters)
      })
    let (parameters, seed, count) = (request.parameters, request.seed, request.count)
    if let madeHere {
      return .result(
        try Self.generated(madeHere, seed: seed, count: count, kept: parameters.isEmpty ? entry.written : nil))
    }
    // A plugin's topic. One question at a time, seed after seed, is made ahead; what is made is
    // served here, without a thread or a round trip.
    if parameters.isEmpty, count == 1 {
      let upcoming = entry.readahead.withLock { $0.after(seed: seed, count: 1) }
      if let generator = entry.madeGenerator {
        if let upcoming { makeAhead(generator, seeds: upcoming.map { generator.order(seed: $0).upcoming }) }
        let indices = [generator.order(seed: seed).upcoming]
        // Written before, it is sent as it was; made ahead, it is written once and kept.
        if let kept = entry.written.find(indices[0]) { return .result(Self.questionsAnswer(CollectionOfOne(kept))) }
        if let ready = generator.readyQuestions(seeds: indices) {
          guard case .success(let question) = ready[0] else {
            return .result(try Self.written(ready, indices: indices, topicID: entry.topic.id))
          }
          let piece = Self.writtenQuestion(question)
          entry.written.keep([(indices[0], piece)])
          return .result(Self.questionsAnswer(CollectionOfOne(piece)))
        }
      }
    }
    toGenerate.append(
      WaitingGenerate(replyID: replyID, entry: entry, parameters: parameters, seed: seed, count: count))
    return .later
  }

  /// Starts the plugin questions `biki/generate` requests wait for: the requests for one topic
  /// with the same parameters share a job (a few hundred questions at most each), which asks
  /// the plugin for all of their questions at once.
  mutating func startWaitingGenerates() {
    guard !toGenerate.isEmpty else { return }
    var groups: [[WaitingGenerate]] = []
    var groupOf: [WaitingGenerate.Batch: Int] = [:]
    for request in toGenerate {
      let batch = WaitingGenerate.Batch(request)
      if let index = groupOf[batch],
        groups[index].reduce(request.count, { $0 + $1.count }) <= WaitingGenerate.questionsPerJob
      {
        groups[index].append(request)
      } else {
        groupOf[batch] = groups.count
        groups.append([request])
      }
    }
    toGenerate = []
    for group in groups {
      let jobs = group.map { _ in Job<Result<JSON, ResponseError>>() }
      for (request, job) in zip(group, jobs) { generating[request.replyID] = job }
      let requests = group.map { (seed: $0.seed, count: $0.count) }
      let (entry, parameters) = (group[0].entry, group[0].parameters)
      dependencies.background.run {
        let answers = Self.generated(
          entry, parameters: parameters, requests, isCancelled: { jobs.allSatisfy(\.isCancelled) })
        for (job, answer) in zip(jobs, answers) { job.finish(answer) }
      }
    }
  }

  /// Each request's answer, from one call for all their questions.
  static func generated(
    _ entry: CatalogEntry, parameters: [String: Int64], _ requests: [(seed: UInt64, count: Int64)],
    isCancelled: () -> Bool
  ) -> [Result<JSON, ResponseError>] {
    let generator: QuestionGenerator
    do {
      generator = try Self.generator(for: entry, parameters: parameters)
    } catch {
      return requests.map { _ in .failure(error) }
    }
    guard !isCancelled() else { return requests.map { _ in .failure(.requestFailed("the request was cancelled")) } }
    let places = requests.map { request in
      var order = generator.order(seed: request.seed)
      return (0..<request.count).map { _ in order.next() }
    }
    var made = generator.questions(seeds: places.flatMap { $0 })[...]
    return places.map { indices in
      let results = Array(made.prefix(indices.count))
      made = made.dropFirst(indices.count)
      return Result { () throws(ResponseError) in try written(results, indices: indices, topicID: generator.topic.id) }
    }
  }

  /// The questions a session with this seed asks, in order (no repeats until the space is used).
  /// A question that cannot be made is listed with its error in its place and costs no other;
  /// only a batch of which none could be made fails.
  static func generated(_ generator: QuestionGenerator, seed: UInt64, count: Int64, kept: WrittenQuestions? = nil)
    throws(ResponseError) -> JSON
  {
    var order = generator.order(seed: seed)
    // One question written before, the most common request of all, is sent without a list.
    if count == 1, let kept, let piece = kept.find(order.upcoming) {
      return questionsAnswer(CollectionOfOne(piece))
    }
    let indices = (0..<count).map { _ in order.next() }
    guard let kept else {
      return try written(generator.questions(seeds: indices), indices: indices, topicID: generator.topic.id)
    }
    // Questions written before are sent as their bytes; the rest are made, written and kept.
    var pieces = kept.find(indices)
    let missing = pieces.indices.filter { pieces[$0] == nil }
    let results = generator.questions(seeds: missing.map { indices[$0] })
    guard missing.count < indices.count || results.contains(where: { if case .success = $0 { true } else { false } })
    else {
      return try written(results, indices: indices, topicID: generator.topic.id)  // none made: the first failure
    }
    var made: [(place: UInt64, bytes: [UInt8])] = []
    for (slot, result) in zip(missing, results) {
      let bytes = writtenPiece(result, at: indices[slot], topicID: generator.topic.id)
      pieces[slot] = bytes
      if case .success = result { made.append((indices[slot], bytes)) }
    }
    kept.keep(made)
    return questionsAnswer(pieces.map { $0 ?? [] })
  }

  /// A question as `biki/generate` writes it, alone.
  static func writtenQuestion(_ question: Question) -> [UInt8] {
    writtenPiece(.success(question), at: question.seed, topicID: question.topicID)
  }

  /// One entry of `biki/generate`'s list: the question, or its failure in its place.
  static func writtenPiece(_ result: Result<Question, GenerationError>, at index: UInt64, topicID: String) -> [UInt8] {
    var writer = JSONWriter()
    switch result {
    case .success(let question): WireFormat.revealed(question, into: &writer)
    case .failure(let error): WireFormat.failedQuestion(topicID: topicID, seed: index, error, into: &writer)
    }
    guard case .written(let bytes) = writer.finish() else { return [] }
    return bytes
  }

  /// `{"questions": [...]}` around questions already written.
  static func questionsAnswer(_ pieces: some Collection<[UInt8]>) -> JSON {
    let opening: StaticString = #"{"questions":["#
    let closing: StaticString = "]}"
    // Sized once: the answer is built for every `biki/generate`, most often of one question.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(
      pieces.reduce(opening.utf8CodeUnitCount + closing.utf8CodeUnitCount) { $0 + $1.count + 1 })
    bytes.append(contentsOf: UnsafeBufferPointer(start: opening.utf8Start, count: opening.utf8CodeUnitCount))
    for (position, piece) in pieces.enumerated() {
      if position > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(contentsOf: piece)
    }
    bytes.append(contentsOf: UnsafeBufferPointer(start: closing.utf8Start, count: closing.utf8CodeUnitCount))
    return .written(bytes)
  }

  /// A plugin's questions at `seeds`, made off the loop and kept: nothing waits for them, and
  /// the requests that want them find them made. They are asked for `chunk` at a time, so a
  /// question wanted now waits behind at most one chunk of them in the plugin's worker (a slow
  /// plugin's readahead never holds up a learner's question for long).
  func makeAhead(_ generator: QuestionGenerator, seeds: [UInt64], chunk: Int = 32) {
    guard let makeAhead = generator.makeAhead else { return }
    _ = dependencies.background.start { _ in makeAhead(seeds, chunk) }
  }

  /// The next questions a session on a plugin's topic will ask, made ahead unless the one half
  /// way there is made already (then the rest are, or are being made).
  func makeAhead(sessionQuestionsAfter order: QuestionOrder, _ generator: QuestionGenerator) {
    guard let ready = generator.ready else { return }
    var order = order
    let upcoming = (0..<Readahead.sessionQuestions).map { _ in order.next() }
    guard ready(upcoming[upcoming.count / 2] % generator.spaceSize) == nil else { return }
    // One at a time: a learner's next question is wanted in seconds, and one from another
    // session should not wait behind these.
    makeAhead(generator, seeds: upcoming, chunk: 1)
  }

  /// The answer to `biki/generate`: the questions, each failure in its place.
  static func written(_ results: [Result<Question, GenerationError>], indices: [UInt64], topicID: String)
    throws(ResponseError) -> JSON
  {
    guard results.contains(where: { if case .success = $0 { true } else { false } }) else {
      if case .failure(let error)? = results.first { throw .requestFailed(error.description) }
      throw .requestFailed("topic \(topicID) made no questions")
    }
    return questionsAnswer(
      zip(indices, results).map { index, result in writtenPiece(result, at: index, topicID: topicID) })
  }

  // MARK: History

  /// Appends a session's record to the history before the response goes out; a failure is told
  /// to the client once, and the session carries on.
  mutating func write(_ record: Session.Record, outbox: inout [OutgoingMessage]) {
    do {
      try dependencies.history.record(record, at: dependencies.wallClock())
    } catch {
      let message = "\(error)"
      if historyProblemsShown.insert(message).inserted {
        outbox.append(.notification(method: "window/showMessage", params: ["type": 2, "message": .string(message)]))
      }
    }
  }
}

extension BikiServer {
  /// Has a listening question's audio made ahead, and the next question's while the learner
  /// answers, as `biki quiz --speak` does; a plugin's next question is not asked for twice.
  func prepareSpeech(_ question: Question, after order: QuestionOrder, _ generator: QuestionGenerator) {
    dependencies.prepareSpeech(question.spoken, question.kanjiDisplay)
    guard !generator.callsPlugin else { return }
    var peek = order
    guard let next = try? generator.questionWithForms(seed: peek.next()) else { return }
    dependencies.prepareSpeech(next.spoken, next.kanjiDisplay)
  }
}
