import BikiCore
import BikiHost
import BikiJSON
import BikiPractice
import BikiProtocol

/// Requests answered `.later`: collected when their work finishes, cancelled, replayed in
/// order, and described while the server waits for them to end.
extension BikiServer {
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
  mutating func settle(
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
  mutating func replay(_ queued: [QueuedRequest], outbox: inout [OutgoingMessage]) {
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
}
