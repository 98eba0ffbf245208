import BikiCore
import BikiHost
import BikiJSON
import BikiProtocol
import Dispatch
import Testing

@testable import BikiServer

/// `biki serve` answers `initialize` while its packs and plugins load, as language servers
/// index after they answer; a request that needs them waits for them, and none sees a catalog
/// without them.
@Suite struct FirstCatalogTests {
  @Test func initializeIsAnsweredBeforeThePacksLoadAndTheFirstTickAdoptsThem() {
    let held = ServerFixtures.HeldWork()
    var dependencies = ServerFixtures.dependencies(background: held.runner)
    dependencies.loadsCatalogAhead = true
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: dependencies))
    let answered = endpoint.receive(.request(id: .number(0), method: "initialize", params: ["capabilities": [:]]))
    #expect(answered.contains { if case .result(.number(0)?, _) = $0 { true } else { false } })
    // The load is the one piece of work waiting.
    #expect(held.count == 1)
    #expect(endpoint.server.catalog.registry.topics.isEmpty)
    held.runAll()
    _ = endpoint.tick(now: 0)
    #expect(endpoint.server.catalog.topic(id: "test.hon") != nil)
    #expect(endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 1])["questions"]?.arrayValue?.count == 1)
  }

  @Test func aRequestSentWhileThePacksLoadWaitsForThem() {
    var dependencies = ServerFixtures.dependencies(background: .threads(waking: nil))
    dependencies.loadsCatalogAhead = true
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: dependencies))
    _ = endpoint.receive(.request(id: .number(0), method: "initialize", params: ["capabilities": [:]]))
    // Sent at once: answered with the loaded topics, never "no topic".
    #expect(endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 1])["questions"]?.arrayValue?.count == 1)
  }

  /// A load whose whole catalog is held until `release`, and whose topics can be had one at a
  /// time before it, as `biki serve`'s are: the first question need not wait for every pack.
  final class HeldLoad: Sendable {
    let whole: Catalog
    let released = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)

    init(files: [String: String]) {
      whole = ServerFixtures.dependencies(files: ServerFixtures.Files(files)).loadCatalog()
    }

    var start: CatalogStart {
      CatalogStart(
        topic: { [whole] id in whole.topic(id: id)?.registered },
        finish: { [self] in
          released.wait()
          finished.signal()
          return whole
        })
    }

    func release() { released.signal() }
  }

  static let twoPacks = [
    "/packs/test.json": ServerFixtures.pack(),
    "/packs/other.json": ServerFixtures.pack(id: "other", topicID: "mai"),
  ]

  /// A server whose first catalog is `load`, loading off the loop, with `initialize` answered.
  static func initialized(loading load: HeldLoad) -> Endpoint<BikiServer> {
    var dependencies = ServerFixtures.dependencies(background: .threads(waking: nil))
    dependencies.loadsCatalogAhead = true
    dependencies.beginCatalog = { load.start }
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: dependencies))
    _ = endpoint.receive(.request(id: .number(0), method: "initialize", params: ["capabilities": [:]]))
    return endpoint
  }

  @Test func aPackTopicAskedForWhileTheRestLoadsIsServedAtOnce() {
    let load = HeldLoad(files: Self.twoPacks)
    var endpoint = Self.initialized(loading: load)
    // The whole catalog is still held: the question comes from the topic's own pack.
    let question = endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 7])["questions"]?.arrayValue?.first
    #expect(question?["topicId"]?.stringValue == "test.hon")
    let started = endpoint.call(
      "biki/startSession", ["topicId": "other.mai", "seed": 2, "mode": ["kind": "questionLimit", "limit": 2]])
    #expect(started["question"]?["prompt"]?.stringValue?.hasSuffix("本") == true, "\(started)")
    #expect(endpoint.server.catalog.registry.topics.map(\.topic.id).sorted() == ["other.mai", "test.hon"])
    #expect(load.finished.wait(timeout: .now()) == .timedOut)
    load.release()
    // The same question once the whole catalog serves: a topic's questions do not depend on
    // how soon it was served.
    let later = endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 7])["questions"]?.arrayValue?.first
    #expect(later == question)
  }

  @Test func anythingElseWaitsForTheWholeCatalog() {
    let load = HeldLoad(files: Self.twoPacks)
    var endpoint = Self.initialized(loading: load)
    _ = endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 1])
    // Released only after the requests below were sent: each must wait for the whole, and
    // none may be answered from the one topic served so far.
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { load.release() }
    let unknown = endpoint.receive(
      .request(id: .number(2), method: "biki/generate", params: ["topicId": "test.hoon", "seed": 1]))
    let message = unknown.compactMap { if case .error(_, let error) = $0 { error.message } else { nil } }.first
    #expect(message?.contains(#"did you mean "test.hon"?"#) == true)
    #expect(load.finished.wait(timeout: .now()) == .success)
    let topics = endpoint.call("biki/topics")["topics"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
    #expect(topics?.sorted() == ["other.mai", "test.hon"])
  }
}
