import BikiCore
import BikiHost
import BikiJSON
import BikiJapanese
import BikiPractice
import BikiProtocol

/// The quiz side of the server: the session table, `biki/generate` and its read-ahead, the
/// history a session writes, the audio a listening question needs. Sessions are driven by the
/// `SessionRunner` `biki quiz` drives. It shares the catalog and the message loop with the pack
/// language service and nothing else: it never reads a document.
///
/// Requests it answers `.later` are rows of the loop's `OpenRequests`, which its methods are
/// handed (`open`); what it starts off the loop reports to the loop's `Mailbox`, and the loop
/// hands each completion back here (`planMade`, `questionMade`, `questionsMade`).
struct QuizService {
  let dependencies: ServerDependencies
  let mailbox: Mailbox
  /// The catalog the server serves, set when it changes.
  var catalog: Catalog {
    didSet {
      writtenTopicList = nil
      recentTopic = nil
    }
  }
  /// The pack topic the last `biki/generate` with default parameters named, and its
  /// generator: a client asks for one topic's questions seed after seed, and finding it again
  /// by its id (a hash, a lock, another lock for its generator) cost more than comparing the id.
  var recentTopic: RecentTopic?
  /// The topic list, written on the first `biki/topics` of each catalog and kept: it is large
  /// (about 180 bytes a topic) and asked for often, and a server whose client never asks for it
  /// (an editor checking packs) never holds it.
  private var writtenTopicList: TopicListAnswer?
  var sessions: [String: OpenSession] = [:]
  /// When each time-limited session runs out. Kept apart from `sessions` because the message
  /// loop asks for the next deadline on every iteration, and most sessions have none.
  var timeLimits: [String: Double] = [:]
  /// How each session that asked for a voice, speed or pitch is spoken (`speech`); the rest
  /// in the default voice at its own speed.
  var speechChoices: [String: SpeechChoice] = [:]
  /// Sessions started with `record: false` (a tool's, trying things out): nothing of them is
  /// written to the learner's history.
  var unrecorded: Set<String> = []
  /// Sessions that finished on their own, for a late `biki/endSession` and for answers that
  /// arrive after the time ran out; oldest first.
  var finished: [FinishedSession] = []
  var sessionsStarted = 0
  /// Problems with the history already reported to the client, so each is shown once.
  var historyProblemsShown: Set<String> = []

  /// A class: a generator is a large value, and copying one into each closure that reads it
  /// cost more than the lookup it saves.
  final class RecentTopic: Sendable {
    let id: String
    let entry: CatalogEntry
    let generator: QuestionGenerator

    init(id: String, entry: CatalogEntry, generator: QuestionGenerator) {
      (self.id, self.entry, self.generator) = (id, entry, generator)
    }

    /// `biki/generate`'s answer with the default parameters, as `generate` gives it.
    func generated(seed: UInt64, count: Int64) throws(ResponseError) -> JSON {
      try QuizService.generated(generator, seed: seed, count: count, kept: entry.written)
    }
  }

  static let maximumOpenSessions = 1000
  /// Answers and skips that may wait for one session's next question.
  static let maximumQueuedPerSession = 64
  static let finishedKept = 64

  init(dependencies: ServerDependencies, mailbox: Mailbox, catalog: Catalog) {
    self.dependencies = dependencies
    self.mailbox = mailbox
    self.catalog = catalog
  }

  /// The topic list for this catalog (see `writtenTopicList`).
  mutating func topicList() -> TopicListAnswer {
    if let written = writtenTopicList { return written }
    let written = TopicListAnswer(catalog)
    writtenTopicList = written
    return written
  }

  /// The next time limit to run out, if any session has one.
  var nextTimeLimit: Double? { timeLimits.isEmpty ? nil : timeLimits.values.min() }

  var sessionDependencies: Session.Dependencies { Session.Dependencies(now: dependencies.now) }

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

  // MARK: Work finished off the loop

  /// A session's plan is made: the session opens, and what was sent to it meanwhile is handled.
  mutating func planMade(
    _ replyID: RequestID, _ ticket: WorkTicket, _ made: Result<SessionPlan, ResponseError>, open: inout OpenRequests,
    outbox: inout [OutgoingMessage]
  ) {
    guard case .plan(let session, let waiting)? = open[replyID], waiting === ticket else { return }
    open.remove(replyID)
    respond(
      replyID,
      Result { () throws(ResponseError) in
        try install(replyID, try made.get(), reserved: session, open: &open, outbox: &outbox)
      },
      outbox: &outbox)
    replay(session: session, open: &open, outbox: &outbox)
  }

  /// A session's next question is made: the runner carries on from it.
  mutating func questionMade(
    _ replyID: RequestID, _ ticket: WorkTicket, _ made: Result<Question, GenerationError>, open: inout OpenRequests,
    outbox: inout [OutgoingMessage]
  ) {
    guard case .question(let id, let waiting, let reply)? = open[replyID], waiting === ticket else { return }
    // Taken out of the table, so the runner's state is changed in place (see `askingSession`);
    // `settle` puts it back.
    guard let session = sessions.removeValue(forKey: id) else {
      // Its session ended another way; the request is told rather than left waiting.
      open.remove(replyID)
      respond(replyID, .failure(.requestFailed("session \"\(id)\" has ended")), outbox: &outbox)
      return
    }
    makeAhead(sessionQuestionsAfter: session.state.order, session.generator)
    var runner = (consume session).runner
    let progress = runner.arrived(made, making: Self.maker(runner.generator))
    settle(id, runner, progress, reply, open: &open, outbox: &outbox)
  }

  /// A `biki/generate` request's questions are made.
  func questionsMade(
    _ replyID: RequestID, _ ticket: WorkTicket, _ made: Result<JSON, ResponseError>, open: inout OpenRequests,
    outbox: inout [OutgoingMessage]
  ) {
    guard case .questions(let waiting)? = open[replyID], waiting === ticket else { return }
    open.remove(replyID)
    respond(replyID, made.map(Reply.result), outbox: &outbox)
  }

  /// `$/cancelRequest` for a quiz request whose work runs off the loop, already out of the
  /// table. A cancelled start leaves no session. A cancelled answer or skip was already
  /// recorded, and without its response the client cannot see the next question, so its
  /// session ends (`biki/endSession` returns the summary).
  mutating func cancelled(_ waiting: OpenRequests.Waiting, open: inout OpenRequests, outbox: inout [OutgoingMessage]) {
    switch waiting {
    case .plan(let session, let ticket):
      ticket.cancel()
      // What was sent to the session meanwhile finds no session, and says so.
      replay(session: session, open: &open, outbox: &outbox)
    case .question(let id, let ticket, let reply):
      ticket.cancel()
      if reply.startsSession {
        remove(id)
      } else if let session = sessions[id] {
        var state = session.state
        let effects = Session.reduce(&state, .endRequested, sessionDependencies)
        for case .recorded(let record) in effects { write(record, of: id, outbox: &outbox) }
        for case .sessionFinished(let summary) in effects { _ = close(id, summary: summary, state: state) }
        remove(id)
      }
      // What was queued behind it now finds the session ended, and says so.
      replay(session: id, open: &open, outbox: &outbox)
    case .questions(let ticket):
      // A batch shared with other requests runs on for them; it stops once all are cancelled.
      ticket.cancel()
    case .turn, .questionsSoon, .reload, .diagnostics:
      // Still waiting its turn: it simply does not run. (A reload or a document's check is not
      // the quiz's.)
      break
    }
  }

  /// Answers the request waiting for a session's question with what the reducer made of its
  /// arrival (or of the session's end), then the requests queued behind it, in order.
  mutating func settle(
    _ id: String, _ runner: SessionRunner, _ progress: SessionRunner.Progress, _ reply: WaitingReply,
    open: inout OpenRequests, outbox: inout [OutgoingMessage]
  ) {
    open.remove(reply.id)
    respond(
      reply.id,
      Result { () throws(ResponseError) in
        try advance(id, runner, progress, reply, open: &open, outbox: &outbox)
      }, outbox: &outbox)
    replay(session: id, open: &open, outbox: &outbox)
  }

  /// Handles the requests queued for a session in order until one has to wait for a question
  /// again; the rest stay queued behind it.
  mutating func replay(session id: String, open: inout OpenRequests, outbox: inout [OutgoingMessage]) {
    for request in open.turns(of: id) {
      if case .making? = sessions[id]?.stage { return }
      open.remove(request.id)
      let outcome = Result { () throws(ResponseError) -> Reply in
        switch request.kind {
        case .answer(let answer): try self.answer(request.id, answer, open: &open, outbox: &outbox)
        case .skip(let skip): try self.skip(request.id, skip, open: &open, outbox: &outbox)
        }
      }
      respond(request.id, outcome, outbox: &outbox)
    }
  }

  /// Sends the response to a request answered `.later`, once it is ready.
  func respond(_ replyID: RequestID, _ outcome: Result<Reply, ResponseError>, outbox: inout [OutgoingMessage]) {
    switch outcome {
    case .success(.result(let result)): outbox.append(.result(id: replyID, result))
    case .success(.later): break
    case .failure(let error): outbox.append(.error(id: replyID, error))
    }
  }

  // MARK: Reading and the history

  func read(_ request: ReadRequest) throws(ResponseError) -> ReadResponse {
    do {
      let reading = try PhraseReader().read(request.text, as: request.kind)
      // The standard reading comes first among all of them.
      let readings = reading.all()
      return ReadResponse(text: request.text, reading: readings.first ?? reading.standard, readings: readings)
    } catch {
      throw .invalidParams("\"text\": \(error)")
    }
  }

  mutating func stats(_ request: StatsRequest, outbox: inout [OutgoingMessage]) -> StatsResponse {
    let (summary, warnings) = dependencies.history.summary()
    for warning in warnings where historyProblemsShown.insert(warning).inserted {
      outbox.append(BikiServer.log(warning, type: 2))
    }
    return StatsResponse(
      summary.stats(topicID: request.topicID, now: dependencies.wallClock()), location: dependencies.history.location)
  }

  /// Appends a session's record to the history before the response goes out; a failure is told
  /// to the client once, and the session carries on.
  mutating func write(_ record: Session.Record, of session: String, outbox: inout [OutgoingMessage]) {
    guard !unrecorded.contains(session) else { return }
    do {
      try dependencies.history.record(record, at: dependencies.wallClock())
      if case .ended = record { dependencies.refitScheduler() }
    } catch {
      let message = "\(error)"
      if historyProblemsShown.insert(message).inserted {
        outbox.append(.notification(method: "window/showMessage", params: ["type": 2, "message": .string(message)]))
      }
    }
  }
}
