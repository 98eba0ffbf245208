import BikiPacks
import BikiSync
import Testing

@testable import BikiHost

/// A pack that passed its sampled reading check is, while unchanged, checked again only at its
/// first and last questions; an edit, a failure or a thorough check means a full check.
@Suite struct PackCheckCacheTests {
  static let pack = #"""
    {"format": 1, "id": "test", "title": "Test", "version": "1.0.0",
     "topics": [{"id": "hon", "title": "本", "category": "counter", "skills": ["kana"],
                 "variables": {"n": {"range": {"min": 1, "max": 500}}},
                 "question": {"parts": [{"number": "n", "counter": "hon"}], "answer": {"value": "n", "postfix": "本"}}}]}
    """#
  static let broken = #"{"format": 1, "id": "broken"}"#

  func load(_ files: [String: String], stamp: Locked<String>, cache: PackCheckCache, check: ReadingCheck = .sample(64))
    -> PackLoad
  {
    let fileSystem = FileSystem.memory(files.mapValues { Array($0.utf8) })
    return PackLoader(fileSystem: fileSystem, check: check, checked: cache).load(files: files.keys.sorted())
  }

  func checked(_ load: PackLoad, _ path: String) -> UInt64? {
    load.packs.first { $0.path == path }?.compilation.readingCoverage.checked
  }

  @Test func anUnchangedPackIsCheckedAtItsEndsOnly() throws {
    let stamp = Locked("1")
    let (cache, entries) = PackCheckCache.memory(stamp: { _ in stamp.withLock { $0 } })
    let files = ["/p/test.json": Self.pack]
    let first = load(files, stamp: stamp, cache: cache)
    #expect(checked(first, "/p/test.json") == 64)
    #expect(entries.withLock { $0.count } == 1)
    let second = load(files, stamp: stamp, cache: cache)
    #expect(checked(second, "/p/test.json") == 2)
    #expect(second.topics.map(\.topic.topic.id) == first.topics.map(\.topic.topic.id))
    // Edited (a new stamp): checked in full again, and remembered under its new stamp.
    stamp.withLock { $0 = "2" }
    #expect(checked(load(files, stamp: stamp, cache: cache), "/p/test.json") == 64)
    #expect(checked(load(files, stamp: stamp, cache: cache), "/p/test.json") == 2)
  }

  @Test func aPackWithErrorsIsNeverRemembered() {
    let stamp = Locked("1")
    let (cache, entries) = PackCheckCache.memory(stamp: { _ in stamp.withLock { $0 } })
    let result = load(["/p/broken.json": Self.broken], stamp: stamp, cache: cache)
    #expect(result.packs.first?.compilation.hasErrors == true)
    #expect(entries.withLock { $0.isEmpty })
  }

  @Test func aThoroughCheckNeitherReadsNorWritesTheCache() {
    let stamp = Locked("1")
    let (cache, entries) = PackCheckCache.memory(stamp: { _ in stamp.withLock { $0 } })
    let files = ["/p/test.json": Self.pack]
    _ = load(files, stamp: stamp, cache: cache)
    let thorough = load(files, stamp: stamp, cache: cache, check: .thorough)
    #expect(checked(thorough, "/p/test.json") == 500)
    #expect(entries.withLock { $0.count } == 1)
  }

  @Test func aFileWithoutAStampIsAlwaysCheckedInFull() {
    let (cache, entries) = PackCheckCache.memory(stamp: { _ in nil })
    let files = ["/p/test.json": Self.pack]
    _ = load(files, stamp: Locked("1"), cache: cache)
    #expect(checked(load(files, stamp: Locked("1"), cache: cache), "/p/test.json") == 64)
    #expect(entries.withLock { $0.isEmpty })
  }
}
