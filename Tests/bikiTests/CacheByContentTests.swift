import BikiCore
import BikiHost
import BikiTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The caches in `$XDG_CACHE_HOME/biki` are keyed by what they cache: the real binary, a real
/// cache directory, and files changed the ways that fool a key made of stamps.
@Suite(.timeLimit(.minutes(2))) struct CacheByContentTests {
  /// Questions 0 and 80 show 1日; 20 to 39 would show 21日 … 40日, and 32日 to 40日 have no
  /// reading. With `% 20` instead of `% 40` (same length) every day is 1–20.
  static func daysPack(_ modulus: Int) -> String {
    #"""
    {"format": 1, "id": "edited", "title": "T", "version": "1", "topics": [
      {"id": "days", "title": "T", "description": "D.", "category": "counter", "skills": ["kana"],
       "variables": {"n": {"range": {"min": 0, "max": 80}}, "d": {"derive": "n % \#(modulus) + 1"}},
       "question": {"parts": [{"number": "d", "counter": "dayOfMonth"}], "answer": {"value": "d", "postfix": "日"}}}]}
    """#
  }

  struct Home {
    let root = NSTemporaryDirectory() + "biki-cache-content-" + UUID().uuidString
    var packs: String { root + "/packs" }
    var plugins: String { root + "/plugins" }
    var cache: String { root + "/cache/biki" }
    var environment: [String: String] {
      ["HOME": root, "XDG_DATA_HOME": root + "/data", "XDG_CACHE_HOME": root + "/cache", "PATH": "/usr/bin:/bin"]
    }

    init() throws {
      for directory in [packs, plugins] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      }
    }

    func topics() throws -> BikiProcess.Result {
      try BikiProcess.run(["topics", "--packs", packs, "--plugins", plugins], environment: environment)
    }
  }

  /// Writes `bytes` over the file in place (same inode), then puts its modification time back.
  static func overwriteKeepingStamps(_ path: String, with bytes: [UInt8]) throws {
    var before = stat()
    #expect(stat(path, &before) == 0)
    let descriptor = open(path, O_WRONLY)
    #expect(descriptor >= 0)
    #expect(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count)
    var times = [before.st_atim, before.st_mtim]
    #expect(futimens(descriptor, &times) == 0)
    close(descriptor)
    var after = stat()
    #expect(stat(path, &after) == 0)
    #expect(after.st_ino == before.st_ino && after.st_size == before.st_size)
    #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
  }

  @Test func aPackEditedInPlaceWithItsSizeTimeAndInodeKeptIsCheckedAfresh() throws {
    let home = try Home()
    let pack = home.packs + "/edited.json"
    try Self.daysPack(20).write(toFile: pack, atomically: false, encoding: .utf8)
    let first = try home.topics()
    #expect(first.standardOutput.contains("edited.days\t"), "\(first.standardError)")
    #expect(FileManager.default.fileExists(atPath: home.cache + "/pack-checks.json"))

    try Self.overwriteKeepingStamps(pack, with: Array(Self.daysPack(40).utf8))
    let second = try home.topics()
    #expect(!second.standardOutput.contains("edited.days\t"), "a pack a fresh check refuses was served from the cache")
    #expect(
      second.standardError.contains("cannot produce question 32 of 81: 33日 has no reading"), "\(second.standardError)")
  }

  /// Two packs of one size whose 64-bit fingerprints collide (made by solving the fingerprint's
  /// last step for eight printable bytes of a description): the good one shows every day 1–20,
  /// the bad one has `% 40` and days without a reading. Checked and cached, the good one must
  /// not lend its entry to the bad one shared under the same name.
  @Test func aPackMadeToCollideWithACheckedOneIsCheckedAfresh() throws {
    let fixtures = BikiPackTests.repository.appendingPathComponent("Tests/bikiTests/Fixtures/colliding-packs")
    let good = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("good.json")))
    let bad = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("bad.json")))
    #expect(good.count == bad.count && good != bad)
    #expect(
      StreamFingerprint.of(good) == StreamFingerprint.of(bad),
      "the fixtures no longer collide, so this test shows nothing")

    let home = try Home()
    let pack = home.packs + "/shared.json"
    try Data(good).write(to: URL(fileURLWithPath: pack))
    let first = try home.topics()
    #expect(first.standardOutput.contains("edited.days\t"), "\(first.standardError)")
    try Self.overwriteKeepingStamps(pack, with: bad)
    let second = try home.topics()
    #expect(
      !second.standardOutput.contains("edited.days\t"),
      "a pack made to collide was served on the good one's cache entry")
    #expect(second.standardError.contains("has no reading"), "\(second.standardError)")
  }

  /// An entry another build of Biki wrote for these very bytes is not this build's verdict.
  @Test func anEntryWrittenByAnotherBuildIsNotTrusted() throws {
    let home = try Home()
    let pack = home.packs + "/edited.json"
    let bytes = Array(Self.daysPack(40).utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: pack))
    try FileManager.default.createDirectory(atPath: home.cache, withIntermediateDirectories: true)
    let entry = "\(pack)|\(ContentKey.ofPack(bytes, build: "build-0123456789abcdef"))"
    try Data(#"["\#(entry)"]"#.utf8).write(to: URL(fileURLWithPath: home.cache + "/pack-checks.json"))
    let topics = try home.topics()
    #expect(!topics.standardOutput.contains("edited.days\t"))
    #expect(topics.standardError.contains("33日 has no reading"), "\(topics.standardError)")
  }

  /// A library patched in place (size, time and inode kept) is described afresh: its new title
  /// is listed, not the one a cached description remembers.
  @Test func aPluginPatchedInPlaceIsDescribedAfresh() throws {
    let source = PluginFixtures.repository.appendingPathComponent("Tests/BikiPluginsTests/Fixtures/misbehaving.c").path
    let alpha = try PluginFixtures.build(source, defines: [#"TITLE="Alpha""#], name: "titled-alpha")
    let omega = try PluginFixtures.build(source, defines: [#"TITLE="Omega""#], name: "titled-omega")
    let patched = [UInt8](try Data(contentsOf: URL(fileURLWithPath: omega)))
    #expect(
      patched.count == (try Data(contentsOf: URL(fileURLWithPath: alpha))).count,
      "the two builds differ only in the title's bytes")

    let home = try Home()
    let library = home.plugins + "/libtitled.so"
    try FileManager.default.copyItem(atPath: alpha, toPath: library)
    let first = try home.topics()
    #expect(first.standardOutput.contains("misbehaving.ok\tAlpha\t"), "\(first.standardOutput)\n\(first.standardError)")
    #expect(FileManager.default.fileExists(atPath: home.cache + "/plugin-descriptions.json"))

    try Self.overwriteKeepingStamps(library, with: patched)
    let second = try home.topics()
    #expect(
      second.standardOutput.contains("misbehaving.ok\tOmega\t"), "\(second.standardOutput)\n\(second.standardError)")
  }

  /// `biki-pack lint` loads a library twice, in two fresh workers: a description that differs
  /// between them (one that depends on anything but the library) is an error, since the cache
  /// would keep whichever it saw first.
  @Test func lintRefusesADescriptionThatDiffersBetweenLoads() throws {
    let varying = try PluginFixtures.misbehaving("DESCRIPTION_VARIES")
    let home = try Home()
    let lint = try BikiProcess.run(["lint", varying], program: "biki-pack", environment: home.environment)
    #expect(lint.status == 1)
    #expect(lint.standardOutput.contains("[plugin-descriptor-unstable]"), "\(lint.standardOutput)")
    #expect(lint.standardOutput.contains("may depend only on the library"), "\(lint.standardOutput)")
  }
}
