import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What is not a plain file where Biki looks for one (a FIFO, a symbolic link loop) costs a
/// diagnostic, never a hang. Each program runs with a deadline and is killed past it, so a
/// regression fails instead of stalling the suite.
@Suite(.timeLimit(.minutes(2))) struct HostileFilesTests {
  static let pack = #"""
    {"format": 1, "id": "good", "title": "T", "version": "1", "topics": [
      {"id": "t", "title": "T", "description": "D.", "category": "number", "skills": ["kana"],
       "variables": {"n": {"range": {"min": 1, "max": 20}}},
       "question": {"parts": [{"number": "n"}], "answer": {"value": "n"}}}]}
    """#

  /// A home, and beside it a pack directory holding one good pack and a FIFO.
  static func setUp() throws -> (home: String, packs: String) {
    let root = NSTemporaryDirectory() + "biki-hostile-" + UUID().uuidString
    let packs = root + "/packs"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    try pack.write(toFile: packs + "/good.json", atomically: true, encoding: .utf8)
    #expect(mkfifo(packs + "/pipe.json", 0o600) == 0)
    return (root + "/home", packs)
  }

  struct Finished {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  /// Runs a built program; nil if it was still running after `seconds` (it is then killed).
  static func run(
    _ program: String, _ arguments: [String], home: String, in directory: String? = nil, seconds: Double = 20,
    extra: [String: String] = [:]
  ) throws -> Finished? {
    let process = Process()
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.executableURL = BikiProcess.executable(program)
    process.arguments = arguments
    process.environment = [
      "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state", "PATH": "/usr/bin:/bin",
    ]
    .merging(extra) { $1 }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let collected = Collected()
    Thread { collected.set(out: output.fileHandleForReading.readDataToEndOfFile()) }.start()
    Thread { collected.set(err: error.fileHandleForReading.readDataToEndOfFile()) }.start()
    let deadline = Date(timeIntervalSinceNow: seconds)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    guard !process.isRunning else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    process.waitUntilExit()
    let (out, err) = collected.wait()
    return Finished(status: process.terminationStatus, standardOutput: out, standardError: err)
  }

  final class Collected: @unchecked Sendable {
    private let condition = NSCondition()
    private var out: Data?
    private var err: Data?

    func set(out data: Data) {
      condition.withLock {
        out = data
        condition.broadcast()
      }
    }
    func set(err data: Data) {
      condition.withLock {
        err = data
        condition.broadcast()
      }
    }

    func wait() -> (String, String) {
      condition.withLock {
        let deadline = Date(timeIntervalSinceNow: 5)
        while out == nil || err == nil, condition.wait(until: deadline) {}
        return (String(decoding: out ?? Data(), as: UTF8.self), String(decoding: err ?? Data(), as: UTF8.self))
      }
    }
  }

  @Test func topicsWithAFIFOAmongThePacksListsTheOthers() throws {
    let (home, packs) = try Self.setUp()
    let topics = try #require(
      try Self.run("biki", ["topics", "--packs", packs], home: home), "biki topics hung on a FIFO")
    #expect(topics.status == 0, "\(topics.standardError)")
    #expect(topics.standardOutput.contains("good.t\t"))
    #expect(
      topics.standardError.contains("\(packs)/pipe.json:1:1: error: not a regular file (a FIFO) [unreadable-file]"))
  }

  @Test func aQuizWithAFIFOAmongThePacksRunsOnTheOthers() throws {
    let (home, packs) = try Self.setUp()
    let quiz = try #require(
      try Self.run("biki", ["quiz", "good.t", "--packs", packs, "--mode", "questions=2", "--seed", "1"], home: home),
      "biki quiz hung on a FIFO")
    #expect(quiz.status == 0, "\(quiz.standardError)")
    #expect(quiz.standardOutput.contains("[1/2] "), "\(quiz.standardOutput)")
    #expect(quiz.standardError.contains("\(packs)/pipe.json:1:1: error: not a regular file (a FIFO) [unreadable-file]"))
  }

  @Test func aFIFONamedLikeAPluginIsNamedAtOnceAndNotLoaded() throws {
    let (home, packs) = try Self.setUp()
    let plugins = packs + "/../plugins"
    try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
    #expect(mkfifo(plugins + "/libpipe.so", 0o600) == 0)
    let started = Date()
    // Well under a plugin's 5 s load limit: nothing waited on the FIFO.
    let topics = try #require(
      try Self.run("biki", ["topics", "--packs", packs, "--plugins", plugins], home: home),
      "biki topics hung on a FIFO plugin")
    #expect(Date().timeIntervalSince(started) < 4)
    #expect(topics.status == 0, "\(topics.standardError)")
    #expect(topics.standardOutput.contains("good.t\t"))
    #expect(
      topics.standardError.contains("libpipe.so:1:1: error: not a regular file (a FIFO) [unreadable-file]"),
      "\(topics.standardError)")
  }

  @Test func lintOfAFIFOFailsAtOnceSayingWhy() throws {
    let (home, packs) = try Self.setUp()
    let here = try #require(
      try Self.run("biki-pack", ["lint", "pipe.json"], home: home, in: packs), "biki-pack lint hung on a FIFO")
    #expect(here.status == 1)
    #expect(
      here.standardOutput.hasPrefix("pipe.json:1:1: error: not a regular file (a FIFO) [unreadable-file]\n"),
      "\(here.standardOutput)")
  }

  @Test func aSymbolicLinkLoopIsNamedNotDropped() throws {
    let (home, packs) = try Self.setUp()
    #expect(symlink(packs + "/b.json", packs + "/a.json") == 0)
    #expect(symlink(packs + "/a.json", packs + "/b.json") == 0)
    let lint = try #require(try Self.run("biki-pack", ["lint", packs + "/a.json"], home: home), "biki-pack lint hung")
    #expect(lint.status == 1)
    #expect(
      lint.standardOutput.hasPrefix(
        "\(packs)/a.json:1:1: error: too many levels of symbolic links [unreadable-file]\n"), "\(lint.standardOutput)")
  }

  /// Either cache as a FIFO counts as no cache: the packs are checked and the built-in plugins
  /// described afresh, and a real cache file takes the FIFO's place.
  @Test(arguments: ["pack-checks.json", "plugin-descriptions.json"])
  func aCacheThatIsAFIFOIsIgnoredAndReplaced(_ name: String) throws {
    let (home, packs) = try Self.setUp()
    unlink(packs + "/pipe.json")
    let cache = home + "/cache"
    try FileManager.default.createDirectory(atPath: cache + "/biki", withIntermediateDirectories: true)
    #expect(mkfifo(cache + "/biki/" + name, 0o600) == 0)
    let topics = try #require(
      try Self.run("biki", ["topics", "--packs", packs], home: home, extra: ["XDG_CACHE_HOME": cache]),
      "biki topics hung on a FIFO cache")
    #expect(topics.status == 0, "\(topics.standardError)")
    #expect(
      topics.standardOutput.contains("good.t\t") && topics.standardOutput.contains("calendar.weekdays\t"),
      "\(topics.standardOutput)")
    var status = stat()
    #expect(lstat(cache + "/biki/" + name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG)
  }

  @Test func serveWithAFIFOAnswersAndKeepsAnsweringWhenAnotherAppears() throws {
    let (home, packs) = try Self.setUp()
    let server = try LiveServer(arguments: ["--packs", packs], home: home)
    try server.initialize()
    server.request(1, "biki/topics")
    let topics = try #require(server.waitForResponse(1, within: 20), "biki/topics was not answered")
    let ids = (topics.message.result?["topics"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    #expect(ids.contains("good.t"))
    // The watcher polls every 2 s; a FIFO that appears must not stop it or what follows.
    #expect(mkfifo(packs + "/later.json", 0o600) == 0)
    usleep(2_500_000)
    let sent = server.request(2, "biki/read", #"{"text":"20日","as":"date"}"#)
    let read = try #require(server.waitForResponse(2, within: 5), "biki/read was not answered after a FIFO appeared")
    #expect(read.at - sent < 5)
    #expect(read.message.result != nil)
    // The watcher saw it, and says what it is rather than waiting on it.
    let changed = server.waitFor(within: 5) { $0["method"] as? String == "biki/packsChanged" }
    #expect("\(changed?.message.params ?? [:])".contains("not a regular file (a FIFO)"))
    #expect(server.finish() == 0)
  }

  @Test func aFIFOAmongTheUsersOwnPacksIsNamedAndTheOthersServe() throws {
    let (home, packs) = try Self.setUp()
    let own = home + "/data/biki/packs"
    try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: packs + "/good.json", toPath: own + "/good.json")
    #expect(mkfifo(own + "/mine.json", 0o600) == 0)
    let topics = try #require(
      try Self.run("biki", ["topics"], home: home), "biki topics hung on a FIFO in the user's packs")
    #expect(topics.status == 0, "\(topics.standardError)")
    #expect(topics.standardOutput.contains("good.t\t"))
    #expect(
      topics.standardError.contains("\(own)/mine.json:1:1: error: not a regular file (a FIFO) [unreadable-file]"),
      "\(topics.standardError)")
  }

  @Test func aSymbolicLinkLoopAmongThePacksIsNamedAndTheOthersServe() throws {
    let (home, packs) = try Self.setUp()
    unlink(packs + "/pipe.json")
    #expect(symlink(packs + "/b.json", packs + "/a.json") == 0)
    #expect(symlink(packs + "/a.json", packs + "/b.json") == 0)
    let topics = try #require(
      try Self.run("biki", ["topics", "--packs", packs], home: home), "biki topics hung on a link loop")
    #expect(topics.status == 0, "\(topics.standardError)")
    #expect(topics.standardOutput.contains("good.t\t"))
    #expect(
      topics.standardError.contains("\(packs)/a.json:1:1: error: too many levels of symbolic links [unreadable-file]"),
      "\(topics.standardError)")
  }

  @Test func statsOnAHistoryThatIsAFIFOSaysItCouldNotReadIt() throws {
    let (home, _) = try Self.setUp()
    try FileManager.default.createDirectory(atPath: home + "/state/biki", withIntermediateDirectories: true)
    let history = home + "/state/biki/history.jsonl"
    #expect(mkfifo(history, 0o600) == 0)
    let stats = try #require(try Self.run("biki", ["stats"], home: home), "biki stats hung on a FIFO history")
    #expect(
      stats.standardError.contains("Warning: cannot read \(history): not a regular file (a FIFO)"),
      "\(stats.standardError)")
    #expect(stats.standardOutput == "No answers could be read from \(history).\n", "\(stats.standardOutput)")
  }

  /// `biki serve` on an empty pack directory of its own, initialized.
  static func serverOnEmptyPacks() throws -> (server: LiveServer, root: String, packs: String) {
    let root = NSTemporaryDirectory() + "biki-empty-packs-" + UUID().uuidString
    let packs = root + "/packs"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    let server = try LiveServer(arguments: ["--packs", packs], home: root + "/home")
    try server.initialize()
    return (server, root, packs)
  }

  /// A document opened in an empty pack directory is a pack from its first keystroke, with the
  /// real server and a real directory; the same text elsewhere is left alone.
  @Test func aNewFileInAnEmptyPackDirectoryIsDiagnosedByTheRealServer() throws {
    let (server, root, packs) = try Self.serverOnEmptyPacks()
    let inPacks = "file://" + packs + "/new.json"
    let elsewhere = "file://" + root + "/notes.json"
    for uri in [inPacks, elsewhere] {
      server.notify(
        "textDocument/didOpen", #"{"textDocument":{"uri":"\#(uri)","languageId":"json","version":1,"text":"{}"}}"#)
    }
    func published(_ uri: String) -> [Any]? {
      let message = server.waitFor(within: 10) { ($0["params"] as? [String: Any])?["uri"] as? String == uri }
      return (message?.message.params?["diagnostics"]) as? [Any]
    }
    #expect(published(inPacks)?.isEmpty == false, "a new file in the pack directory got no diagnostics")
    #expect(published(elsewhere)?.isEmpty == true)
    #expect(server.finish() == 0)
  }

  /// A change naming a line past the document's end closes the server's copy, with a log
  /// message, rather than being clamped and applied.
  @Test func aChangePastTheEndClosesTheRealServersCopy() throws {
    let (server, _, packs) = try Self.serverOnEmptyPacks()
    let uri = "file://" + packs + "/mine.json"
    server.notify(
      "textDocument/didOpen", #"{"textDocument":{"uri":"\#(uri)","languageId":"json","version":1,"text":"{\n}\n"}}"#)
    server.notify(
      "textDocument/didChange",
      #"{"textDocument":{"uri":"\#(uri)","version":2},"contentChanges":[{"range":{"start":{"line":5,"character":0},"end":{"line":5,"character":0}},"text":"x"}]}"#
    )
    let log = server.waitFor(within: 10) { $0["method"] as? String == "window/logMessage" }
    #expect(
      "\(log?.message.params ?? [:])".contains("within the document's 3 lines"),
      "\(String(describing: log?.message.params))")
    // The copy is closed: a later change is told it has nothing to change.
    let count = server.count
    server.notify(
      "textDocument/didChange", #"{"textDocument":{"uri":"\#(uri)","version":3},"contentChanges":[{"text":"{}"}]}"#)
    let later = server.waitFor(within: 10, after: count) { $0["method"] as? String == "window/logMessage" }
    #expect("\(later?.message.params ?? [:])".contains("not open"), "\(String(describing: later?.message.params))")
    #expect(server.finish() == 0)
  }

  /// `biki-pack lint libmine.so` in the directory that holds it checks that file: dlopen would
  /// look a bare name up among the system's libraries, so it is given the full path.
  @Test func aLibraryNamedByItsBareNameIsTheOneInTheCurrentDirectory() throws {
    let good =
      #"{"display": "8本", "kanjiDisplay": "八本", "spoken": "はっぽん", "readings": ["はっぽん"], "answer": {"value": 8, "postfix": "本"}}"#
    let library = try PluginDisplayTests.plugin(good, name: "barename")
    let (home, packs) = try Self.setUp()
    try FileManager.default.copyItem(atPath: library, toPath: packs + "/libmine.so")
    let lint = try #require(try Self.run("biki-pack", ["lint", "libmine.so"], home: home, in: packs))
    #expect(lint.status == 0, "\(lint.standardOutput)")
    #expect(lint.standardOutput == "1 file checked: no problems.\n", "\(lint.standardOutput)")
    let sample = try #require(try Self.run("biki-pack", ["sample", "libmine.so"], home: home, in: packs))
    #expect(sample.status == 0, "\(sample.standardError)")
    #expect(sample.standardOutput.contains("8本"), "\(sample.standardOutput)")
  }
}
