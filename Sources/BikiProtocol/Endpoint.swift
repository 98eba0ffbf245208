import BikiJSON

/// What a server does with the messages the lifecycle lets through. The protocol layer owns
/// `initialize`, `shutdown`, `exit` and every error the base protocol defines; the server sees
/// only its own methods, and may send notifications of its own through `outbox`.
package protocol LanguageServer {
  /// The `serverInfo` sent in the `initialize` result.
  var name: String { get }
  var version: String { get }

  /// Handles `initialize`; returns the server's capabilities.
  mutating func initialize(params: JSON?, outbox: inout [OutgoingMessage]) -> JSON
  /// A request other than `initialize` and `shutdown`; its params are usually the client's
  /// text (`JSON.written`), read through JSON's accessors. Throw `ResponseError.methodNotFound`
  /// for methods it does not know. A request whose work runs off the loop is answered `.later`:
  /// the server then sends its response (with this id) from a later `tick`, or from `cancel`.
  mutating func request(_ id: RequestID, _ method: String, params: JSON?, outbox: inout [OutgoingMessage])
    throws(ResponseError) -> Reply
  /// `$/cancelRequest` for a request answered `.later` and not yet responded to: the server
  /// stops waiting for its work and answers it with `Endpoint.cancelled`. Others are ignored.
  mutating func cancel(_ id: RequestID, outbox: inout [OutgoingMessage])
  /// Whether a request answered `.later` is still unanswered. `shutdown` waits for none to be,
  /// and so does `exit`: no request a client sent is left without its response.
  var hasPendingRequests: Bool { get }
  /// What those requests are waiting for, for a log line when the wait is long.
  var pendingRequestsDescription: String { get }
  /// A notification other than `initialized`, `exit` and `$/…`. Unknown ones are ignored.
  mutating func notification(_ method: String, params: JSON?, outbox: inout [OutgoingMessage])
  /// The client's response to a request the server sent (`OutgoingMessage.request`).
  mutating func response(_ id: RequestID, _ outcome: Result<JSON, ResponseError>, outbox: inout [OutgoingMessage])

  /// When the server next wants `tick` called, on the connection's clock; nil for never. It is
  /// a time, not an interval: the connection also calls `tick` whenever work finished off the
  /// loop signals, so nothing needs polling.
  ///
  /// `mutating` although reading it changes nothing: a non-mutating getter of a server the size
  /// of Biki's, called through this protocol, copies the whole server first, on every pass.
  var nextDeadline: Double? { mutating get }
  /// Work that was waiting for a time or finished off the loop: debounced diagnostics, finished
  /// checks and questions, polling, time limits.
  mutating func tick(now: Double, outbox: inout [OutgoingMessage])
}

extension LanguageServer {
  var pendingRequestsDescription: String { "" }

  /// A server that sends no requests awaits no responses.
  package mutating func response(
    _ id: RequestID, _ outcome: Result<JSON, ResponseError>, outbox: inout [OutgoingMessage]
  ) {}
}

/// What a server answers a request with.
package enum Reply: Sendable {
  /// The response, now.
  case result(JSON)
  /// The work runs off the loop; the server sends the response (or an error) when it is done.
  case later
}

/// The LSP lifecycle around a server: a pure state machine from incoming messages to the
/// messages to send and, after `exit`, the process's exit status.
package struct Endpoint<Server: LanguageServer> {
  enum Phase: Equatable, Sendable {
    case awaitingInitialize
    case running
    case shutDown
  }

  package var server: Server
  private(set) var phase: Phase = .awaitingInitialize
  /// Set once `exit` arrives (and no request is still waiting for work): 0 after `shutdown`, 1
  /// without.
  package private(set) var exitStatus: Int32?
  /// A `shutdown` answered once the requests still waiting for work are answered.
  private var shutdownID: RequestID?
  /// `exit` arrived while requests were still waiting for work; with the status it asks for.
  private var exitRequested: Int32?

  /// Whether requests are still waiting for work off the loop: the connection keeps serving
  /// them after the input ends.
  package var isWaitingForWork: Bool { server.hasPendingRequests }

  /// Whether the client has asked the process to end (`shutdown`, or `exit`).
  var isEnding: Bool { phase == .shutDown || exitRequested != nil }

  package init(server: Server) {
    self.server = server
  }

  package mutating func receive(_ message: IncomingMessage) -> [OutgoingMessage] {
    var outbox: [OutgoingMessage] = []
    receive(message, into: &outbox)
    return outbox
  }

  /// Appends what answers `message` to `outbox`, which the message loop keeps from one pass to
  /// the next.
  package mutating func receive(_ message: IncomingMessage, into outbox: inout [OutgoingMessage]) {
    switch message {
    case .invalid(let id, let error):
      outbox.append(.error(id: id, error))
    case .invalidNotification(let method, let error):
      if method == "exit" {
        notification(method, params: nil, outbox: &outbox)
      } else if phase == .running {
        outbox.append(
          .notification(
            method: "window/logMessage",
            params: ["type": 2, "message": .string("ignored the notification \"\(method)\": \(error.message)")]))
      }
    case .response(let id?, let outcome):
      // After `shutdown` nothing the server asked for is still wanted.
      if phase == .running { server.response(id, outcome, outbox: &outbox) }
    case .response(nil, _):
      break  // a response to no request: the client's error about something unreadable
    case .notification(let method, let params):
      notification(method, params: params, outbox: &outbox)
    case .request(let id, let method, let params):
      switch request(id, method, params: params, outbox: &outbox) {
      case .success(.result(let result)): outbox.append(.result(id: id, result))
      case .success(.later): break
      case .failure(let error): outbox.append(.error(id: id, error))
      }
    }
  }

  /// The answer to a request the client cancelled before it was handled.
  package static func cancelled(_ id: RequestID) -> OutgoingMessage {
    .error(id: id, ResponseError(code: ResponseError.requestCancelled, message: "the request was cancelled"))
  }

  /// The answer to a request about a document the client changed before it was handled.
  package static func contentModified(_ id: RequestID) -> OutgoingMessage {
    .error(
      id: id,
      ResponseError(
        code: ResponseError.contentModified, message: "the document changed after this request was sent; ask again"))
  }

  /// After `shutdown` the server still collects the work its waiting requests need, and nothing
  /// else.
  package mutating func tick(now: Double) -> [OutgoingMessage] {
    var outbox: [OutgoingMessage] = []
    tick(now: now, into: &outbox)
    return outbox
  }

  /// Appends what the server's due work sends to `outbox`.
  mutating func tick(now: Double, into outbox: inout [OutgoingMessage]) {
    guard phase != .awaitingInitialize else { return }
    server.tick(now: now, outbox: &outbox)
    settleShutdown(&outbox)
  }

  package var nextDeadline: Double? {
    mutating get { phase == .awaitingInitialize ? nil : server.nextDeadline }
  }

  /// Answers a waiting `shutdown`, and honours a waiting `exit`, once no request waits for work.
  private mutating func settleShutdown(_ outbox: inout [OutgoingMessage]) {
    guard !server.hasPendingRequests else { return }
    if let id = shutdownID {
      shutdownID = nil
      outbox.append(.result(id: id, .null))
    }
    if let status = exitRequested {
      exitRequested = nil
      exitStatus = status
    }
  }

  private mutating func request(_ id: RequestID, _ method: String, params: JSON?, outbox: inout [OutgoingMessage])
    -> Result<Reply, ResponseError>
  {
    switch (phase, method) {
    case (.awaitingInitialize, "initialize"):
      phase = .running
      // Read whole: settings are looked for all over it, and it comes once.
      let capabilities = server.initialize(params: params?.unwrapped, outbox: &outbox)
      return .success(
        .result([
          "capabilities": capabilities,
          "serverInfo": ["name": .string(server.name), "version": .string(server.version)],
        ]))
    case (.awaitingInitialize, _):
      return .failure(
        ResponseError(
          code: ResponseError.serverNotInitialized, message: "the server is not initialized; send \"initialize\" first")
      )
    case (.shutDown, _):
      return .failure(
        ResponseError(
          code: ResponseError.invalidRequest, message: "the server is shutting down; only \"exit\" is accepted"))
    case (.running, "initialize"):
      return .failure(ResponseError(code: ResponseError.invalidRequest, message: "the server is already initialized"))
    case (.running, "shutdown"):
      phase = .shutDown
      guard server.hasPendingRequests else { return .success(.result(.null)) }
      shutdownID = id
      return .success(.later)
    case (.running, _):
      do {
        return .success(try server.request(id, method, params: params, outbox: &outbox))
      } catch {
        return .failure(error)
      }
    }
  }

  private mutating func notification(_ method: String, params: JSON?, outbox: inout [OutgoingMessage]) {
    if method == "exit" {
      let status: Int32 = phase == .shutDown ? 0 : 1
      if phase != .awaitingInitialize && server.hasPendingRequests {
        exitRequested = status
      } else {
        exitStatus = status
      }
      return
    }
    // A cancel for a request still unread is the message queue's; one for a request whose work
    // runs off the loop is the server's.
    if method == "$/cancelRequest", phase != .awaitingInitialize, let id = RequestID(params?["id"]) {
      server.cancel(id, outbox: &outbox)
      return
    }
    // Before `initialize` notifications are dropped, after `shutdown` they are moot, and
    // other `$/` ones are optional by the spec. `initialized` reaches the server: from then on
    // it may send the client requests.
    guard phase == .running, !method.hasPrefix("$/") else { return }
    server.notification(method, params: params, outbox: &outbox)
  }
}

extension ResponseError {
  package static func methodNotFound(_ method: String) -> ResponseError {
    ResponseError(code: methodNotFound, message: "unknown method \"\(method)\"")
  }
}
