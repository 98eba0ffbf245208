import BikiHost
import BikiJSON
import BikiPacks
import BikiProtocol
import BikiTestSupport
import Testing

@testable import BikiServer

/// Reloads run off the message loop and check the user's packs as lint does: the problems a
/// reload lists are lint's, and a request for one is answered when it is done.
@Suite struct ReloadTests {
  /// A month-and-day topic whose 2月30日 is question 60 of 372: found by lint's check of every
  /// question, missed by the 64 a quick load samples.
  static let monthAndDay = """
    {"format": 1, "id": "days", "title": "Days", "version": "1",
     "topics": [
      {"id": "md", "title": "Month and day", "description": "Any month, any day.", "category": "dateTime", "skills": ["reading"],
       "variables": {"m": {"range": {"min": 1, "max": 12}}, "d": {"range": {"min": 1, "max": 31}}},
       "question": {"parts": [{"number": "m", "counter": "月"}, {"number": "d", "counter": "dayOfMonth"}], "answer": {"value": "d", "postfix": "日"}}}
     ]}
    """

  /// The fixtures' dependencies, with a reload that checks as the live one does.
  static func dependencies(
    files: ServerFixtures.Files, clock: ManualClock = ManualClock(at: 100), background: BackgroundRunner = .immediate
  ) -> ServerDependencies {
    var dependencies = ServerFixtures.dependencies(files: files, clock: clock, background: background)
    dependencies.loadCatalog = { load(files, check: nil, isCancelled: { false }) }
    dependencies.loadCheckedCatalog = { serving, isCancelled in
      load(files, check: .thorough, reusing: serving, isCancelled: isCancelled)
    }
    return dependencies
  }

  static func load(
    _ files: ServerFixtures.Files, check: ReadingCheck?, reusing serving: PackLoad? = nil,
    isCancelled: @escaping @Sendable () -> Bool
  ) -> Catalog {
    let fileSystem = FileSystem.memory(files.contents.withLock { $0 })
    let loader = PackLoader(fileSystem: fileSystem, userCheck: check)
    let packs = loader.load(
      files: (try? loader.packFiles(in: ["/packs"], requireExistence: false)) ?? [], reusing: serving,
      isCancelled: isCancelled)
    return Catalog(registry: TopicRegistry.load(packs: packs, plugins: [], isolation: .inProcess), packs: packs)
  }

  static func rules(_ report: JSON?) -> [String] {
    (report?["problems"]?.arrayValue ?? []).compactMap { $0["diagnostic"]?["code"]?.stringValue }
  }

  @Test func aReloadListsWhatLintFindsAndServesNoTopicLintRefuses() {
    let files = ServerFixtures.Files(["/packs/days.json": Self.monthAndDay])
    // Loaded quickly, the topic serves: the sample missed its impossible date.
    #expect(Self.load(files, check: nil, isCancelled: { false }).registry.topics.map(\.topic.id) == ["days.md"])
    var endpoint = ServerFixtures.endpoint(Self.dependencies(files: files))
    // The full check after start-up was done before `initialize`, which took it in.
    #expect(endpoint.call("biki/topics")["topics"]?.arrayValue?.isEmpty == true)
    let reloaded = endpoint.call("biki/reloadPacks")
    #expect(Self.rules(reloaded) == ["unreadable-value"])
    #expect(
      reloaded["problems"]?.arrayValue?.first?["formatted"]?.stringValue?.hasPrefix(
        "/packs/days.json:5:27: error: topic \"md\" cannot produce question 60 of 372") == true)
    #expect(reloaded["topicCount"] == 0)
    #expect(reloaded["readingCoverage"] == [])
  }

  /// A topic whose one question is `count` 本.
  static func onlyQuestion(_ count: Int) -> String {
    """
    {"format": 1, "id": "p", "title": "P", "version": "1", "topics": [
     {"id": "t", "title": "本", "description": "Pencils.", "category": "counter", "skills": ["reading"],
      "variables": {"n": {"range": {"min": \(count), "max": \(count)}}},
      "question": {"parts": [{"number": "n", "counter": "本"}], "answer": {"value": "n", "postfix": "本"}}}]}
    """
  }

  /// The server remembers the topic it served last; a reload that changes what the id names
  /// serves the new topic at once.
  @Test func aTopicChangedByAReloadIsServedAsItNowIs() {
    let files = ServerFixtures.Files(["/packs/p.json": Self.onlyQuestion(3)])
    var endpoint = ServerFixtures.endpoint(Self.dependencies(files: files))
    func display() -> String? {
      endpoint.call("biki/generate", ["topicId": "p.t", "seed": 1])["questions"]?.arrayValue?.first?["display"]?
        .stringValue
    }
    #expect(display() == "3本")
    #expect(display() == "3本")
    files.set("/packs/p.json", Self.onlyQuestion(8))
    #expect(endpoint.call("biki/reloadPacks")["topicCount"] == 1)
    #expect(display() == "8本")
  }

  @Test func aRequestedReloadIsAnsweredWhenItsWorkIsDoneAndShutdownWaitsForIt() throws {
    let clock = ManualClock(at: 100)
    let held = ServerFixtures.HeldWork()
    let files = ServerFixtures.Files(["/packs/days.json": Self.monthAndDay])
    var endpoint = ServerFixtures.endpoint(Self.dependencies(files: files, clock: clock, background: held.runner))
    // The start-up check is held: the quick load serves meanwhile, and requests are answered.
    #expect(held.count == 1)
    #expect(endpoint.call("biki/topics")["topics"]?.arrayValue?.count == 1)
    #expect(endpoint.receive(.request(id: .number(7), method: "biki/reloadPacks", params: nil)).isEmpty)
    #expect(endpoint.receive(.request(id: .number(8), method: "shutdown", params: nil)).isEmpty)
    held.runAll()
    let done = endpoint.tick(now: clock.now())
    let answers = done.compactMap { if case .result(let id, let result) = $0 { (id, result) } else { nil } }
    #expect(answers.map(\.0) == [.number(7), .number(8)])
    #expect(Self.rules(answers.first?.1) == ["unreadable-value"])
    // The start-up check, superseded by the request, still says what changed.
    #expect(Self.rules(done.notifications("biki/packsChanged").first) == ["unreadable-value"])
  }

  @Test func aCancelledReloadRequestIsAnsweredAsCancelledAndTheReloadStillServes() {
    let clock = ManualClock(at: 100)
    let held = ServerFixtures.HeldWork()
    let files = ServerFixtures.Files(["/packs/test.json": ServerFixtures.pack()])
    var endpoint = ServerFixtures.endpoint(Self.dependencies(files: files, clock: clock, background: held.runner))
    held.runAll()
    _ = endpoint.tick(now: clock.now())
    files.set("/packs/more.json", ServerFixtures.pack(id: "more"))
    _ = endpoint.receive(.request(id: .number(5), method: "biki/reloadPacks", params: nil))
    let cancelled = endpoint.notify("$/cancelRequest", ["id": 5])
    guard case .error(.number(5), let error)? = cancelled.first else {
      Issue.record("no cancellation: \(cancelled)")
      return
    }
    #expect(error.code == ResponseError.requestCancelled)
    held.runAll()
    #expect(endpoint.tick(now: clock.now()).isEmpty)
    #expect(
      endpoint.call("biki/topics")["topics"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [
        "more.hon", "test.hon",
      ])
    // The files it read are the ones served: the poll has nothing new to announce.
    clock.advance(BikiServer.pollInterval)
    #expect(endpoint.tick(now: clock.now()).notifications("biki/packsChanged").isEmpty)
  }

  /// A pack file edited on disk: noticed by the poll, checked in full, announced once.
  @Test func aPackChangedOnDiskIsAnnouncedWithLintsProblems() {
    let clock = ManualClock(at: 100)
    let files = ServerFixtures.Files(["/packs/test.json": ServerFixtures.pack()])
    var endpoint = ServerFixtures.endpoint(Self.dependencies(files: files, clock: clock))
    clock.advance(BikiServer.pollInterval)
    #expect(endpoint.tick(now: clock.now()).notifications("biki/packsChanged").isEmpty)
    files.set("/packs/days.json", Self.monthAndDay)
    clock.advance(BikiServer.pollInterval)
    let changed = endpoint.tick(now: clock.now()).notifications("biki/packsChanged")
    #expect(changed.count == 1)
    #expect(Self.rules(changed.first) == ["unreadable-value"])
    #expect(changed.first?["topicCount"] == 1)
  }
}
