import BikiPacks
import BikiTestSupport
import Foundation
import Testing

@testable import BikiHost

#if canImport(Glibc)
  import Glibc
#endif

/// Pack directories on the real file system holding what is not a pack file: each is reported
/// where it lies and the other packs still load. Without the fix the FIFO blocks for ever, so
/// a watchdog frees it and the test fails.
@Suite(.timeLimit(.minutes(1))) struct HostilePackDirectoryTests {
  static func directory() -> String {
    let path = NSTemporaryDirectory() + "biki-hostile-" + UUID().uuidString
    mkdir(path, 0o700)
    #expect(
      FileManager.default.createFile(atPath: path + "/good.json", contents: Data(PackLoaderTests.pack(id: "good"))))
    return path
  }

  func load(_ directory: String) throws -> (files: [String], load: PackLoad) {
    let loader = PackLoader(fileSystem: .live)
    let files = try loader.packFiles(in: [directory], requireExistence: true)
    return (files, loader.load(files: files))
  }

  @Test func aFIFOIsReportedAndTheOtherPacksLoad() throws {
    let directory = Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(mkfifo(directory + "/pipe.json", 0o600) == 0)
    let watchdog = FIFOWatchdog([directory + "/pipe.json"])
    let (files, load) = try load(directory)
    #expect(!watchdog.stop(), "loading the packs waited on the FIFO")
    #expect(files == [directory + "/good.json", directory + "/pipe.json"])
    #expect(load.topics.map(\.topic.topic.id) == ["good.t"])
    let diagnostics = load.diagnostics(for: directory + "/pipe.json")
    #expect(diagnostics.map(\.rule) == ["unreadable-file"])
    #expect(
      diagnostics.map { $0.formatted(path: "pipe.json") } == [
        "pipe.json:1:1: error: not a regular file (a FIFO) [unreadable-file]"
      ])
  }

  @Test func aSymbolicLinkLoopAndADanglingLinkAreReportedNotDropped() throws {
    let directory = Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(symlink(directory + "/loop-b.json", directory + "/loop-a.json") == 0)
    #expect(symlink(directory + "/loop-a.json", directory + "/loop-b.json") == 0)
    #expect(symlink(directory + "/nowhere", directory + "/dangling.json") == 0)
    let (files, load) = try load(directory)
    #expect(
      files.map { ($0 as NSString).lastPathComponent } == ["dangling.json", "good.json", "loop-a.json", "loop-b.json"])
    #expect(load.topics.map(\.topic.topic.id) == ["good.t"])
    #expect(load.diagnostics(for: directory + "/loop-a.json").map(\.message) == ["too many levels of symbolic links"])
    #expect(load.diagnostics(for: directory + "/dangling.json").map(\.message) == ["no such file or directory"])
  }

  @Test func aFIFONamedDirectlyIsAPackFileThatCannotBeRead() throws {
    let directory = Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let fifo = directory + "/pipe.json"
    #expect(mkfifo(fifo, 0o600) == 0)
    let loader = PackLoader(fileSystem: .live)
    #expect(try loader.packFiles(in: [fifo], requireExistence: true) == [fifo])
    #expect(FileSystem.live.kind(fifo) == .other)
  }

  @Test func aCacheThatIsAFIFOCountsAsNoCache() throws {
    let home = NSTemporaryDirectory() + "biki-cache-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: home) }
    #expect(mkdir(home, 0o700) == 0 && mkdir(home + "/biki", 0o700) == 0)
    #expect(mkfifo(home + "/biki/pack-checks.json", 0o600) == 0)
    #expect(mkfifo(home + "/biki/plugin-descriptions.json", 0o600) == 0)
    let watchdog = FIFOWatchdog([home + "/biki/pack-checks.json", home + "/biki/plugin-descriptions.json"])
    let environment = ["XDG_CACHE_HOME": home]
    #expect(PackCheckCache.file(environment: environment, build: "test").load() == [])
    #expect(PluginDescriptionCache.file(environment: environment, build: "test").load().isEmpty)
    #expect(!watchdog.stop(), "loading a cache waited on the FIFO")
  }
}
