import BikiJSON
import Testing

@testable import BikiProtocol

/// A server that echoes: enough to test the lifecycle around it.
struct EchoServer: LanguageServer {
  let name = "echo"
  let version = "1.2.3"
  var notifications: [String] = []
  var ticks: [Double] = []
  var nextDeadline: Double? = 5
  /// Requests answered `.later` and not yet answered.
  var pending: [RequestID] = []
  var hasPendingRequests: Bool { !pending.isEmpty }

  mutating func initialize(params: JSON?, outbox: inout [OutgoingMessage]) -> JSON { ["echo": true] }

  mutating func request(_ id: RequestID, _ method: String, params: JSON?, outbox: inout [OutgoingMessage])
    throws(ResponseError) -> Reply
  {
    if method == "later" {
      pending.append(id)
      return .later
    }
    guard method == "echo" else { throw .methodNotFound(method) }
    outbox.append(.notification(method: "echoed", params: params ?? .null))
    return .result(params ?? .null)
  }

  mutating func cancel(_ id: RequestID, outbox: inout [OutgoingMessage]) {
    guard let index = pending.firstIndex(of: id) else { return }
    pending.remove(at: index)
    outbox.append(Endpoint<EchoServer>.cancelled(id))
  }

  mutating func notification(_ method: String, params: JSON?, outbox: inout [OutgoingMessage]) {
    notifications.append(method)
  }

  mutating func tick(now: Double, outbox: inout [OutgoingMessage]) {
    ticks.append(now)
    for id in pending { outbox.append(.result(id: id, "done")) }
    pending = []
  }
}

@Suite struct EndpointTests {
  func request(_ id: Int64, _ method: String, _ params: JSON? = nil) -> IncomingMessage {
    .request(id: .number(id), method: method, params: params)
  }

  func errorCode(_ messages: [OutgoingMessage]) -> Int? {
    for case .error(_, let error) in messages { return error.code }
    return nil
  }

  @Test func aRequestAnsweredLaterIsCancelledByTheServerAndOthersAreNot() {
    var endpoint = Endpoint(server: EchoServer())
    _ = endpoint.receive(request(0, "initialize"))
    #expect(endpoint.receive(request(1, "later")).isEmpty)
    #expect(endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 7])).isEmpty)
    let cancelled = endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 1]))
    #expect(errorCode(cancelled) == ResponseError.requestCancelled)
    #expect(endpoint.server.pending.isEmpty)
    // A cancel is not one of the server's own notifications.
    #expect(endpoint.server.notifications.isEmpty)
  }

  @Test func shutdownAndExitWaitForRequestsStillWaitingForWork() {
    var endpoint = Endpoint(server: EchoServer())
    _ = endpoint.receive(request(0, "initialize"))
    _ = endpoint.receive(request(1, "later"))
    #expect(endpoint.receive(request(2, "shutdown")).isEmpty)
    #expect(endpoint.receive(.notification(method: "exit", params: nil)).isEmpty)
    #expect(endpoint.exitStatus == nil)
    #expect(endpoint.isWaitingForWork)
    let sent = endpoint.tick(now: 1)
    #expect(sent.count == 2)
    if case .result(.number(1)?, "done")? = sent.first {
    } else {
      Issue.record("the waiting request comes first: \(sent)")
    }
    if case .result(.number(2)?, .null)? = sent.last {} else { Issue.record("then shutdown's null: \(sent)") }
    #expect(endpoint.exitStatus == 0)
  }

  @Test func requestsBeforeInitializeAreRefusedAndNotificationsDropped() {
    var endpoint = Endpoint(server: EchoServer())
    #expect(errorCode(endpoint.receive(request(1, "echo"))) == ResponseError.serverNotInitialized)
    #expect(endpoint.receive(.notification(method: "textDocument/didOpen", params: nil)).isEmpty)
    #expect(endpoint.server.notifications.isEmpty)
    #expect(endpoint.tick(now: 10).isEmpty)
    #expect(endpoint.nextDeadline == nil)
  }

  @Test func initializeReturnsCapabilitiesAndServerInfo() {
    var endpoint = Endpoint(server: EchoServer())
    let replies = endpoint.receive(request(1, "initialize", [:]))
    #expect(
      replies.map(\.json) == [
        [
          "jsonrpc": "2.0", "id": 1,
          "result": ["capabilities": ["echo": true], "serverInfo": ["name": "echo", "version": "1.2.3"]],
        ]
      ])
    #expect(errorCode(endpoint.receive(request(2, "initialize"))) == ResponseError.invalidRequest)
  }

  @Test func requestsWithoutParamsAndServerNotificationsComeOutInOrder() {
    var endpoint = Endpoint(server: EchoServer())
    _ = endpoint.receive(request(1, "initialize"))
    let replies = endpoint.receive(request(2, "echo"))
    #expect(
      replies.map(\.json) == [
        ["jsonrpc": "2.0", "method": "echoed", "params": .null], ["jsonrpc": "2.0", "id": 2, "result": .null],
      ])
    #expect(errorCode(endpoint.receive(request(3, "missing"))) == ResponseError.methodNotFound)
  }

  /// eglot's shutdown sequence, byte for byte in what matters: `shutdown` and `exit` with
  /// `"params": null`. The server must answer the first and stop on the second with status 0.
  @Test func eglotShutdownWithNullParamsExitsCleanly() {
    var endpoint = Endpoint(server: EchoServer())
    _ = endpoint.receive(request(1, "initialize"))
    let reply = endpoint.receive(
      IncomingMessage.parse(Array(#"{"jsonrpc":"2.0","id":2,"method":"shutdown","params":null}"#.utf8)))
    #expect(reply.map(\.json) == [["jsonrpc": "2.0", "id": 2, "result": .null]])
    #expect(
      endpoint.receive(IncomingMessage.parse(Array(#"{"jsonrpc":"2.0","method":"exit","params":null}"#.utf8))).isEmpty)
    #expect(endpoint.exitStatus == 0)
  }

  @Test func badNotificationsAreLoggedNeverAnsweredAndExitStillExits() {
    var endpoint = Endpoint(server: EchoServer())
    _ = endpoint.receive(request(1, "initialize"))
    let replies = endpoint.receive(
      .invalidNotification(method: "custom/thing", error: .invalidParams("\"params\" must be an object")))
    #expect(replies.count == 1)
    guard case .notification("window/logMessage", let params)? = replies.first else {
      Issue.record("expected a log message, got \(replies)")
      return
    }
    #expect(params["message"]?.stringValue?.contains("custom/thing") == true)
    #expect(endpoint.server.notifications.isEmpty)
    #expect(endpoint.receive(.invalidNotification(method: "exit", error: .invalidParams("bad"))).isEmpty)
    #expect(endpoint.exitStatus == 1)
  }

  /// `$/` notifications are optional by the spec and not passed on; `initialized` is, as the
  /// server may send requests from then on.
  @Test func dollarNotificationsAreNotPassedOn() {
    var endpoint = Endpoint(server: EchoServer())
    _ = endpoint.receive(request(1, "initialize"))
    for method in ["initialized", "$/setTrace", "$/somethingNew", "custom/thing"] {
      #expect(endpoint.receive(.notification(method: method, params: nil)).isEmpty)
    }
    #expect(endpoint.server.notifications == ["initialized", "custom/thing"])
  }

  @Test func shutdownThenExitIsZero() {
    var endpoint = Endpoint(server: EchoServer())
    _ = endpoint.receive(request(1, "initialize"))
    #expect(endpoint.receive(request(2, "shutdown")).map(\.json) == [["jsonrpc": "2.0", "id": 2, "result": .null]])
    #expect(errorCode(endpoint.receive(request(3, "echo"))) == ResponseError.invalidRequest)
    #expect(endpoint.exitStatus == nil)
    _ = endpoint.receive(.notification(method: "exit", params: nil))
    #expect(endpoint.exitStatus == 0)
  }

  @Test func exitWithoutShutdownIsOne() {
    var endpoint = Endpoint(server: EchoServer())
    _ = endpoint.receive(request(1, "initialize"))
    _ = endpoint.receive(.notification(method: "exit", params: nil))
    #expect(endpoint.exitStatus == 1)
  }

  @Test func invalidMessagesAreAnsweredAndResponsesIgnored() {
    var endpoint = Endpoint(server: EchoServer())
    let invalid = ResponseError(code: ResponseError.parseError, message: "bad")
    #expect(
      endpoint.receive(.invalid(id: nil, error: invalid)).map(\.json) == [
        ["jsonrpc": "2.0", "id": .null, "error": ["code": -32700, "message": "bad"]]
      ])
    #expect(endpoint.receive(.response(id: .number(4), .success(.null))).isEmpty)
  }

  @Test func ticksReachTheServerOnlyWhileRunning() {
    var endpoint = Endpoint(server: EchoServer())
    _ = endpoint.receive(request(1, "initialize"))
    #expect(endpoint.nextDeadline == 5)
    _ = endpoint.tick(now: 6)
    #expect(endpoint.server.ticks == [6])
  }
}

@Suite struct MessageQueueTests {
  @Test func aCancelReplacesTheWaitingRequest() {
    var queue = MessageQueue()
    queue.push(.message(.request(id: .number(1), method: "slow", params: nil)))
    queue.push(.message(.request(id: .string("b"), method: "slow", params: nil)))
    queue.push(.message(.notification(method: "$/cancelRequest", params: ["id": "b"])))
    #expect(
      queue.takeAll() == [.message(.request(id: .number(1), method: "slow", params: nil)), .cancelled(.string("b"))])
    #expect(queue.isEmpty)
  }

  /// A change to a document makes the requests about it still waiting ContentModified; requests
  /// about other documents, a diagnostic pull and what was already taken are left alone.
  @Test func aChangeMakesTheWaitingRequestsAboutItsDocumentContentModified() {
    func about(_ uri: String) -> JSON {
      ["textDocument": ["uri": .string(uri)], "position": ["line": 0, "character": 0]]
    }
    var queue = MessageQueue()
    queue.push(.message(.request(id: .number(1), method: "textDocument/completion", params: about("file:///a.json"))))
    _ = queue.takeAll()
    let waiting: [InboxEntry] = [
      .message(.request(id: .number(2), method: "textDocument/codeAction", params: about("file:///a.json"))),
      .message(.request(id: .number(3), method: "textDocument/hover", params: about("file:///b.json"))),
      .message(.request(id: .number(4), method: "textDocument/diagnostic", params: about("file:///a.json"))),
      .message(.request(id: .number(5), method: "biki/topics", params: nil)),
    ]
    for entry in waiting { queue.push(entry) }
    let change = InboxEntry.message(
      .notification(
        method: "textDocument/didChange",
        params: ["textDocument": ["uri": "file:///a.json", "version": 2], "contentChanges": []]))
    queue.push(change)
    #expect(queue.takeAll() == [.contentModified(.number(2))] + waiting.dropFirst() + [change])
    let answer = Endpoint<EchoServer>.contentModified(.number(2)).json
    #expect(answer["error"]?["code"] == -32801)
  }

  @Test func aCancelForARequestNotWaitingHereGoesOnToTheServer() {
    var queue = MessageQueue()
    queue.push(.message(.request(id: .number(1), method: "x", params: nil)))
    _ = queue.takeAll()
    let cancel = InboxEntry.message(.notification(method: "$/cancelRequest", params: ["id": 1]))
    queue.push(cancel)
    #expect(queue.takeAll() == [cancel])
  }

  @Test func takingIntoAnInboxKeepsWhatItHeldAndLeavesTheQueueEmpty() {
    let first = InboxEntry.message(.notification(method: "a", params: nil))
    let second = InboxEntry.message(.notification(method: "b", params: nil))
    let third = InboxEntry.message(.notification(method: "c", params: nil))
    var queue = MessageQueue()
    var inbox: [InboxEntry] = []
    queue.push(first)
    queue.takeAll(into: &inbox)
    #expect(inbox == [first])
    #expect(queue.isEmpty)
    queue.push(second)
    queue.push(third)
    queue.takeAll(into: &inbox)
    #expect(inbox == [first, second, third])
    #expect(queue.isEmpty)
    // The queue, having given its buffer away, still queues.
    queue.push(first)
    #expect(queue.takeAll() == [first])
  }

  @Test func framingProblemsBecomeErrorsWithANullID() {
    let entries = MessageQueue.entries(for: [.malformedHeader("no colon"), .oversized(length: 99)], maximumBody: 10)
    for entry in entries {
      guard case .message(.invalid(nil, let error)) = entry else {
        Issue.record("\(entry)")
        continue
      }
      #expect(error.code == ResponseError.invalidRequest)
    }
  }
}
