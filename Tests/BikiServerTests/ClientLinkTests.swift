import BikiJSON
import BikiProtocol
import BikiTestSupport
import Synchronization
import Testing

@testable import BikiServer

/// What the server asks of a client that can answer: its settings, to watch the pack files,
/// and room to show progress; and the old ways for a client that cannot.
@Suite struct ClientLinkTests {
  static func capabilities(configuration: Bool = false, watches: Bool = false, progress: Bool = false) -> JSON {
    [
      "workspace": [
        "configuration": .bool(configuration), "didChangeWatchedFiles": ["dynamicRegistration": .bool(watches)],
      ],
      "window": ["workDoneProgress": .bool(progress)],
    ]
  }

  static func endpoint(
    _ dependencies: ServerDependencies = ServerFixtures.dependencies(), capabilities: JSON,
    options: JSON? = nil
  ) -> (Endpoint<BikiServer>, [OutgoingMessage]) {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: dependencies))
    var params: [(String, JSON)] = [("capabilities", capabilities)]
    if let options { params.append(("initializationOptions", options)) }
    var sent = endpoint.receive(.request(id: .number(0), method: "initialize", params: .object(pairs: params)))
    sent += endpoint.receive(.notification(method: "initialized", params: [:]))
    return (endpoint, sent)
  }

  /// The requests the server sent, by method: their ids and params.
  static func requests(_ sent: [OutgoingMessage], _ method: String) -> [(RequestID, JSON)] {
    sent.compactMap { if case .request(let id, method, let params) = $0 { (id, params) } else { nil } }
  }

  static let uri = "file:///home/me/packs/mine.json"

  static func inlayHints(_ endpoint: inout Endpoint<BikiServer>) -> Int? {
    _ = endpoint.notify(
      "textDocument/didOpen",
      [
        "textDocument": [
          "uri": .string(uri), "languageId": "json", "version": 1,
          "text": .string(ServerFixtures.pack(id: "mine").replacingOccurrences(of: "Long things.", with: "8本 and 3本.")),
        ]
      ])
    return endpoint.call(
      "textDocument/inlayHint",
      [
        "textDocument": ["uri": .string(uri)],
        "range": ["start": ["line": 0, "character": 0], "end": ["line": 99, "character": 0]],
      ]
    ).arrayValue?.count
  }

  @Test func theSettingsAreAskedForAtInitializedAndAgainWhenTheyChange() throws {
    var (endpoint, sent) = Self.endpoint(capabilities: Self.capabilities(configuration: true))
    let asked = Self.requests(sent, "workspace/configuration")
    #expect(asked.count == 1)
    #expect(asked.first?.1 == ["items": [["section": "biki"]]])
    #expect(try #require(Self.inlayHints(&endpoint)) > 0)
    let (id, _) = try #require(asked.first)
    let applied = endpoint.receive(.response(id: id, .success([["inlayHints": false, "diagnosticsDelay": 2]])))
    #expect(applied.isEmpty)
    #expect(Self.inlayHints(&endpoint) == 0)
    #expect(endpoint.server.language.diagnosticsDelay == 2)
    // A change is announced; the settings are asked for again.
    let again = endpoint.receive(.notification(method: "workspace/didChangeConfiguration", params: ["settings": .null]))
    #expect(Self.requests(again, "workspace/configuration").count == 1)
  }

  /// A client that cannot be asked: `initializationOptions`, then the notification's settings.
  /// A value that cannot be used is named, and the others still apply.
  @Test func aClientThatCannotBeAskedGivesItsSettingsItself() {
    var (endpoint, sent) = Self.endpoint(
      capabilities: Self.capabilities(), options: ["biki": ["inlayHints": false, "diagnosticsDelay": 9]])
    #expect(Self.requests(sent, "workspace/configuration").isEmpty)
    #expect(
      sent.notifications("window/logMessage").compactMap { $0["message"]?.stringValue }
        == ["biki.diagnosticsDelay must be a number of seconds from 0 to 5, not 9"])
    #expect(Self.inlayHints(&endpoint) == 0)
    let logged = endpoint.receive(
      .notification(
        method: "workspace/didChangeConfiguration",
        params: ["settings": ["biki": ["inlayHints": true, "packDirectories": ["packs", "/srv/packs"]]]]))
    #expect(
      logged.notifications("window/logMessage").compactMap { $0["message"]?.stringValue }.first
        == "biki.packDirectories: packs is not an absolute path; left out")
    #expect(endpoint.server.client.settings.packDirectories == ["/srv/packs"])
    #expect(Self.inlayHints(&endpoint).map { $0 > 0 } == true)
  }

  /// New pack directories in the settings load the packs again, from them too.
  @Test func newPackDirectoriesLoadThePacksAgain() {
    let used = Mutex<[[String]]>([])
    var dependencies = ServerFixtures.dependencies()
    dependencies.useDirectories = { packs, _ in used.withLock { $0.append(packs) } }
    var (endpoint, _) = Self.endpoint(dependencies, capabilities: Self.capabilities())
    let reloaded = endpoint.receive(
      .notification(
        method: "workspace/didChangeConfiguration", params: ["settings": ["biki": ["packDirectories": ["/srv/packs"]]]])
    )
    #expect(used.withLock { $0 } == [["/srv/packs"]])
    #expect(reloaded.notifications("biki/packsChanged").count == 1)
  }

  /// A client that watches files for the server is asked to watch the pack and plugin
  /// directories; once it agrees, the server's own poll stops and the client's word reloads.
  @Test func aClientThatWatchesTheFilesReplacesThePoll() throws {
    let files = ServerFixtures.Files(["/packs/test.json": ServerFixtures.pack()])
    var dependencies = ServerFixtures.dependencies(files: files)
    dependencies.watchedDirectories = { ["/packs", "/plugins"] }
    var (endpoint, sent) = Self.endpoint(dependencies, capabilities: Self.capabilities(watches: true))
    let (id, params) = try #require(Self.requests(sent, "client/registerCapability").first)
    let registration = params["registrations"]?.arrayValue?.first
    #expect(registration?["method"] == "workspace/didChangeWatchedFiles")
    #expect(
      registration?["registerOptions"]?["watchers"] == [
        ["globPattern": "/packs/**/*"], ["globPattern": "/plugins/**/*"],
      ])
    #expect(endpoint.nextDeadline == 100 + BikiServer.pollInterval)
    _ = endpoint.receive(.response(id: id, .success(.null)))
    #expect(endpoint.nextDeadline == nil)
    files.set("/packs/test.json", ServerFixtures.pack(max: 50))
    let changed = endpoint.receive(
      .notification(
        method: "workspace/didChangeWatchedFiles", params: ["changes": [["uri": "file:///packs/test.json", "type": 2]]])
    )
    #expect(changed.notifications("biki/packsChanged").count == 1)
  }

  @Test func aRefusedRegistrationKeepsThePoll() throws {
    var (endpoint, sent) = Self.endpoint(capabilities: Self.capabilities(watches: true))
    let (id, _) = try #require(Self.requests(sent, "client/registerCapability").first)
    let refused = endpoint.receive(.response(id: id, .failure(ResponseError(code: -32601, message: "no"))))
    #expect(refused.notifications("window/logMessage").count == 1)
    #expect(endpoint.nextDeadline == 100 + BikiServer.pollInterval)
  }

  /// Loading packs shows as progress in a client that shows it: created, begun, ended.
  @Test func aReloadShowsAsProgress() throws {
    let held = ServerFixtures.HeldWork()
    var (endpoint, _) = Self.endpoint(
      ServerFixtures.dependencies(background: held.runner), capabilities: Self.capabilities(progress: true))
    var sent = endpoint.receive(.request(id: .number(5), method: "biki/reloadPacks", params: [:]))
    let (_, created) = try #require(Self.requests(sent, "window/workDoneProgress/create").first)
    let token = try #require(created["token"])
    let begun = sent.notifications("$/progress")
    #expect(begun.first?["token"] == token)
    #expect(begun.first?["value"]?["kind"] == "begin")
    #expect(begun.first?["value"]?["title"] == "Biki: loading packs")
    held.runAll()
    sent = endpoint.tick(now: 100)
    let ended = sent.notifications("$/progress")
    #expect(ended.first?["token"] == token)
    #expect(ended.first?["value"]?["kind"] == "end")
    #expect(sent.contains { if case .result(.number(5)?, _) = $0 { true } else { false } })
  }

  /// A reload's progress can be cancelled from the client: the reload stops, the request that
  /// asked for it is told, the progress ends, and the packs loaded before still serve.
  @Test func aReloadCancelledFromItsProgressStopsAndSaysSo() throws {
    let held = ServerFixtures.HeldWork()
    var (endpoint, _) = Self.endpoint(
      ServerFixtures.dependencies(background: held.runner), capabilities: Self.capabilities(progress: true))
    let sent = endpoint.receive(.request(id: .number(5), method: "biki/reloadPacks", params: [:]))
    let begun = try #require(sent.notifications("$/progress").first)
    #expect(begun["value"]?["cancellable"] == true)
    let token = try #require(begun["token"])
    let cancelled = endpoint.receive(.notification(method: "window/workDoneProgress/cancel", params: ["token": token]))
    #expect(
      cancelled.contains {
        if case .error(.number(5)?, let error) = $0 { error.code == ResponseError.requestCancelled } else { false }
      })
    #expect(cancelled.notifications("$/progress").first?["value"] == ["kind": "end", "message": "cancelled"])
    // The reload's work, done after all, changes nothing and answers nothing again.
    held.runAll()
    let after = endpoint.tick(now: 100)
    #expect(!after.contains { if case .result(.number(5)?, _) = $0 { true } else { false } })
    #expect(after.notifications("biki/packsChanged").isEmpty)
    #expect(endpoint.call("biki/topics")["topics"]?.arrayValue?.isEmpty == false)
    // A token the server never gave, or one already ended, is ignored.
    #expect(endpoint.receive(.notification(method: "window/workDoneProgress/cancel", params: ["token": token])).isEmpty)
  }

  /// Packs loaded while `initialize` is answered (directories among its options) show as
  /// progress only once the client has had the result: LSP lets a server send requests, the
  /// creation of progress among them, from then on.
  @Test func progressBegunDuringInitializeWaitsForInitialized() throws {
    let held = ServerFixtures.HeldWork()
    var endpoint = Endpoint(
      server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies(background: held.runner)))
    let answered = endpoint.receive(
      .request(
        id: .number(0), method: "initialize",
        params: [
          "capabilities": Self.capabilities(progress: true), "initializationOptions": ["packDirectories": ["/packs"]],
        ]))
    #expect(Self.requests(answered, "window/workDoneProgress/create").isEmpty)
    #expect(answered.notifications("$/progress").isEmpty)
    let ready = endpoint.receive(.notification(method: "initialized", params: [:]))
    let (_, created) = try #require(Self.requests(ready, "window/workDoneProgress/create").first)
    #expect(ready.notifications("$/progress").first?["token"] == created["token"])
    #expect(ready.notifications("$/progress").first?["value"]?["kind"] == "begin")
    held.runAll()
    #expect(endpoint.tick(now: 100).notifications("$/progress").first?["value"]?["kind"] == "end")
  }

  /// Progress begun and ended before `initialized` is never shown.
  @Test func progressOverBeforeInitializedIsNotShown() {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    var sent = endpoint.receive(
      .request(
        id: .number(0), method: "initialize",
        params: [
          "capabilities": Self.capabilities(progress: true), "initializationOptions": ["packDirectories": ["/packs"]],
        ]))
    sent += endpoint.receive(.notification(method: "initialized", params: [:]))
    #expect(Self.requests(sent, "window/workDoneProgress/create").isEmpty)
    #expect(sent.notifications("$/progress").isEmpty)
  }

  /// A check that runs half a second shows as progress until it ends; a quick one never does.
  @Test func aSlowCheckShowsAsProgress() {
    let held = ServerFixtures.HeldWork()
    let clock = ManualClock(at: 100)
    var (endpoint, _) = Self.endpoint(
      ServerFixtures.dependencies(clock: clock, background: held.runner),
      capabilities: Self.capabilities(progress: true))
    _ = endpoint.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(Self.uri), "languageId": "json", "version": 1, "text": "{}"]])
    #expect(endpoint.nextDeadline == 100 + BikiServer.slowCheck)
    #expect(endpoint.tick(now: 100.2).notifications("$/progress").isEmpty)
    clock.advance(0.5)
    let begun = endpoint.tick(now: clock.now()).notifications("$/progress")
    #expect(begun.first?["value"]?["title"] == "Biki: checking mine.json")
    held.runAll()
    let ended = endpoint.tick(now: clock.now()).notifications("$/progress")
    #expect(ended.first?["value"]?["kind"] == "end")
  }

  @Test func aClientWithoutTheseIsAskedNothing() {
    let (_, sent) = Self.endpoint(capabilities: [:])
    #expect(!sent.contains { if case .request = $0 { true } else { false } })
  }
}
