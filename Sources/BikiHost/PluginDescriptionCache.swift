import BikiCore
import BikiFiles
import BikiJSON
import BikiPlugins
import BikiSync
import Foundation

/// What plugins said about themselves, kept between runs so a start-up needs no worker: a
/// worker is spawned when a plugin's question is first wanted, not to list its topics. Each entry
/// is keyed by the library's path and content key (its bytes and the build of Biki), so a
/// rebuilt, replaced or patched library, or another build of Biki, is asked afresh. What a
/// plugin describes may depend only on its library (see `describe` in biki_plugin.h).
package struct PluginDescriptionCache: Sendable {
  var load: @Sendable () -> [String: Entry]
  var store: @Sendable ([String: Entry]) -> Void
  var stamp: @Sendable (_ path: String) -> String?

  package struct Entry: Equatable, Sendable {
    var identity: [UInt8]
    var description: [UInt8]
  }

  init(
    load: @Sendable @escaping () -> [String: Entry], store: @Sendable @escaping ([String: Entry]) -> Void,
    stamp: @Sendable @escaping (String) -> String?
  ) {
    self.load = load
    self.store = store
    self.stamp = stamp
  }

  static let none = PluginDescriptionCache(load: { [:] }, store: { _ in }, stamp: { _ in nil })

  /// In memory, for tests.
  package static func memory(stamp: @Sendable @escaping (String) -> String?) -> (
    PluginDescriptionCache, Locked<[String: Entry]>
  ) {
    let entries = Locked<[String: Entry]>([:])
    return (
      PluginDescriptionCache(
        load: { entries.withLock { $0 } }, store: { new in entries.withLock { $0 = new } }, stamp: stamp), entries
    )
  }

  /// `$XDG_CACHE_HOME/biki/plugin-descriptions.json` (default `~/.cache/biki/…`), private.
  package static func file(environment: [String: String], build: String) -> PluginDescriptionCache {
    guard let directory = XDGDirectories(environment: environment).cacheHome.map({ $0 + "/biki" }) else { return .none }
    let path = directory + "/plugin-descriptions.json"
    return PluginDescriptionCache(
      load: {
        // As for the pack-check cache: Biki's own plain file, or no cache at all.
        guard let bytes = try? RegularFile.read(path, limit: PackCheckCache.cacheSizeLimit, links: .refuse),
          let root = try? JSONParser.parse(bytes)
        else { return [:] }
        var entries: [String: Entry] = [:]
        for member in JSON(root).unwrappedObject {
          guard let identity = member.value["identity"]?.stringValue,
            let description = member.value["description"]?.stringValue
          else { continue }
          entries[member.key] = Entry(identity: Array(identity.utf8), description: Array(description.utf8))
        }
        return entries
      },
      store: { entries in
        guard (try? PrivateDirectory.create(directory)) != nil else { return }
        // Libraries that are gone are forgotten: every start reads the whole file, and plugins
        // built in passing (a temporary directory, another checkout) would make it grow forever.
        let kept = entries.filter { key, _ in
          key.lastIndex(of: "|").map { access(String(key[..<$0]), F_OK) == 0 } ?? false
        }
        let json = JSON.object(
          pairs:
            kept.sorted { $0.key < $1.key }.map { key, entry in
              (
                key,
                [
                  "identity": .string(String(decoding: entry.identity, as: UTF8.self)),
                  "description": .string(String(decoding: entry.description, as: UTF8.self)),
                ]
              )
            })
        // A cache that cannot be written costs a worker start next time, nothing else.
        try? WholeFile.replace(path, with: json.bytes, mode: 0o600)
      },
      stamp: { ContentKey.ofLibrary($0, build: build) })
  }

  func key(_ path: String) -> String? {
    CacheKey.of(path, stamp: stamp(path))
  }

  /// `backend` answering `describe` from the cache when it can, and filling the cache when it
  /// must ask. Only a description the plugin gave whole (valid UTF-8 JSON) is kept.
  func wrapping(_ backend: PluginBackend) -> PluginBackend {
    var wrapped = backend
    let cache = self
    wrapped.describe = { () throws(PluginError) in
      guard let key = cache.key(backend.path) else { return try backend.describe() }
      if let entry = cache.load()[key], let identity = try? PluginIdentity(json: entry.identity, path: backend.path) {
        return (identity, entry.description)
      }
      let (identity, description) = try backend.describe()
      if String(validating: description, as: UTF8.self) != nil {
        let identityJSON = identity.json
        var entries = cache.load().filter { !$0.key.hasPrefix(backend.path + "|") }
        entries[key] = Entry(identity: identityJSON, description: description)
        cache.store(entries)
      }
      return (identity, description)
    }
    return wrapped
  }
}

extension JSON {
  /// An object's members in order; none for anything else.
  fileprivate var unwrappedObject: [JSON.Member] {
    if case .object(let members) = unwrapped { return members }
    return []
  }
}
