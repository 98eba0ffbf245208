import BikiCore
import BikiFiles
import BikiJSON
import BikiSync

/// Which pack files passed their reading check at load, kept between runs so that a start-up
/// rechecks only what changed. Each entry is a file's path and content key (its bytes and the
/// build that checked them), so an edited pack, or another build with other readings, is
/// checked in full again. A file listed here is still compiled, and its first and last
/// questions are still checked.
package struct PackCheckCache: Sendable {
  var load: @Sendable () -> Set<String>
  var store: @Sendable (Set<String>) -> Void
  /// A pack's content key from its path and the bytes the loader read (see `ContentKey`).
  var stamp: @Sendable (_ path: String, _ bytes: [UInt8]) -> String?

  package init(
    load: @Sendable @escaping () -> Set<String>, store: @Sendable @escaping (Set<String>) -> Void,
    stamp: @Sendable @escaping (String, [UInt8]) -> String?
  ) {
    self.load = load
    self.store = store
    self.stamp = stamp
  }

  static let none = PackCheckCache(load: { [] }, store: { _ in }, stamp: { _, _ in nil })

  /// In memory, for tests.
  package static func memory(stamp: @Sendable @escaping (String) -> String?) -> (PackCheckCache, Locked<Set<String>>) {
    let entries = Locked<Set<String>>([])
    return (
      PackCheckCache(
        load: { entries.withLock { $0 } }, store: { new in entries.withLock { $0 = new } },
        stamp: { path, _ in stamp(path) }), entries
    )
  }

  /// `$XDG_CACHE_HOME/biki/pack-checks.json` (default `~/.cache/biki/…`), private.
  package static func file(environment: [String: String], build: String) -> PackCheckCache {
    guard let directory = XDGDirectories(environment: environment).cacheHome.map({ $0 + "/biki" }) else { return .none }
    let path = directory + "/pack-checks.json"
    return PackCheckCache(
      load: {
        // Biki's own file, so a link is not followed; anything but a plain file of a sane size
        // (a FIFO put there, say) counts as no cache.
        guard let bytes = try? RegularFile.read(path, limit: cacheSizeLimit, links: .refuse),
          case .array(let keys)? = try? JSONParser.value(bytes)
        else { return [] }
        return Set(keys.compactMap(\.stringValue))
      },
      store: { keys in
        guard (try? PrivateDirectory.create(directory)) != nil else { return }
        // A cache that cannot be written costs a full check next time, nothing else.
        try? WholeFile.replace(path, with: JSON.array(keys.sorted().map(JSON.string)).bytes, mode: 0o600)
      },
      stamp: { _, bytes in ContentKey.ofPack(bytes, build: build) })
  }

  /// Far more than any real cache needs (one short line per pack file).
  static let cacheSizeLimit = 16 << 20

  func key(_ path: String, bytes: [UInt8]) -> String? {
    CacheKey.of(path, stamp: stamp(path, bytes))
  }
}
