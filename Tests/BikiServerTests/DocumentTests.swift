import BikiJSON
import BikiProtocol
import BikiTestSupport
import Testing

@testable import BikiServer

@Suite struct DocumentTests {
  func open(_ endpoint: inout Endpoint<BikiServer>, _ uri: String, _ text: String) -> [OutgoingMessage] {
    endpoint.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "json", "version": 1, "text": .string(text)]])
  }

  func change(_ endpoint: inout Endpoint<BikiServer>, _ uri: String, _ text: String, version: Int64)
    -> [OutgoingMessage]
  {
    endpoint.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(uri), "version": .integer(version)],
        "contentChanges": [["text": .string(text)]],
      ])
  }

  /// A pack with an unknown key after Japanese text and an emoji on the same line.
  static let brokenPack = ServerFixtures.pack(id: "mine").replacingOccurrences(
    of: #""title": "本","#, with: #""title": "本🎌", "titel": "x","#)

  @Test func openingAPackPublishesItsDiagnosticsInUTF16Columns() throws {
    var endpoint = ServerFixtures.endpoint()
    let published = open(&endpoint, "file:///home/me/packs/mine.json", Self.brokenPack).notifications(
      "textDocument/publishDiagnostics")
    #expect(published.count == 1)
    #expect(published[0]["uri"] == "file:///home/me/packs/mine.json")
    #expect(published[0]["version"] == 1)
    let diagnostic = try #require(published[0]["diagnostics"]?.arrayValue?.first)
    #expect(diagnostic["code"] == "unknown-key")
    #expect(diagnostic["source"] == "biki")
    #expect(diagnostic["severity"] == 1 || diagnostic["severity"] == 2)
    // The line is `    "id": "hon", "title": "本🎌", "titel": …`: 本 is one UTF-16 unit, 🎌 two.
    let line = Self.brokenPack.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
      $0.contains("titel")
    }!
    let text = String(Self.brokenPack.split(separator: "\n", omittingEmptySubsequences: false)[line])
    let column = text.utf16.distance(
      from: text.utf16.startIndex, to: text.range(of: "\"titel\"")!.lowerBound.samePosition(in: text.utf16)!)
    #expect(diagnostic["range"]?["start"] == ["line": .integer(Int64(line)), "character": .integer(Int64(column))])
    #expect(diagnostic["range"]?["end"]?["character"] == .integer(Int64(column + 7)))
  }

  @Test func changesAreDebouncedAndTheLatestTextWins() {
    let clock = ManualClock(at: 100)
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock))
    let uri = "file:///p/mine.json"
    _ = open(&endpoint, uri, ServerFixtures.pack(id: "mine"))
    #expect(change(&endpoint, uri, Self.brokenPack, version: 2).isEmpty)
    #expect(change(&endpoint, uri, #"{"format": 1, "topics": ["#, version: 3).isEmpty)
    #expect(endpoint.nextDeadline == 100 + PackLanguageService.debounce)
    clock.advance(PackLanguageService.debounce / 2)
    #expect(endpoint.tick(now: clock.now()).isEmpty)
    clock.advance(PackLanguageService.debounce / 2 + 0.01)
    let published = endpoint.tick(now: clock.now()).notifications("textDocument/publishDiagnostics")
    #expect(published.count == 1)
    #expect(published.first?["version"] == 3)
    #expect(published.first?["diagnostics"]?.arrayValue?.first?["code"] == "json-syntax")
    #expect(endpoint.tick(now: clock.now() + 0.2).notifications("textDocument/publishDiagnostics").isEmpty)
  }

  @Test func requestsAreAnsweredWhileACheckRunsAndItsResultFollows() {
    let clock = ManualClock(at: 100)
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock, background: held.runner))
    #expect(
      open(&endpoint, "file:///p/mine.json", #"{"format": 1, "topics": ["#).notifications(
        "textDocument/publishDiagnostics"
      ).isEmpty)
    #expect(held.count == 1)
    // The check has not finished: requests are still answered, and nothing is polled for it
    // (finished work wakes the loop itself).
    #expect(endpoint.call("biki/topics")["topics"]?.arrayValue?.count == 1)
    #expect(endpoint.nextDeadline == 100 + BikiServer.pollInterval)
    #expect(endpoint.tick(now: clock.now()).notifications("textDocument/publishDiagnostics").isEmpty)
    held.runAll()
    let published = endpoint.tick(now: clock.now()).notifications("textDocument/publishDiagnostics")
    #expect(published.count == 1)
    #expect(published.first?["version"] == 1)
    #expect(published.first?["diagnostics"]?.arrayValue?.first?["code"] == "json-syntax")
    #expect(endpoint.nextDeadline == 100 + BikiServer.pollInterval)
  }

  @Test func aNewerEditCancelsTheCheckItSupersedes() {
    let clock = ManualClock(at: 100)
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock, background: held.runner))
    let uri = "file:///p/mine.json"
    _ = open(&endpoint, uri, "{")
    _ = change(&endpoint, uri, ServerFixtures.pack(id: "mine"), version: 2)
    clock.advance(PackLanguageService.debounce)
    _ = endpoint.tick(now: clock.now())
    #expect(held.count == 2)
    held.runAll()
    let published = endpoint.tick(now: clock.now()).notifications("textDocument/publishDiagnostics")
    // Only the newer text's diagnostics: the check of version 1 was cancelled and dropped.
    #expect(published == [["uri": .string(uri), "version": 2, "diagnostics": []]])
  }

  /// A small pack is checked almost at once; a pack whose check is slow waits as long as its
  /// last check took (at most half a second), so typing into it does not start and cancel a
  /// check at every keystroke.
  @Test(arguments: [(0.001, 0.05), (0.3, 0.3), (4.0, 0.5)])
  func theWaitBeforeACheckFollowsHowLongTheLastCheckTook(took: Double, wait: Double) {
    let clock = ManualClock(at: 100)
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock, background: held.runner))
    let uri = "file:///p/mine.json"
    _ = open(&endpoint, uri, "{")
    clock.advance(took)
    held.runAll()
    #expect(endpoint.tick(now: clock.now()).notifications("textDocument/publishDiagnostics").count == 1)
    _ = change(&endpoint, uri, ServerFixtures.pack(id: "mine"), version: 2)
    #expect(
      abs((endpoint.nextDeadline ?? .infinity) - (clock.now() + wait)) < 1e-9,
      "\((endpoint.nextDeadline ?? .infinity) - clock.now())")
  }

  @Test func closingCancelsARunningCheck() {
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(background: held.runner))
    _ = open(&endpoint, "file:///p/mine.json", "{")
    _ = endpoint.notify("textDocument/didClose", ["textDocument": ["uri": "file:///p/mine.json"]])
    held.runAll()
    #expect(endpoint.tick(now: 100).notifications("textDocument/publishDiagnostics").isEmpty)
  }

  @Test func openDocumentsAreCappedAndTheUserIsToldPolitely() {
    var endpoint = ServerFixtures.endpoint()
    let half = String(repeating: " ", count: PackLanguageService.maximumOpenBytes / 2)
    #expect(
      open(&endpoint, "file:///p/a.json", half + "{}").notifications("textDocument/publishDiagnostics").count == 1)
    let refused = open(&endpoint, "file:///p/b.json", half + "{}")
    #expect(refused.notifications("textDocument/publishDiagnostics").isEmpty)
    #expect(refused.notifications("window/showMessage").first?["message"]?.stringValue?.contains("64 MiB") == true)
    // Growing an open document past the cap forgets it and clears what it showed.
    let grown = change(&endpoint, "file:///p/a.json", half + half + "{}", version: 2)
    #expect(grown.notifications("textDocument/publishDiagnostics") == [["uri": "file:///p/a.json", "diagnostics": []]])
    #expect(grown.notifications("window/showMessage").count == 1)
    // With the room freed, another document is checked again.
    #expect(open(&endpoint, "file:///p/b.json", "{").notifications("textDocument/publishDiagnostics").count == 1)
    #expect(endpoint.call("biki/topics")["topics"]?.arrayValue?.count == 1)
  }

  @Test func theNumberOfOpenDocumentsIsCapped() {
    var endpoint = ServerFixtures.endpoint()
    for index in 0..<PackLanguageService.maximumOpenDocuments { _ = open(&endpoint, "file:///p/\(index).txt", "") }
    let refused = open(&endpoint, "file:///p/one-more.json", "{")
    #expect(refused.notifications("window/showMessage").count == 1)
    #expect(refused.notifications("textDocument/publishDiagnostics").isEmpty)
  }

  @Test func closingClearsTheDiagnostics() {
    var endpoint = ServerFixtures.endpoint()
    _ = open(&endpoint, "file:///p/mine.json", "{")
    let cleared = endpoint.notify("textDocument/didClose", ["textDocument": ["uri": "file:///p/mine.json"]])
      .notifications("textDocument/publishDiagnostics")
    #expect(cleared == [["uri": "file:///p/mine.json", "diagnostics": []]])
  }

  /// A draft is another version of the pack it copies, not a clash with it: neither the open
  /// installed file nor a copy of it elsewhere is told its topic ids are taken.
  @Test func anOpenCopyOfALoadedPackIsNotAClashWithIt() {
    var endpoint = ServerFixtures.endpoint()
    let copy = open(&endpoint, "file:///elsewhere/copy.json", ServerFixtures.pack()).notifications(
      "textDocument/publishDiagnostics")
    #expect(copy.first?["diagnostics"] == [])
    let same = open(&endpoint, "file:///packs/test.json", ServerFixtures.pack()).notifications(
      "textDocument/publishDiagnostics")
    #expect(same.first?["diagnostics"] == [])
    // What serves is unchanged: an open document never changes the catalog.
    #expect(endpoint.call("biki/topics")["topics"]?.arrayValue?.count == 1)
  }

  @Test func nothingIsLoadedFromAURIAndOnlyPackFilesAreChecked() {
    var endpoint = ServerFixtures.endpoint()
    for uri in ["file:///usr/lib/libevil.so", "file:///p/biki-pack.schema.json", "file:///p/notes.txt"] {
      #expect(
        open(&endpoint, uri, "\u{7F}ELF").notifications("textDocument/publishDiagnostics").first?["diagnostics"] == [])
    }
    // An unsaved buffer is checked by its text alone.
    #expect(open(&endpoint, "untitled:Untitled-1", "{").notifications("textDocument/publishDiagnostics").count == 1)
  }

  /// Incremental sync: ranges in UTF-16 units, applied in order; the fixed text lints clean.
  @Test func incrementalChangesApplyInOrder() throws {
    let clock = ManualClock(at: 100)
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock))
    var fresh = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    let capabilities = fresh.receive(.request(id: .number(0), method: "initialize", params: [:])).first?.json[
      "result"]?["capabilities"]
    #expect(capabilities?["textDocumentSync"]?["change"] == 2)
    let uri = "file:///p/mine.json"
    let opened = open(&endpoint, uri, Self.brokenPack).notifications("textDocument/publishDiagnostics")
    #expect(opened.first?["diagnostics"]?.arrayValue?.first?["code"] == "unknown-key")
    // Line 3 reads `    "id": "hon", "title": "本🎌", "titel": "x", …`: remove the 🎌 (2 units), then the
    // stray key, whose position the first edit has moved.
    let line = Self.brokenPack.split(separator: "\n", omittingEmptySubsequences: false)[3]
    let flag = try #require(line.range(of: "🎌"))
    let flagColumn = line[..<flag.lowerBound].utf16.count
    let key = try #require(line.range(of: #" "titel": "x","#))
    let keyColumn = line[..<key.lowerBound].utf16.count - 2
    let keyLength = line[key].utf16.count
    _ = endpoint.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(uri), "version": 2],
        "contentChanges": [
          [
            "range": [
              "start": ["line": 3, "character": .integer(Int64(flagColumn))],
              "end": ["line": 3, "character": .integer(Int64(flagColumn + 2))],
            ], "text": "",
          ],
          [
            "range": [
              "start": ["line": 3, "character": .integer(Int64(keyColumn))],
              "end": ["line": 3, "character": .integer(Int64(keyColumn + keyLength))],
            ], "text": "",
          ],
        ],
      ])
    clock.advance(1)
    let published = endpoint.tick(now: clock.now()).notifications("textDocument/publishDiagnostics")
    #expect(published.first?["version"] == 2)
    #expect(published.first?["diagnostics"] == [])
  }

  /// With `\r` or `\r\n` line ends, the lines of an editor's edits and of the diagnostics
  /// published are the same lines: the ones the editor shows.
  @Test(arguments: ["\r", "\r\n"]) func editsAndDiagnosticsCountLinesAsTheEditorDoes(_ end: String) throws {
    let clock = ManualClock(at: 100)
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock))
    let uri = "file:///p/mine.json"
    let lines = ServerFixtures.pack(id: "mine").split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    let opened = open(&endpoint, uri, lines.joined(separator: end)).notifications("textDocument/publishDiagnostics")
    #expect(opened.first?["diagnostics"] == [])
    let line = try #require(lines.firstIndex { $0.contains(#""title": "本""#) })
    let column = try #require(lines[line].range(of: #""title": "本""#)).lowerBound.utf16Offset(in: lines[line])
    func edit(_ replacement: String, length: Int, version: Int64) -> [JSON] {
      _ = endpoint.notify(
        "textDocument/didChange",
        [
          "textDocument": ["uri": .string(uri), "version": .integer(version)],
          "contentChanges": [
            [
              "range": [
                "start": ["line": .integer(Int64(line)), "character": .integer(Int64(column))],
                "end": ["line": .integer(Int64(line)), "character": .integer(Int64(column + length))],
              ],
              "text": .string(replacement),
            ]
          ],
        ])
      clock.advance(1)
      return endpoint.tick(now: clock.now()).notifications("textDocument/publishDiagnostics")
    }
    let broken = edit(#""titel""#, length: 7, version: 2)
    let diagnostic = try #require(broken.first?["diagnostics"]?.arrayValue?.first { $0["code"] == "unknown-key" })
    #expect(diagnostic["range"]?["start"] == ["line": .integer(Int64(line)), "character": .integer(Int64(column))])
    #expect(edit(#""title""#, length: 7, version: 3).first?["diagnostics"] == [])
  }

  @Test func aChangeThatCannotBeAppliedClosesTheDocument() {
    var endpoint = ServerFixtures.endpoint()
    let uri = "file:///p/mine.json"
    _ = open(&endpoint, uri, Self.brokenPack)
    let replies = endpoint.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(uri), "version": 2],
        "contentChanges": [
          ["range": ["start": ["line": 3, "character": 5], "end": ["line": 1, "character": 0]], "text": ""]
        ],
      ])
    #expect(
      replies.notifications("window/logMessage").first?["message"]?.stringValue?.contains("no valid \"range\"") == true)
    #expect(replies.notifications("textDocument/publishDiagnostics").first?["diagnostics"] == [])
    #expect(
      change(&endpoint, uri, "{}", version: 3).notifications("window/logMessage").first?["message"]?.stringValue?
        .contains("not open") == true)
  }

  @Test func aChangeNamingALineTheDocumentLacksClosesItInsteadOfBeingClamped() {
    var endpoint = ServerFixtures.endpoint()
    let uri = "file:///p/mine.json"
    _ = open(&endpoint, uri, "{\n}\n")
    let replies = endpoint.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(uri), "version": 2],
        "contentChanges": [
          ["range": ["start": ["line": 5, "character": 0], "end": ["line": 5, "character": 0]], "text": "x"]
        ],
      ])
    #expect(
      replies.notifications("window/logMessage").first?["message"]?.stringValue?.contains(
        "within the document's 3 lines") == true)
    #expect(replies.notifications("textDocument/publishDiagnostics").first?["diagnostics"] == [])
  }

  @Test func aNewFileInAnEmptyPackDirectoryIsAPackFromItsFirstKeystroke() {
    var dependencies = ServerFixtures.dependencies()
    let load = dependencies.loadCatalog
    dependencies.loadCatalog = {
      let catalog = load()
      return Catalog(
        registry: catalog.registry, packs: catalog.packs,
        packDirectories: ["/packs", "/home/me/.local/share/biki/packs"])
    }
    var endpoint = ServerFixtures.endpoint(dependencies)
    let inEmpty = open(&endpoint, "file:///home/me/.local/share/biki/packs/new.json", "").notifications(
      "textDocument/publishDiagnostics")
    #expect(inEmpty.first?["diagnostics"]?.arrayValue?.isEmpty == false)
    // The same text elsewhere is not taken for a pack.
    let elsewhere = open(&endpoint, "file:///home/me/notes/new.json", "").notifications(
      "textDocument/publishDiagnostics")
    #expect(elsewhere.first?["diagnostics"] == [])
  }

  /// A generic client sends every JSON file; only packs are diagnosed.
  @Test(arguments: [
    #"{"name": "my-app", "version": "1.0.0", "scripts": {"test": "jest"}, "dependencies": {}}"#,
    #"{"compilerOptions": {"strict": true"#, "[1, 2, 3]", "", "{",
  ])
  func otherJSONFilesAreLeftAlone(text: String) {
    var endpoint = ServerFixtures.endpoint()
    let published = open(&endpoint, "file:///drafts/app/package.json", text).notifications(
      "textDocument/publishDiagnostics")
    #expect(published.first?["diagnostics"] == [])
  }

  @Test(arguments: [
    #"{"$schema": "https://example.org/biki-pack.schema.json", "id": 5}"#, #"{"format": 1, "topics": 3}"#,
    #"{"$schema": "./biki-pack.schema.json", "#, #"{"format": 1, "id": "x", "topics": [ {"#,
  ])
  func aDocumentThatSaysItIsAPackIsDiagnosed(text: String) {
    var endpoint = ServerFixtures.endpoint()
    let published = open(&endpoint, "file:///drafts/mine.json", text).notifications("textDocument/publishDiagnostics")
    #expect(published.first?["diagnostics"]?.arrayValue?.isEmpty == false)
  }

  /// Decided again on every change: a new empty file that becomes a pack is diagnosed without
  /// being reopened, and one that stops being a pack is cleared.
  @Test func aNewFileIsDiagnosedOnceItBecomesAPack() {
    let clock = ManualClock(at: 100)
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(clock: clock))
    let uri = "file:///drafts/new.json"
    #expect(open(&endpoint, uri, "").notifications("textDocument/publishDiagnostics").first?["diagnostics"] == [])
    _ = change(&endpoint, uri, #"{"format": 1, "id": "new", "topics": []}"#, version: 2)
    clock.advance(1)
    let now = endpoint.tick(now: clock.now()).notifications("textDocument/publishDiagnostics")
    #expect(now.first?["diagnostics"]?.arrayValue?.isEmpty == false)
    _ = change(&endpoint, uri, #"{"name": "not a pack any more"}"#, version: 3)
    clock.advance(1)
    #expect(
      endpoint.tick(now: clock.now()).notifications("textDocument/publishDiagnostics").first?["diagnostics"] == [])
  }

  /// The loader reads every `*.json` in a pack directory, so there every file is a pack.
  @Test func everyJSONFileInAPackDirectoryIsAPack() {
    var endpoint = ServerFixtures.endpoint()
    let published = open(&endpoint, "file:///packs/draft.json", "{").notifications("textDocument/publishDiagnostics")
    #expect(published.first?["diagnostics"]?.arrayValue?.first?["code"] == "json-syntax")
  }

  @Test func malformedDocumentNotificationsAreLoggedNotFatal() {
    var endpoint = ServerFixtures.endpoint()
    #expect(endpoint.notify("textDocument/didOpen", ["textDocument": 3]).notifications("window/logMessage").count == 1)
    #expect(
      change(&endpoint, "file:///never/opened.json", "{}", version: 1).notifications("window/logMessage").count == 1)
    _ = open(&endpoint, "file:///p/a.json", "{}")
    let ranged = endpoint.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": "file:///p/a.json"], "contentChanges": [["range": [:], "text": "x"]]])
    #expect(ranged.notifications("window/logMessage").count == 1)
    #expect(endpoint.call("biki/topics")["topics"]?.arrayValue?.count == 1)
  }

  @Test func editedPacksOnDiskAreNoticedAndReported() {
    let clock = ManualClock(at: 100)
    let files = ServerFixtures.Files(["/packs/test.json": ServerFixtures.pack()])
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(files: files, clock: clock))
    let kept = endpoint.call("biki/topics")["resultId"] ?? .null
    clock.advance(BikiServer.pollInterval)
    #expect(endpoint.tick(now: clock.now()).notifications("biki/packsChanged").isEmpty)
    files.set("/packs/more.json", ServerFixtures.pack(id: "more"))
    clock.advance(BikiServer.pollInterval)
    let changed = endpoint.tick(now: clock.now()).notifications("biki/packsChanged")
    #expect(changed.first?["topicCount"] == 2)
    // A client that kept the old list gets the new one in full.
    let refreshed = endpoint.call("biki/topics", ["previousResultId": kept])
    #expect(refreshed["kind"] == "full" && refreshed["resultId"] != kept)
    #expect(refreshed["topics"]?.arrayValue?.count == 2)

    files.set("/packs/more.json", "{")
    let reloaded = endpoint.call("biki/reloadPacks")
    #expect(reloaded["topicCount"] == 1)
    #expect(reloaded["problems"]?.arrayValue?.first?["path"] == "/packs/more.json")
    #expect(reloaded["problems"]?.arrayValue?.first?["diagnostic"]?["code"] == "json-syntax")
  }
}

@Suite struct HoverTests {
  /// An endpoint initialized by a client that renders these hover formats.
  static func endpoint(hoverFormats: [String]?) -> Endpoint<BikiServer> {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    let capabilities: JSON =
      hoverFormats.map { ["textDocument": ["hover": ["contentFormat": .array($0.map(JSON.string))]]] } ?? [:]
    _ = endpoint.receive(.request(id: .number(0), method: "initialize", params: ["capabilities": capabilities]))
    return endpoint
  }

  static func hover(_ endpoint: inout Endpoint<BikiServer>) -> JSON {
    let text = ServerFixtures.pack(id: "mine", max: 3)
    _ = endpoint.notify(
      "textDocument/didOpen", ["textDocument": ["uri": "file:///p/mine.json", "version": 1, "text": .string(text)]])
    let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
      $0.contains("\"title\": \"本\"")
    }!
    return endpoint.call(
      "textDocument/hover",
      ["textDocument": ["uri": "file:///p/mine.json"], "position": ["line": .integer(Int64(line)), "character": 12]])
  }

  @Test func hoverIsPlainTextUnlessTheClientOffersMarkdown() throws {
    for formats in [nil, ["plaintext"]] as [[String]?] {
      var endpoint = Self.endpoint(hoverFormats: formats)
      let hover = Self.hover(&endpoint)
      #expect(hover["contents"]?["kind"] == "plaintext")
      #expect(hover["contents"]?["value"]?.stringValue?.hasPrefix("mine.hon — 本") == true)
    }
    var endpoint = Self.endpoint(hoverFormats: ["markdown", "plaintext"])
    #expect(Self.hover(&endpoint)["contents"]?["kind"] == "markdown")
  }

  @Test func hoveringATopicShowsSampleQuestions() throws {
    var endpoint = Self.endpoint(hoverFormats: ["markdown"])
    let hover = Self.hover(&endpoint)
    let value = try #require(hover["contents"]?["value"]?.stringValue)
    #expect(value.hasPrefix("**mine.hon** — 本"))
    #expect(value.contains("3 in all"))
    for sample in ["一本 · 1本 · いっぽん", "二本 · 2本 · にほん", "三本 · 3本 · さんぼん"] { #expect(value.contains(sample), "\(value)") }
    // Outside any topic, and in a document that is not open: nothing.
    #expect(
      endpoint.call(
        "textDocument/hover",
        ["textDocument": ["uri": "file:///p/mine.json"], "position": ["line": 0, "character": 0]]) == .null)
    #expect(
      endpoint.call(
        "textDocument/hover",
        ["textDocument": ["uri": "file:///p/other.json"], "position": ["line": 0, "character": 0]]) == .null)
    #expect(
      endpoint.failure("textDocument/hover", ["textDocument": ["uri": "file:///p/mine.json"]])?.message.contains(
        "position") == true)
  }

  @Test func hoverReadsTheLastCheckAndNeverCompilesOnTheLoop() throws {
    let held = ServerFixtures.HeldWork()
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(background: held.runner))
    let text = ServerFixtures.pack(id: "mine", max: 3)
    _ = endpoint.notify(
      "textDocument/didOpen", ["textDocument": ["uri": "file:///p/mine.json", "version": 1, "text": .string(text)]])
    let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
      $0.contains("\"title\": \"本\"")
    }!
    let position: JSON = [
      "textDocument": ["uri": "file:///p/mine.json"], "position": ["line": .integer(Int64(line)), "character": 12],
    ]
    // While the document's only check is still running there is nothing to show.
    #expect(endpoint.call("textDocument/hover", position) == .null)
    held.runAll()
    _ = endpoint.tick(now: 100)
    #expect(
      endpoint.call("textDocument/hover", position)["contents"]?["value"]?.stringValue?.contains("3 in all") == true)
  }
}
