import BikiJSON
import BikiProtocol

/// What the server asks of the client, LSP 3.17's way: its settings (`workspace/configuration`),
/// to watch the pack files (`client/registerCapability`), and progress while packs load or a
/// slow check runs (`window/workDoneProgress/create`, `$/progress`). A client that cannot do one
/// of these is served the old way: settings from `initializationOptions` and
/// `didChangeConfiguration`, the server's own poll, no progress.
extension BikiServer {
  /// A check running this long is shown as progress.
  static let slowCheck = 0.5

  /// `initialized`: the client may now be asked for its settings, and to watch the files.
  mutating func clientReady(outbox: inout [OutgoingMessage]) {
    client.ready(outbox: &outbox)
    if client.abilities.configuration { askForSettings(outbox: &outbox) }
    if client.abilities.watchesFiles { askToWatchFiles(outbox: &outbox) }
  }

  private mutating func askForSettings(outbox: inout [OutgoingMessage]) {
    client.send("workspace/configuration", ["items": [["section": "biki"]]], for: .configuration, outbox: &outbox)
  }

  /// Registers a watcher for every pack and plugin directory the server reads.
  private mutating func askToWatchFiles(outbox: inout [OutgoingMessage]) {
    let id = "biki-watch-\(dependencies.now())"
    let watchers = dependencies.watchedDirectories().map {
      JSON.object(pairs: [("globPattern", .string($0 + "/**/*"))])
    }
    client.send(
      "client/registerCapability",
      [
        "registrations": [
          [
            "id": .string(id), "method": "workspace/didChangeWatchedFiles",
            "registerOptions": ["watchers": .array(watchers)],
          ]
        ]
      ], for: .watchRegistration(id), outbox: &outbox)
  }

  /// `workspace/didChangeConfiguration`: a client that answers `workspace/configuration` is
  /// asked again; another's settings are in the notification.
  mutating func configurationChanged(_ params: JSON?, outbox: inout [OutgoingMessage]) {
    if client.abilities.configuration {
      askForSettings(outbox: &outbox)
    } else if let settings = params?["settings"] {
      apply(settings["biki"] ?? settings, outbox: &outbox)
    }
  }

  /// `workspace/didChangeWatchedFiles`: a pack or plugin changed, as the client saw it.
  mutating func watchedFilesChanged(outbox: inout [OutgoingMessage]) {
    if dependencies.packStamp() != packStamp { startReload(announce: .always, outbox: &outbox) }
  }

  /// The client's response to a request the server sent.
  package mutating func response(
    _ id: RequestID, _ outcome: Result<JSON, ResponseError>, outbox: inout [OutgoingMessage]
  ) {
    switch (client.answered(id), outcome) {
    case (.configuration?, .success(let result)):
      apply(result.arrayValue?.first ?? .null, outbox: &outbox)
    case (.configuration?, .failure(let error)):
      outbox.append(Self.log("the client did not give its settings: \(error.message)", type: 2))
    case (.watchRegistration(let registration)?, .success):
      // The client watches the files now: the server's own poll stops.
      client.watchRegistration = registration
    case (.watchRegistration?, .failure(let error)):
      outbox.append(Self.log("the client will not watch the pack files (\(error.message)); Biki polls them", type: 3))
    case (.progress?, _), (.other?, _), (nil, _):
      break
    }
  }

  /// Uses the settings in `section` (over the current ones); a value that cannot be used is
  /// named in the log. New pack or plugin directories load the packs again, and are watched.
  mutating func apply(_ section: JSON, outbox: inout [OutgoingMessage]) {
    let (settings, problems) = ServerSettings.read(section, over: client.settings)
    for problem in problems { outbox.append(Self.log(problem, type: 2)) }
    let before = client.settings
    client.settings = settings
    language.inlayHintsEnabled = settings.inlayHints
    language.diagnosticsDelay = settings.diagnosticsDelay
    guard settings.packDirectories != before.packDirectories || settings.pluginDirectories != before.pluginDirectories
    else { return }
    dependencies.useDirectories(settings.packDirectories, settings.pluginDirectories)
    startReload(announce: .always, outbox: &outbox)
    if let registration = client.watchRegistration {
      client.send(
        "client/unregisterCapability",
        ["unregisterations": [["id": .string(registration), "method": "workspace/didChangeWatchedFiles"]]], for: .other,
        outbox: &outbox)
      client.watchRegistration = nil
      askToWatchFiles(outbox: &outbox)
    }
  }

  /// When the next running check becomes slow enough to show, if one will.
  var slowCheckDue: Double? {
    guard !language.checks.isEmpty else { return nil }
    return language.checks.filter { client.progress[$0.key] == nil }.map { $0.value.startedAt + Self.slowCheck }.min()
  }

  /// Shows progress for checks that have run `slowCheck` seconds, and ends it for those done.
  mutating func showSlowChecks(now: Double, outbox: inout [OutgoingMessage]) {
    for (uri, check) in language.checks where now - check.startedAt >= Self.slowCheck {
      let name = uri.split(separator: "/").last.map(String.init) ?? uri
      client.beginProgress(uri, title: "Biki: checking \(name)", outbox: &outbox)
    }
    for subject in client.progress.keys where subject != "reload" && language.checks[subject] == nil {
      client.endProgress(subject, outbox: &outbox)
    }
  }
}
