import BikiPlugins
import BikiSync
import Foundation
import Testing

@testable import BikiHost

@Suite struct PluginDescriptionCacheTests {
  /// A backend that counts how often it is asked to describe itself (a worker spawn, live).
  final class Counter: @unchecked Sendable {
    let asked = Locked(0)
  }

  func backend(_ counter: Counter, description: String = #"{"topics": []}"#) -> PluginBackend {
    PluginBackend(
      path: "/lib/biki-x.so",
      describe: { () throws(PluginError) in
        counter.asked.withLock { $0 += 1 }
        return (PluginIdentity(id: "x", name: "X", version: "1", abiVersion: 1), Array(description.utf8))
      },
      generate: { _, _, _ in [] })
  }

  @Test func aSecondStartAsksNobody() throws {
    let stamp = Locked("100:1:7")
    let (cache, stored) = PluginDescriptionCache.memory { _ in stamp.withLock { $0 } }
    let counter = Counter()
    let first = try cache.wrapping(backend(counter)).describe()
    #expect(counter.asked.withLock { $0 } == 1)
    #expect(stored.withLock { $0.count } == 1)
    let second = try cache.wrapping(backend(counter)).describe()
    #expect(counter.asked.withLock { $0 } == 1)  // answered from the cache
    #expect(second.identity == first.identity)
    #expect(second.description == first.description)
    // A rebuilt library (another stamp) is asked again, and replaces its old entry.
    stamp.withLock { $0 = "120:2:7" }
    _ = try cache.wrapping(backend(counter)).describe()
    #expect(counter.asked.withLock { $0 } == 2)
    #expect(stored.withLock { $0.count } == 1)
  }

  @Test func aLibraryThatIsGoneIsNeverCached() throws {
    let (cache, stored) = PluginDescriptionCache.memory { _ in nil }
    let counter = Counter()
    _ = try cache.wrapping(backend(counter)).describe()
    _ = try cache.wrapping(backend(counter)).describe()
    #expect(counter.asked.withLock { $0 } == 2)
    #expect(stored.withLock { $0.isEmpty })
  }

  @Test func librariesThatAreGoneAreForgottenWhenTheCacheIsWritten() throws {
    let home = NSTemporaryDirectory() + "biki-cache-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: home) }
    #expect(mkdir(home, 0o700) == 0)
    let library = home + "/libkept.so"
    #expect(FileManager.default.createFile(atPath: library, contents: Data([1, 2, 3])))
    let cache = PluginDescriptionCache.file(environment: ["XDG_CACHE_HOME": home], build: "test")
    let entry = PluginDescriptionCache.Entry(identity: Array("{}".utf8), description: Array("{}".utf8))
    cache.store([library + "|3:1:test": entry, home + "/gone/libgone.so|9:2:test": entry])
    #expect(cache.load() == [library + "|3:1:test": entry])
  }
}
