import BikiCore
import BikiJSON
import BikiProtocol

/// Every request the server answers `.later`, by id, with what it waits for, from the moment it
/// is read until it is answered or cancelled. Cancelling, "is anything waiting", shutdown and
/// the log of what the server waits for read this one table. Work off the loop reports back
/// through the server's `Mailbox`, each completion with its request's id and the ticket the
/// entry holds (`BikiServer.drainCompletions`).
///
/// A session's state stays in the session table; what the table holds is the request's side:
/// the work it waits for and what its response carries.
struct OpenRequests {
  enum Waiting {
    /// A session's plan (its generator, or a review's picks), made off the loop. The session's
    /// id was given when the start arrived, so ids follow the order of the requests.
    case plan(session: String, WorkTicket)
    /// A session's next question, made off the loop; the response carries `reply` before it.
    case question(session: String, WorkTicket, WaitingReply)
    /// An answer or skip that reached its session while it was prepared or making its next
    /// question (from a client that sends without waiting for each response): handled in
    /// order once the question is there.
    case turn(QueuedRequest)
    /// `biki/generate` questions made off the loop; requests for one topic share a batch.
    case questions(WorkTicket)
    /// `biki/generate` questions for a plugin, started on the loop's next pass together with
    /// the others read alongside, one batch for the plugin.
    case questionsSoon(WaitingGenerate)
    /// `biki/reloadPacks`, answered when the reload running finishes.
    case reload
    /// `textDocument/diagnostic`, answered once the document's current text is checked.
    case diagnostics(DocumentDiagnosticRequest)
  }

  private var entries: [RequestID: (arrival: Int, waiting: Waiting)] = [:]
  private var arrivals = 0

  var isEmpty: Bool { entries.isEmpty }

  subscript(id: RequestID) -> Waiting? { entries[id]?.waiting }

  mutating func add(_ id: RequestID, _ waiting: Waiting) {
    arrivals += 1
    entries[id] = (arrivals, waiting)
  }

  /// Changes what `id` waits for, keeping its place in the order.
  mutating func update(_ id: RequestID, _ waiting: Waiting) { entries[id]?.waiting = waiting }

  @discardableResult mutating func remove(_ id: RequestID) -> Waiting? { entries.removeValue(forKey: id)?.waiting }

  /// Every open request, in the order they came.
  var inOrder: [(id: RequestID, waiting: Waiting)] {
    entries.sorted { $0.value.arrival < $1.value.arrival }.map { ($0.key, $0.value.waiting) }
  }

  /// The answers and skips waiting for session `session`, in the order they came.
  func turns(of session: String) -> [QueuedRequest] {
    inOrder.compactMap { entry in
      guard case .turn(let request) = entry.waiting, request.sessionID == session else { return nil }
      return request
    }
  }

  /// The start of `session`, while its plan is made.
  func start(of session: String) -> (id: RequestID, work: WorkTicket)? {
    for (id, entry) in entries {
      if case .plan(session, let work) = entry.waiting { return (id, work) }
    }
    return nil
  }

  /// How many sessions are being prepared: they count against the sessions one server keeps.
  var sessionsBeingPrepared: Int {
    entries.values.count { if case .plan = $0.waiting { true } else { false } }
  }

  /// `biki/generate` requests waiting for the loop's next pass, in the order they came.
  var generatesDue: [WaitingGenerate] {
    inOrder.compactMap { if case .questionsSoon(let request) = $0.waiting { request } else { nil } }
  }

  /// Whether a `biki/generate` waits for the loop's next pass: the loop's deadline is then now.
  var hasGeneratesDue: Bool {
    // Asked on every pass of the loop, nearly always with nothing open.
    !entries.isEmpty && entries.values.contains { if case .questionsSoon = $0.waiting { true } else { false } }
  }

  /// The diagnostic pulls waiting for a check, in the order they came.
  var diagnosticPulls: [(id: RequestID, request: DocumentDiagnosticRequest)] {
    inOrder.compactMap { if case .diagnostics(let request) = $0.waiting { ($0.id, request) } else { nil } }
  }

  var reloadRequests: [RequestID] {
    inOrder.compactMap { if case .reload = $0.waiting { $0.id } else { nil } }
  }

  /// What each request waits for, for the log line written while the server waits to end.
  var description: String {
    inOrder.map { id, waiting in
      let request = "request \(id.json.serialized)"
      return switch waiting {
      case .plan(let session, _): "start of \(session) (\(request), preparing)"
      case .question(let session, _, _): "session \(session)'s next question (\(request), being made)"
      case .turn(let queued): "\(request), queued for session \(queued.sessionID)"
      case .questions: "biki/generate (\(request), being made)"
      case .questionsSoon: "biki/generate (\(request), about to be made)"
      case .reload: "biki/reloadPacks (\(request))"
      case .diagnostics(let pull): "diagnostics of \(Excerpt.of(pull.uri, limit: 200)) (\(request), being checked)"
      }
    }.joined(separator: "; ")
  }
}
