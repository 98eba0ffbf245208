import BikiCore
import BikiHost
import BikiJSON
import BikiPractice
import BikiProtocol

/// Requests answered `.later` (`OpenRequests`): collected when their work finishes, cancelled,
/// replayed in order, and described while the server waits for them to end.
extension BikiServer {
  // MARK: Work finished off the loop

  /// Answers the requests whose work has finished — sessions prepared, questions made, batches
  /// generated — in one pass over the open requests, in the order they came.
  mutating func collectFinishedWork(outbox: inout [OutgoingMessage]) {
    for (replyID, waiting) in open.inOrder {
      // An earlier request's replay may have answered this one already.
      guard open[replyID] != nil else { continue }
      switch waiting {
      case .plan(let session, let job):
        guard let prepared = job.found else { continue }
        open.remove(replyID)
        respond(
          replyID,
          Result { () throws(ResponseError) in
            try install(replyID, try prepared.get(), reserved: session, outbox: &outbox)
          },
          outbox: &outbox)
        replay(session: session, outbox: &outbox)
      case .question(let id, let job, let reply):
        guard let made = job.found else { continue }
        guard let session = sessions[id] else {
          // Its session ended another way; the request is told rather than left waiting.
          open.remove(replyID)
          respond(replyID, .failure(.requestFailed("session \"\(id)\" has ended")), outbox: &outbox)
          continue
        }
        makeAhead(sessionQuestionsAfter: session.state.order, session.generator)
        var runner = session.runner
        let progress = runner.arrived(made, making: Self.maker(runner.generator))
        settle(id, runner, progress, reply, outbox: &outbox)
      case .questions(let job):
        guard let made = job.found else { continue }
        open.remove(replyID)
        respond(replyID, made.map(Reply.result), outbox: &outbox)
      case .turn, .questionsSoon, .reload: continue
      }
    }
  }

  /// `$/cancelRequest` for a request whose work runs off the loop. A cancelled start leaves no
  /// session. A cancelled answer or skip was already recorded, and without its response the
  /// client cannot see the next question, so its session ends (`biki/endSession` returns the
  /// summary).
  package mutating func cancel(_ replyID: RequestID, outbox: inout [OutgoingMessage]) {
    guard let waiting = open.remove(replyID) else { return }
    outbox.append(Endpoint<BikiServer>.cancelled(replyID))
    switch waiting {
    case .plan(let session, let job):
      job.cancel()
      // What was sent to the session meanwhile finds no session, and says so.
      replay(session: session, outbox: &outbox)
    case .question(let id, let job, let reply):
      job.cancel()
      if reply.startsSession {
        remove(id)
      } else if let session = sessions[id] {
        var state = session.state
        let effects = Session.reduce(&state, .endRequested, sessionDependencies)
        for case .recorded(let record) in effects { write(record, outbox: &outbox) }
        for case .sessionFinished(let summary) in effects { _ = close(id, summary: summary, state: state) }
        remove(id)
      }
      // What was queued behind it now finds the session ended, and says so.
      replay(session: id, outbox: &outbox)
    case .questions(let job):
      // A batch shared with other requests runs on for them; it stops once all are cancelled.
      job.cancel()
    case .turn, .questionsSoon:
      // Still waiting its turn: it simply does not run.
      break
    case .reload:
      // The reload itself goes on, and its catalog serves when done: the files were read, and
      // the poll will not notice them again.
      break
    }
  }

  /// Answers the request waiting for a session's question with what the reducer made of its
  /// arrival (or of the session's end), then the requests queued behind it, in order.
  mutating func settle(
    _ id: String, _ runner: SessionRunner, _ progress: SessionRunner.Progress, _ reply: WaitingReply,
    outbox: inout [OutgoingMessage]
  ) {
    open.remove(reply.id)
    respond(
      reply.id,
      Result { () throws(ResponseError) in try advance(id, runner, progress, reply, outbox: &outbox) }, outbox: &outbox)
    replay(session: id, outbox: &outbox)
  }

  /// Handles the requests queued for a session in order until one has to wait for a question
  /// again; the rest stay queued behind it.
  mutating func replay(session id: String, outbox: inout [OutgoingMessage]) {
    for request in open.turns(of: id) {
      if case .making? = sessions[id]?.stage { return }
      open.remove(request.id)
      let outcome = Result { () throws(ResponseError) -> Reply in
        switch request.kind {
        case .answer(let answer): try self.answer(request.id, answer, outbox: &outbox)
        case .skip(let skip): try self.skip(request.id, skip, outbox: &outbox)
        }
      }
      respond(request.id, outcome, outbox: &outbox)
    }
  }

  /// Whether any request is waiting for work off the loop: `shutdown` is answered, and the
  /// process exits, only once none is.
  package var hasPendingRequests: Bool { !open.isEmpty }

  /// Whether a request with this id is answered `.later` and not yet answered.
  func isWaiting(_ replyID: RequestID) -> Bool { open[replyID] != nil }

  package var pendingRequestsDescription: String { open.description }

  /// Sends the response to a request answered `.later`, once it is ready.
  func respond(_ replyID: RequestID, _ outcome: Result<Reply, ResponseError>, outbox: inout [OutgoingMessage]) {
    switch outcome {
    case .success(.result(let result)): outbox.append(.result(id: replyID, result))
    case .success(.later): break
    case .failure(let error): outbox.append(.error(id: replyID, error))
    }
  }
}
