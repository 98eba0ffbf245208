import BikiCore
import BikiProtocol

/// Work off the loop reports back, and requests answered `.later` are cancelled and waited for,
/// here: the loop's side of `OpenRequests` and the `Mailbox`.
extension BikiServer {
  /// Hands every completion posted so far to the part of the server that started its work, in
  /// the order the work finished: the one place finished work is taken up. Handling one may
  /// start more (a session's next question, for a runner that works at once), so it drains
  /// until the mailbox is empty.
  mutating func drainCompletions(outbox: inout [OutgoingMessage]) {
    var burstEnded = false
    defer { if burstEnded { dependencies.releaseMemory() } }
    while true {
      let completions = mailbox.takeAll()
      guard !completions.isEmpty else { return }
      for completion in completions {
        switch completion {
        case .plan(let id, let ticket, let plan):
          quiz.planMade(id, ticket, plan, open: &open, outbox: &outbox)
        case .question(let id, let ticket, let question):
          quiz.questionMade(id, ticket, question, open: &open, outbox: &outbox)
        case .questions(let id, let ticket, let answer):
          quiz.questionsMade(id, ticket, answer, open: &open, outbox: &outbox)
        case .catalog(let ticket, let catalog):
          reloadFinished(ticket, catalog, outbox: &outbox)
          burstEnded = burstEnded || reload == nil
        case .check(let uri, let ticket, let result):
          language.checkFinished(uri, ticket, result, outbox: &outbox)
          if language.checks[uri] == nil { client.endProgress(uri, outbox: &outbox) }
          burstEnded = burstEnded || language.checks.isEmpty
        }
      }
      answerDiagnosticPulls(outbox: &outbox)
    }
  }

  /// `textDocument/diagnostic`: answered now if the document's current text is checked, else
  /// once it is (the check starts at once).
  mutating func pullDiagnostics(_ id: RequestID, _ request: DocumentDiagnosticRequest) -> Reply {
    if let report = language.pulledReport(request) { return .result(report) }
    open.add(id, .diagnostics(request))
    return .later
  }

  /// Answers the pulls whose document is now checked (or closed).
  mutating func answerDiagnosticPulls(outbox: inout [OutgoingMessage]) {
    for (id, request) in open.diagnosticPulls {
      guard let report = language.pulledReport(request) else { continue }
      open.remove(id)
      outbox.append(.result(id: id, report))
    }
  }

  /// At `initialize`: a reload already done serves without being announced, as `initialize`
  /// reports its problems itself; one still running announces as it was asked to.
  mutating func drainCompletionsQuietly(outbox: inout [OutgoingMessage]) {
    guard let announce = reload?.announce, open.reloadRequests.isEmpty else {
      return drainCompletions(outbox: &outbox)
    }
    reload?.announce = .never
    drainCompletions(outbox: &outbox)
    reload?.announce = announce
  }

  /// `$/cancelRequest` for a request whose work runs off the loop.
  package mutating func cancel(_ replyID: RequestID, outbox: inout [OutgoingMessage]) {
    guard let waiting = open.remove(replyID) else { return }
    outbox.append(Endpoint<BikiServer>.cancelled(replyID))
    // A cancelled reload goes on, and its catalog serves when done: the files were read, and
    // the poll will not notice them again.
    if case .reload = waiting { return }
    quiz.cancelled(waiting, open: &open, outbox: &outbox)
  }

  /// Whether any request is waiting for work off the loop: `shutdown` is answered, and the
  /// process exits, only once none is.
  package var hasPendingRequests: Bool { !open.isEmpty }

  /// Whether a request with this id is answered `.later` and not yet answered.
  func isWaiting(_ replyID: RequestID) -> Bool { open[replyID] != nil }

  package var pendingRequestsDescription: String { open.description }
}
