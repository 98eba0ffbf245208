import Foundation
import Testing

/// Biki as a user has it after `biki install`: run by bare name through PATH, from a directory
/// that has nothing to do with the checkout, with nothing but the prefix to find its files.
@Suite(.serialized) struct InstallTests {
  /// A scratch prefix, an unrelated working directory and a home, all fresh.
  struct Scratch {
    let root: String
    var prefix: String { root + "/prefix" }
    var elsewhere: String { root + "/elsewhere" }
    var home: String { root + "/home" }

    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("biki-install-\(UUID().uuidString)").path
      for directory in [root, root + "/elsewhere", root + "/home"] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      }
    }

    /// The installed tools only: the prefix's bin first, then the system's, and no BIKI_*.
    var environment: [String: String] { ["PATH": prefix + "/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"] }

    func run(_ script: String) throws -> BikiProcess.Result {
      try BikiProcess.run([], viaShell: script, environment: environment, directory: elsewhere)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
  }

  static func topicCount(_ listing: String) -> Int { listing.split(separator: "\n").count - 1 }

  @Test func theInstalledToolsRunByBareNameFromAnywhere() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let install = try BikiProcess.run(
      ["install", "--prefix", scratch.prefix], environment: scratch.environment, directory: scratch.elsewhere)
    #expect(install.status == 0, "\(install.standardError)")
    #expect(install.standardOutput.contains("Installed Biki"))

    // The same topics as the build in the tree, samples included.
    let inTree = try BikiProcess.run(["topics"], environment: ["HOME": scratch.home, "PATH": "/usr/bin:/bin"])
    let installed = try scratch.run("biki topics")
    #expect(installed.status == 0, "\(installed.standardError)")
    #expect(Self.topicCount(installed.standardOutput) == Self.topicCount(inTree.standardOutput))
    #expect(Self.topicCount(installed.standardOutput) > 60)
    #expect(installed.standardOutput.contains("counters.hon\t"))
    #expect(installed.standardOutput.contains("\(scratch.prefix)/share/biki/built-in-packs/counters.json"))
    #expect(installed.standardOutput.contains("\(scratch.prefix)/lib/biki/plugins/libbiki-calendar.so"))

    // A quiz on a built-in pack and one on an installed plugin (in a worker started from the
    // installed biki).
    let quiz = try scratch.run(
      "printf '1\\nskip\\n' | biki quiz counters.hon --skill reading --seed 3 --mode questions=1")
    #expect(quiz.status == 0, "\(quiz.standardError)")
    #expect(quiz.standardOutput.contains("Finished"))
    let pluginQuiz = try scratch.run("printf 'skip\\n' | biki quiz calendar.eras --seed 1 --mode questions=1")
    #expect(pluginQuiz.status == 0, "\(pluginQuiz.standardError)")

    // The language server, spoken to over stdio.
    let messages = [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"biki/topics","params":null}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"shutdown","params":null}"#,
      #"{"jsonrpc":"2.0","method":"exit","params":null}"#,
    ].map { "Content-Length: \($0.utf8.count)\r\n\r\n\($0)" }.joined()
    let input = scratch.root + "/serve-input"
    try Data(messages.utf8).write(to: URL(fileURLWithPath: input))
    let serve = try scratch.run("biki serve < '\(input)'")
    #expect(serve.status == 0, "\(serve.standardError)")
    let topicsAnswer =
      serve.standardOutput.components(separatedBy: "Content-Length").first { $0.contains(#""id":2"#) } ?? ""
    #expect(topicsAnswer.components(separatedBy: #""id":"#).count - 2 == Self.topicCount(inTree.standardOutput))

    // Lint of an installed pack, of a working copy of it, and of an installed plugin: all clean.
    let lint = try scratch.run(
      "biki-pack lint \"$(dirname \"$(command -v biki)\")/../share/biki/built-in-packs/counters.json\"")
    #expect(lint.status == 0, "\(lint.standardOutput)\(lint.standardError)")
    let copy = try scratch.run(
      "cp ../prefix/share/biki/built-in-packs/counters.json my-counters.json && biki-pack lint my-counters.json")
    #expect(copy.status == 0, "\(copy.standardOutput)\(copy.standardError)")
    let plugin = try scratch.run("biki-pack lint ../prefix/lib/biki/plugins/libbiki-prices.so")
    #expect(plugin.status == 0, "\(plugin.standardOutput)\(plugin.standardError)")

    // Installing again replaces; uninstalling leaves nothing of Biki's behind.
    #expect(try scratch.run("biki install --prefix ../prefix").status != 0)  // the installed biki is that install
    #expect(try BikiProcess.run(["install", "--prefix", scratch.prefix], environment: scratch.environment).status == 0)
    let uninstall = try scratch.run("biki uninstall --prefix \"$PWD/../prefix\"")
    #expect(uninstall.status == 0, "\(uninstall.standardError)")
    let left = FileManager.default.enumerator(atPath: scratch.prefix)?.allObjects.compactMap { $0 as? String } ?? []
    #expect(left.sorted() == ["bin", "lib", "share"])
    #expect(
      try BikiProcess.run(["uninstall", "--prefix", scratch.prefix], environment: scratch.environment).status == 66)
  }

  /// A pack of one's own, where README says to put it.
  static let teaPack = #"""
    {"format": 1, "id": "tea", "title": "Tea", "version": "1", "topics": [
      {"id": "cups", "title": "Cups", "description": "D.", "category": "counter", "skills": ["kana"],
       "variables": {"n": {"range": {"min": 1, "max": 9}}},
       "question": {"parts": [{"text": "お茶", "reading": "おちゃ"}, {"number": "n", "counter": "杯"}], "answer": {"value": "n", "postfix": "杯"}}}]}
    """#

  /// With the default prefix, ~/.local, the built-in packs are not put where the user's own go
  /// (~/.local/share/biki/packs): a pack of one's own there lints clean and is listed as one's
  /// own, and an install over an earlier one, which did put them there, moves them out.
  @Test func installedIntoLocalYourOwnPacksStayYours() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let local = scratch.home + "/.local"
    let own = local + "/share/biki/packs"
    try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
    try Self.teaPack.write(toFile: own + "/tea.json", atomically: true, encoding: .utf8)
    var environment = scratch.environment
    environment["PATH"] = local + "/bin:/usr/bin:/bin"
    func run(_ script: String) throws -> BikiProcess.Result {
      try BikiProcess.run([], viaShell: script, environment: environment, directory: scratch.elsewhere)
    }
    func expectOwnPackIsOwn() throws {
      let lint = try run("biki-pack lint ~/.local/share/biki/packs/tea.json")
      #expect(lint.status == 0, "\(lint.standardOutput)\(lint.standardError)")
      #expect(!lint.standardOutput.contains("overridden-topic"), "\(lint.standardOutput)")
      let topics = try run("biki topics")
      #expect(topics.standardOutput.contains("tea.cups\t"), "\(topics.standardOutput)")
      #expect(topics.standardOutput.contains(local + "/share/biki/built-in-packs/counters.json"))
      #expect(!topics.standardOutput.contains(own + "/counters.json"))
    }
    let install = try BikiProcess.run(["install"], environment: environment, directory: scratch.elsewhere)
    #expect(install.status == 0, "\(install.standardError)")
    try expectOwnPackIsOwn()

    // The layout of an earlier install: the built-in packs among one's own, so listed.
    let builtIn = local + "/share/biki/built-in-packs"
    for name in try FileManager.default.contentsOfDirectory(atPath: builtIn) {
      try FileManager.default.moveItem(atPath: builtIn + "/" + name, toPath: own + "/" + name)
    }
    try FileManager.default.removeItem(atPath: builtIn)
    let manifest = local + "/share/biki/installed-files"
    let earlier = try String(contentsOfFile: manifest, encoding: .utf8)
      .replacingOccurrences(of: "share/biki/built-in-packs/", with: "share/biki/packs/")
    try earlier.write(toFile: manifest, atomically: true, encoding: .utf8)
    let again = try BikiProcess.run(["install"], environment: environment, directory: scratch.elsewhere)
    #expect(again.status == 0, "\(again.standardError)")
    #expect(!again.standardOutput.contains("Kept"), "\(again.standardOutput)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: own) == ["tea.json"])
    try expectOwnPackIsOwn()

    // Uninstalling leaves one's own pack where it is.
    #expect(try run("biki uninstall").status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: own) == ["tea.json"])
    #expect(!FileManager.default.fileExists(atPath: builtIn))
  }

  @Test func uninstallKeepsWhatIsNotInItsManifest() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    #expect(try BikiProcess.run(["install", "--prefix", scratch.prefix], environment: scratch.environment).status == 0)
    let mine = scratch.prefix + "/share/biki/built-in-packs/mine.json"
    try Data("{}".utf8).write(to: URL(fileURLWithPath: mine))
    #expect(
      try BikiProcess.run(["uninstall", "--prefix", scratch.prefix], environment: scratch.environment).status == 0)
    #expect(FileManager.default.fileExists(atPath: mine))
    #expect(!FileManager.default.fileExists(atPath: scratch.prefix + "/bin/biki"))
  }

  @Test func aManifestThatReachesOutsideThePrefixRemovesNothing() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let outside = scratch.root + "/precious"
    try Data("keep".utf8).write(to: URL(fileURLWithPath: outside))
    try FileManager.default.createDirectory(atPath: scratch.prefix + "/share/biki", withIntermediateDirectories: true)
    try Data("bin/biki\n../../precious\n".utf8).write(
      to: URL(fileURLWithPath: scratch.prefix + "/share/biki/installed-files"))
    let result = try BikiProcess.run(["uninstall", "--prefix", scratch.prefix], environment: scratch.environment)
    #expect(result.status == 65)
    #expect(result.standardError.contains("not a path inside the prefix"))
    #expect(FileManager.default.fileExists(atPath: outside))

    // Install reads the manifest too (to remove what an earlier install no longer has), so it
    // refuses the same manifest and writes nothing.
    let install = try BikiProcess.run(["install", "--prefix", scratch.prefix], environment: scratch.environment)
    #expect(install.status == 73)
    #expect(install.standardError.contains("not a path inside the prefix"))
    #expect(!FileManager.default.fileExists(atPath: scratch.prefix + "/bin"))
    #expect(FileManager.default.fileExists(atPath: outside))

    // An absolute path, and a 10,000-character one quoted in a line of the message, not whole.
    let long = String(repeating: "a/", count: 5_000) + "../x"
    for entry in [outside, long] {
      try Data("bin/biki\n\(entry)\n".utf8).write(
        to: URL(fileURLWithPath: scratch.prefix + "/share/biki/installed-files"))
      let refused = try BikiProcess.run(["uninstall", "--prefix", scratch.prefix], environment: scratch.environment)
      #expect(refused.status == 65)
      #expect(refused.standardError.contains("not a path inside the prefix"))
      #expect(refused.standardError.count < 300)
      #expect(FileManager.default.fileExists(atPath: outside))
    }
  }

  @Test func missingPrefixValueIsAUsageError() throws {
    let result = try BikiProcess.run(["install", "--prefix"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("Missing value for '--prefix <dir>'"))
  }
}
