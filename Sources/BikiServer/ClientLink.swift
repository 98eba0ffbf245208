import BikiJSON
import BikiProtocol

/// The server's side of talking to the client beyond answering it: what the client said it can
/// do, the requests sent to it and what each is for, the settings it gave, whether it watches
/// the pack files for the server, and the progress shown in it.
struct ClientLink {
  /// What the client said it can do in `initialize`.
  struct Abilities: Equatable {
    /// `workspace/configuration`: the server asks for its settings.
    var configuration = false
    /// `workspace/didChangeWatchedFiles` registered at run time: the client watches the files.
    var watchesFiles = false
    /// `window/workDoneProgress`: the server may create progress and report it.
    var progress = false
    /// `workspace/diagnostic/refresh`: the server may ask a pulling client to pull again.
    var refreshesDiagnostics = false

    init(_ params: JSON?) {
      let capabilities = params?["capabilities"]
      configuration = capabilities?["workspace"]?["configuration"]?.boolValue ?? false
      watchesFiles =
        capabilities?["workspace"]?["didChangeWatchedFiles"]?["dynamicRegistration"]?.boolValue ?? false
      progress = capabilities?["window"]?["workDoneProgress"]?.boolValue ?? false
      refreshesDiagnostics = capabilities?["workspace"]?["diagnostics"]?["refreshSupport"]?.boolValue ?? false
    }

    init() {}
  }

  /// What a request the server sent is for, to know what its response means.
  enum Purpose: Equatable {
    case configuration
    case watchRegistration(String)
    case progress
    case other
  }

  var abilities = Abilities()
  var settings = ServerSettings()
  /// The registration id under which the client watches the pack files; nil while the
  /// server's own poll watches them.
  var watchRegistration: String?
  private var sent = 0
  private var waiting: [RequestID: Purpose] = [:]
  /// Progress shown in the client, by what it is about ("reload", or a document's URI).
  var progress: [String: String] = [:]
  /// Whether the client has had the `initialize` result, which it says with `initialized`: LSP
  /// lets a server send it requests (`window/workDoneProgress/create` among them) only then.
  private var mayAsk = false
  /// Progress begun before that, by subject, with its title: shown once the client is ready,
  /// if it is still going on.
  private var deferredProgress: [(subject: String, title: String, cancellable: Bool)] = []

  /// Sends a request to the client; its response comes to `answered`.
  mutating func send(_ method: String, _ params: JSON, for purpose: Purpose, outbox: inout [OutgoingMessage]) {
    sent += 1
    let id = RequestID.string("biki-\(sent)")
    // A client that never answers leaves no more than a few of these behind.
    if waiting.count >= 64 { waiting.removeAll() }
    waiting[id] = purpose
    outbox.append(.request(id: id, method: method, params: params))
  }

  /// What the request `id` was for; nil for an id the server never sent (or already heard).
  mutating func answered(_ id: RequestID) -> Purpose? { waiting.removeValue(forKey: id) }

  /// Starts progress about `subject` titled `title`, if the client shows progress and none is
  /// shown about it already; `cancellable` offers the client a button that sends
  /// `window/workDoneProgress/cancel`.
  mutating func beginProgress(
    _ subject: String, title: String, cancellable: Bool = false, outbox: inout [OutgoingMessage]
  ) {
    guard abilities.progress, progress[subject] == nil else { return }
    guard mayAsk else {
      if !deferredProgress.contains(where: { $0.subject == subject }) {
        deferredProgress.append((subject, title, cancellable))
      }
      return
    }
    let token = "biki-progress-\(sent + 1)"
    send("window/workDoneProgress/create", ["token": .string(token)], for: .progress, outbox: &outbox)
    progress[subject] = token
    outbox.append(
      .notification(
        method: "$/progress",
        params: [
          "token": .string(token),
          "value": ["kind": "begin", "title": .string(title), "cancellable": .bool(cancellable)],
        ]))
  }

  /// What the progress shown under `token` is about, if any is.
  func subject(ofProgress token: String) -> String? { progress.first { $0.value == token }?.key }

  /// Ends the progress about `subject`, if any is shown.
  mutating func endProgress(_ subject: String, message: String? = nil, outbox: inout [OutgoingMessage]) {
    deferredProgress.removeAll { $0.subject == subject }
    guard let token = progress.removeValue(forKey: subject) else { return }
    var value: [(String, JSON)] = [("kind", "end")]
    if let message { value.append(("message", .string(message))) }
    outbox.append(
      .notification(method: "$/progress", params: ["token": .string(token), "value": .object(pairs: value)]))
  }

  /// Asks a client that pulls diagnostics, and can be asked, to pull them again
  /// (`workspace/diagnostic/refresh`, which has no params).
  mutating func refreshDiagnostics(outbox: inout [OutgoingMessage]) {
    guard abilities.refreshesDiagnostics, mayAsk else { return }
    send("workspace/diagnostic/refresh", .null, for: .other, outbox: &outbox)
  }

  /// The client has had the `initialize` result: requests may go to it, and progress begun
  /// before and still going on is shown now.
  mutating func ready(outbox: inout [OutgoingMessage]) {
    mayAsk = true
    let waiting = deferredProgress
    deferredProgress = []
    for (subject, title, cancellable) in waiting {
      beginProgress(subject, title: title, cancellable: cancellable, outbox: &outbox)
    }
  }
}
