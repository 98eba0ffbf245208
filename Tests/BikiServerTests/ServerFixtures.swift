import BikiCore
import BikiHost
import BikiJSON
import BikiPractice
import BikiProtocol
import BikiTestSupport
import Synchronization
import Testing

@testable import BikiServer

enum ServerFixtures {
  static func pack(id: String = "test", topicID: String = "hon", max: Int = 100) -> String {
    """
    {
      "format": 1, "id": "\(id)", "title": "Test", "version": "1.0.0",
      "topics": [{
        "id": "\(topicID)", "title": "本", "description": "Long things.", "category": "counter",
        "skills": ["listening", "reading", "kana"],
        "variables": { "n": { "range": { "min": 1, "max": \(max) } } },
        "parameters": { "max": { "target": "n.max", "min": 2, "max": 1000, "description": "Largest count" } },
        "question": { "parts": [{ "number": "n", "counter": "本" }], "answer": { "value": "n", "postfix": "本" } }
      }]
    }
    """
  }

  /// Files the catalog is loaded from; tests change them to exercise reloading.
  final class Files: Sendable {
    let contents: Mutex<[String: [UInt8]]>
    init(_ files: [String: String]) { contents = Mutex(files.mapValues { Array($0.utf8) }) }
    func set(_ path: String, _ text: String) { contents.withLock { $0[path] = Array(text.utf8) } }
  }

  /// Background work held until the test runs it, to see what happens while a check runs.
  final class HeldWork: Sendable {
    private let waiting = Mutex<[@Sendable () -> Void]>([])
    var runner: BackgroundRunner { BackgroundRunner { work in self.waiting.withLock { $0.append(work) } } }
    var count: Int { waiting.withLock { $0.count } }
    func runAll() {
      for work in waiting.withLock({ work in
        defer { work = [] }
        return work
      }) { work() }
    }
  }

  static func dependencies(
    files: Files = Files(["/packs/test.json": pack()]), clock: ManualClock = ManualClock(at: 100),
    history: AnswerHistory = .memory(),
    background: BackgroundRunner = .immediate
  ) -> ServerDependencies {
    ServerDependencies(
      loadCatalog: {
        let fileSystem = FileSystem.memory(files.contents.withLock { $0 })
        let loader = PackLoader(fileSystem: fileSystem)
        let packs = loader.load(files: (try? loader.packFiles(in: ["/packs"], requireExistence: false)) ?? [])
        return Catalog(registry: TopicRegistry.load(packs: packs, plugins: [], isolation: .inProcess), packs: packs)
      },
      packStamp: {
        files.contents.withLock {
          $0.map { "\($0.key)=\($0.value.count):\($0.value.hashValue)" }.sorted().joined(separator: ",")
        }
      },
      history: history, now: clock.now, wallClock: { 1_800_000_000 }, seeds: .constant(42), readingCheck: .sample(16),
      background: background)
  }

  /// The same dependencies with the test pack's topics marked as a plugin's (from `source`),
  /// each generator made by the pack and then changed by `adapt` (by default, never at hand).
  static func asPlugin(
    _ dependencies: ServerDependencies, source: String,
    adapt: @escaping @Sendable (QuestionGenerator) -> QuestionGenerator = {
      QuestionGenerator(StandInPluginQuestions($0))
    }
  ) -> ServerDependencies {
    var dependencies = dependencies
    let load = dependencies.loadCatalog
    dependencies.loadCatalog = {
      let catalog = load()
      var registry = catalog.registry
      registry.topics = catalog.registry.topics.map { registered in
        RegisteredTopic(topic: registered.topic, source: source, callsPlugin: true) {
          parameters throws(ParameterError) in
          adapt(try registered.generator(parameters: parameters))
        }
      }
      return Catalog(registry: registry, packs: catalog.packs)
    }
    return dependencies
  }

  /// An initialized endpoint.
  static func endpoint(_ dependencies: ServerDependencies = dependencies()) -> Endpoint<BikiServer> {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: dependencies))
    _ = endpoint.receive(.request(id: .number(0), method: "initialize", params: [:]))
    return endpoint
  }
}

extension Endpoint where Server == BikiServer {
  /// Sends a request; returns its result, or records the error it got.
  mutating func call(_ method: String, _ params: JSON? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> JSON
  {
    for message in receive(.request(id: .number(1), method: method, params: params)) {
      switch message {
      case .result(_, let result): return result
      case .error(_, let error):
        Issue.record("\(method) failed: \(error.code) \(error.message)", sourceLocation: sourceLocation)
        return .null
      case .notification, .request: continue
      }
    }
    return .null
  }

  /// Sends a request that must fail; returns its error.
  mutating func failure(_ method: String, _ params: JSON? = nil, sourceLocation: SourceLocation = #_sourceLocation)
    -> ResponseError?
  {
    for case .error(_, let error) in receive(.request(id: .number(1), method: method, params: params)) { return error }
    Issue.record("\(method) succeeded", sourceLocation: sourceLocation)
    return nil
  }

  mutating func notify(_ method: String, _ params: JSON) -> [OutgoingMessage] {
    receive(.notification(method: method, params: params))
  }
}

extension [OutgoingMessage] {
  /// The params of each notification with this method.
  func notifications(_ method: String) -> [JSON] {
    compactMap { if case .notification(method, let params) = $0 { params } else { nil } }
  }
}
