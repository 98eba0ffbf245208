import BikiJSON
import BikiProtocol
import BikiTestSupport
import Testing

@testable import BikiServer

/// Diagnostics for a client that pulls them (LSP 3.17), as Neovim 0.10, Helix and VS Code's
/// newer clients do: answered when asked, `unchanged` when the client has them, never pushed.
@Suite struct PullDiagnosticsTests {
  static let uri = "file:///home/me/packs/mine.json"

  /// An endpoint initialized by a client that can pull diagnostics (or, `pulls: false`, not).
  static func endpoint(_ dependencies: ServerDependencies = ServerFixtures.dependencies(), pulls: Bool = true)
    -> (Endpoint<BikiServer>, JSON)
  {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: dependencies))
    let capabilities: JSON = pulls ? ["textDocument": ["diagnostic": ["dynamicRegistration": false]]] : [:]
    let answer = endpoint.receive(
      .request(id: .number(0), method: "initialize", params: ["capabilities": capabilities]))
    guard case .result(_, let result)? = answer.first else { return (endpoint, .null) }
    return (endpoint, result["capabilities"] ?? .null)
  }

  static func open(_ endpoint: inout Endpoint<BikiServer>, _ text: String) -> [OutgoingMessage] {
    endpoint.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "json", "version": 1, "text": .string(text)]])
  }

  static func pull(_ endpoint: inout Endpoint<BikiServer>, previous: String? = nil) -> JSON {
    var params: [(String, JSON)] = [("textDocument", ["uri": .string(uri)])]
    if let previous { params.append(("previousResultId", .string(previous))) }
    return endpoint.call("textDocument/diagnostic", .object(pairs: params))
  }

  @Test func aPullingClientIsAnsweredWhenItAsksAndSentNothing() throws {
    var (endpoint, capabilities) = Self.endpoint()
    #expect(
      capabilities["diagnosticProvider"]
        == ["identifier": "biki", "interFileDependencies": true, "workspaceDiagnostics": true])
    #expect(Self.open(&endpoint, DocumentTests.brokenPack).notifications("textDocument/publishDiagnostics").isEmpty)
    let first = Self.pull(&endpoint)
    #expect(first["kind"] == "full")
    #expect(first["items"]?.arrayValue?.first?["code"] == "unknown-key")
    let resultID = try #require(first["resultId"]?.stringValue)
    // The client has it: unchanged.
    #expect(Self.pull(&endpoint, previous: resultID) == ["kind": "unchanged", "resultId": .string(resultID)])
    // A change: a new result, found by a check started when the client asks.
    let changed = endpoint.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2],
        "contentChanges": [["text": .string(ServerFixtures.pack(id: "mine"))]],
      ])
    #expect(changed.notifications("textDocument/publishDiagnostics").isEmpty)
    let second = Self.pull(&endpoint, previous: resultID)
    #expect(second["kind"] == "full" && second["items"] == [])
    #expect(second["resultId"] != first["resultId"])
    // The workspace: every open document whose text is checked, with its version, then the
    // user's pack that is not open (the fixtures' /packs/test.json, clean).
    let workspace = endpoint.call("workspace/diagnostic", ["previousResultIds": []])
    #expect(workspace["items"]?.arrayValue?.count == 2)
    #expect(workspace["items"]?.arrayValue?.first?["uri"] == .string(Self.uri))
    #expect(workspace["items"]?.arrayValue?.first?["version"] == 2)
    #expect(workspace["items"]?.arrayValue?.last?["uri"] == "file:///packs/test.json")
    #expect(workspace["items"]?.arrayValue?.last?["items"] == [])
    let unchanged = endpoint.call(
      "workspace/diagnostic", ["previousResultIds": [["uri": .string(Self.uri), "value": second["resultId"] ?? .null]]])
    #expect(unchanged["items"]?.arrayValue?.first?["kind"] == "unchanged")
    // A close pushes nothing; a closed document has no diagnostics.
    let closed = endpoint.notify("textDocument/didClose", ["textDocument": ["uri": .string(Self.uri)]])
    #expect(closed.notifications("textDocument/publishDiagnostics").isEmpty)
    #expect(Self.pull(&endpoint)["items"] == [])
  }

  /// A reload that changes what the packs say asks a client that pulls, and can be asked, to
  /// pull again (`workspace/diagnostic/refresh`, with no params); one that changes nothing, or
  /// a client that cannot be asked, gets no such request.
  @Test(arguments: [true, false])
  func aReloadThatChangesTheProblemsAsksThePullingClientToPullAgain(refreshes: Bool) throws {
    let files = ServerFixtures.Files(["/packs/test.json": ServerFixtures.pack()])
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ReloadTests.dependencies(files: files)))
    let capabilities: JSON = [
      "textDocument": ["diagnostic": ["dynamicRegistration": false]],
      "workspace": ["diagnostics": ["refreshSupport": .bool(refreshes)]],
    ]
    _ = endpoint.receive(.request(id: .number(0), method: "initialize", params: ["capabilities": capabilities]))
    _ = endpoint.receive(.notification(method: "initialized", params: [:]))
    func refreshRequests(_ sent: [OutgoingMessage]) -> [OutgoingMessage] {
      sent.filter { if case .request(_, "workspace/diagnostic/refresh", _) = $0 { true } else { false } }
    }
    // Nothing changed: nothing to pull.
    #expect(
      refreshRequests(endpoint.receive(.request(id: .number(1), method: "biki/reloadPacks", params: [:]))).isEmpty)
    files.set("/packs/test.json", DocumentTests.brokenPack)
    let asked = refreshRequests(endpoint.receive(.request(id: .number(2), method: "biki/reloadPacks", params: [:])))
    #expect(asked.count == (refreshes ? 1 : 0))
    // Sent with no params at all: JSON-RPC has no null params.
    if let request = asked.first { #expect(request.json["params"] == nil) }
  }

  /// The user's packs not open are in the workspace's report as their last load found them,
  /// in the client's columns (bytes here), `unchanged` when the client has them, and gone from
  /// the closed list once opened (the open document speaks for itself).
  @Test func theWorkspaceReportHasTheUsersClosedPacks() throws {
    let files = ServerFixtures.Files([
      "/packs/test.json": ServerFixtures.pack(), "/packs/mine.json": DocumentTests.brokenPack,
    ])
    var endpoint = Endpoint(
      server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies(files: files)))
    _ = endpoint.receive(
      .request(
        id: .number(0), method: "initialize",
        params: [
          "capabilities": ["textDocument": ["diagnostic": [:]], "general": ["positionEncodings": ["utf-8"]]]
        ]))
    let first = endpoint.call("workspace/diagnostic", ["previousResultIds": []])
    let items = try #require(first["items"]?.arrayValue)
    #expect(
      items.compactMap { $0["uri"]?.stringValue }.sorted() == ["file:///packs/mine.json", "file:///packs/test.json"])
    let mine = try #require(items.first { $0["uri"] == "file:///packs/mine.json" })
    #expect(mine["version"] == .null)
    let problem = try #require(mine["items"]?.arrayValue?.first { $0["code"] == "unknown-key" })
    // `"title": "本🎌", "titel"`: 本 is three bytes, 🎌 four.
    let line = try #require(
      DocumentTests.brokenPack.split(separator: "\n", omittingEmptySubsequences: false).first { $0.contains("titel") })
    let bytes = line[..<(line.range(of: "\"titel\"")?.lowerBound ?? line.startIndex)].utf8.count
    #expect(problem["range"]?["start"]?["character"] == .integer(Int64(bytes)))
    let resultID = try #require(mine["resultId"]?.stringValue)
    let again = endpoint.call(
      "workspace/diagnostic", ["previousResultIds": [["uri": "file:///packs/mine.json", "value": .string(resultID)]]])
    let unchanged = try #require(again["items"]?.arrayValue?.first { $0["uri"] == "file:///packs/mine.json" })
    #expect(
      unchanged == [
        "uri": "file:///packs/mine.json", "version": .null, "kind": "unchanged", "resultId": .string(resultID),
      ])
    // Opened, it is reported as an open document once checked, never twice.
    _ = endpoint.notify(
      "textDocument/didOpen",
      [
        "textDocument": [
          "uri": "file:///packs/mine.json", "languageId": "json", "version": 1,
          "text": .string(DocumentTests.brokenPack),
        ]
      ])
    _ = endpoint.call("textDocument/diagnostic", ["textDocument": ["uri": "file:///packs/mine.json"]])
    let withOpen = endpoint.call("workspace/diagnostic", ["previousResultIds": []])
    let uris = withOpen["items"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
    #expect(uris.filter { $0 == "file:///packs/mine.json" }.count == 1)
    #expect(withOpen["items"]?.arrayValue?.first { $0["uri"] == "file:///packs/mine.json" }?["version"] == 1)
  }

  /// A pull that arrives while its document is checked is answered when the check is done, with
  /// the newest text's diagnostics; a cancel answers it at once.
  @Test func aPullWaitsForTheCheckOfTheCurrentText() {
    let held = ServerFixtures.HeldWork()
    var (endpoint, _) = Self.endpoint(ServerFixtures.dependencies(background: held.runner))
    _ = Self.open(&endpoint, #"{"format": 1, "topics": ["#)
    let asked = endpoint.receive(
      .request(id: .number(7), method: "textDocument/diagnostic", params: ["textDocument": ["uri": .string(Self.uri)]]))
    #expect(asked.isEmpty)
    held.runAll()
    let answered = endpoint.tick(now: 0)
    guard case .result(.number(7)?, let report)? = answered.first else {
      Issue.record("not answered: \(answered)")
      return
    }
    #expect(report["items"]?.arrayValue?.first?["code"] == "json-syntax")
    #expect(answered.notifications("textDocument/publishDiagnostics").isEmpty)

    _ = endpoint.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2],
        "contentChanges": [["text": .string(ServerFixtures.pack(id: "mine"))]],
      ])
    #expect(
      endpoint.receive(
        .request(
          id: .number(8), method: "textDocument/diagnostic", params: ["textDocument": ["uri": .string(Self.uri)]])
      ).isEmpty)
    let cancelled = endpoint.receive(.notification(method: "$/cancelRequest", params: ["id": 8]))
    guard case .error(.number(8)?, let error)? = cancelled.first else {
      Issue.record("not cancelled: \(cancelled)")
      return
    }
    #expect(error.code == -32800)
    #expect(!endpoint.server.hasPendingRequests)
  }

  @Test func aClientThatCannotPullIsPushedAsBefore() {
    var (endpoint, capabilities) = Self.endpoint(pulls: false)
    #expect(capabilities["diagnosticProvider"] == nil)
    let published = Self.open(&endpoint, DocumentTests.brokenPack).notifications("textDocument/publishDiagnostics")
    #expect(published.first?["diagnostics"]?.arrayValue?.first?["code"] == "unknown-key")
  }
}
