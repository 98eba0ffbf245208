import BikiCore
import BikiJSON
import BikiProtocol
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
}
