import BikiCore
import BikiHost
import BikiPlugins
import BikiSync
import Foundation

/// What keying the caches by content costs a start-up, against what the caches save: the
/// built-in packs loaded with a warm pack-check cache (every file hashed, no reading check) and
/// with none (every reading check run); each built-in plugin library hashed, against a worker
/// started to describe it (what a cache miss costs). Hashing pays only if it is the smaller.
struct StartupHashBench {
  let files: [String]
  let plugins: [String]
  let executable: String

  func run() -> [String] {
    let build = BuildIdentity.of(executable: executable)
    let clock = ContinuousClock()
    func milliseconds(_ body: () -> Bool) -> Double? {
      let start = clock.now
      guard body() else { return nil }
      let elapsed = start.duration(to: clock.now)
      return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
    func fail(_ message: String) -> Never {
      FileHandle.standardError.write(Data("Error: startup.hashing: \(message), so nothing is measured\n".utf8))
      exit(1)
    }

    let entries = Locked<Set<String>>([])
    let warm = PackCheckCache(
      load: { entries.withLock { $0 } }, store: { new in entries.withLock { $0 = new } },
      stamp: { _, bytes in ContentKey.ofPack(bytes, build: build) })
    let cached = PackLoader(fileSystem: .live, checked: warm)
    let unchecked = PackLoader(fileSystem: .live)
    func loads(_ loader: PackLoader) -> Bool {
      loader.load(files: files).packs.allSatisfy { $0.compilation.diagnostics.allSatisfy { $0.severity != .error } }
    }
    guard loads(cached), !entries.withLock(\.isEmpty) else { fail("the built-in packs did not load into the cache") }
    var hashed: [Double] = []
    var checked: [Double] = []
    var keyOnly: [Double] = []
    let bytes = files.compactMap { try? Data(contentsOf: URL(fileURLWithPath: $0)) }.map { [UInt8]($0) }
    guard bytes.count == files.count else { fail("a built-in pack could not be read") }
    for _ in 0..<20 {
      guard let withCache = milliseconds({ loads(cached) }), let withoutCache = milliseconds({ loads(unchecked) }),
        let keys = milliseconds({ bytes.allSatisfy { !ContentKey.ofPack($0, build: build).isEmpty } })
      else { fail("a built-in pack failed to load") }
      hashed.append(withCache)
      checked.append(withoutCache)
      keyOnly.append(keys)
    }
    let (warmLoad, fullLoad, keying) = (Spread(hashed).median, Spread(checked).median, Spread(keyOnly).median)
    let kilobytes = bytes.reduce(0) { $0 + $1.count } / 1024
    var lines = [
      "startup.hashing.packs: \(format(keying)) ms to key \(files.count) packs (\(kilobytes) KB); load \(format(warmLoad)) ms with the cache, \(format(fullLoad)) ms with every check  (target: keying < the check it saves, \(format(fullLoad - warmLoad)) ms: \(keying < fullLoad - warmLoad ? "met" : "NOT met"))  [medians of 20]"
    ]

    for plugin in plugins {
      var keyTimes: [Double] = []
      var describeTimes: [Double] = []
      for _ in 0..<10 {
        guard let key = milliseconds({ ContentKey.ofLibrary(plugin, build: build) != nil }) else {
          fail("\(plugin) could not be read")
        }
        guard
          let describe = milliseconds({
            (try? IsolatedPlugin(path: plugin, spawner: .live(executable: executable, now: seconds), now: seconds)
              .describe()) != nil
          })
        else { fail("\(plugin) could not be described") }
        keyTimes.append(key)
        describeTimes.append(describe)
      }
      let (key, describe) = (Spread(keyTimes).median, Spread(describeTimes).median)
      let size = ((try? FileManager.default.attributesOfItem(atPath: plugin)[.size] as? Int) ?? 0) / 1024
      lines.append(
        "startup.hashing.\(URL(fileURLWithPath: plugin).lastPathComponent): \(format(key)) ms to key the library (\(size) KB), \(format(describe)) ms to describe it in a worker  (target: keying < describing: \(key < describe ? "met" : "NOT met"))  [medians of 10]"
      )
    }
    return lines
  }

  private func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
