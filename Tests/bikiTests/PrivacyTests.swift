import Foundation
import Testing

/// Where Biki reads and writes when the environment is odd or hostile: no HOME, relative XDG
/// values, a history that is a symbolic link, a permissive umask. Each runs the real binary.
@Suite struct PrivacyTests {
  func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "biki-privacy-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static let evilPack = #"""
    { "format": 1, "id": "evil", "title": "E", "version": "1", "topics": [{ "id": "x", "title": "X", "description": "d",
      "category": "number", "skills": ["reading"], "variables": { "n": { "range": { "min": 1, "max": 99 } } },
      "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } } }] }
    """#

  @Test func nothingIsLoadedFromTheCurrentDirectoryWhateverTheEnvironmentSays() throws {
    let directory = try temporaryDirectory()
    for place in ["~/.local/share/biki/packs", ".local/share/biki/packs", "relative/biki/packs", "packs-here"] {
      try FileManager.default.createDirectory(atPath: directory + "/" + place, withIntermediateDirectories: true)
      try Self.evilPack.write(toFile: directory + "/" + place + "/evil.json", atomically: true, encoding: .utf8)
    }
    for environment in [
      ["PATH": "/usr/bin:/bin"],
      ["PATH": "/usr/bin:/bin", "HOME": "relative-home", "XDG_DATA_HOME": "relative"],
      ["PATH": "/usr/bin:/bin", "HOME": "~", "BIKI_PACK_PATH": "packs-here:./packs-here"],
    ] {
      let topics = try BikiProcess.run(["topics"], environment: environment, directory: directory)
      #expect(topics.status == 0, "\(topics.standardError)")
      #expect(topics.standardOutput.contains("numbers.beginner"))
      #expect(!topics.standardOutput.contains("evil.x"), "\(environment)")
    }
  }

  /// Runs `biki serve` through the shell (for umask and a working directory) on framed input.
  func serve(_ input: [UInt8], environment: [String: String], directory: String, umask: String = "022") throws
    -> ServeRun
  {
    let file = directory + "/input-\(UUID().uuidString)"
    try Data(input).write(to: URL(fileURLWithPath: file))
    let result = try BikiProcess.run(
      [], viaShell: "umask \(umask); exec \"$0\" serve < '\(file)'", environment: environment, directory: directory)
    return ServeRun(
      status: result.status, terminatedBySignal: false, messages: try ServeRun.parse(Array(result.standardOutput.utf8)),
      standardError: result.standardError)
  }

  static let quiz =
    ServeRun.initialize
    + ServeRun.request(1, "biki/startSession", #"{"topicId":"counters.hon","skill":"kana","seed":11}"#)
    + ServeRun.request(2, "biki/answer", #"{"sessionId":"s1","answer":"いっぽん"}"#)
    + ServeRun.request(3, "biki/skip", #"{"sessionId":"s1"}"#) + ServeRun.shutdownAndExit

  @Test func withoutHomeOrStateHomeAnswersAreNotRecordedAndTheLearnerIsTold() throws {
    let directory = try temporaryDirectory()
    let run = try serve(Self.quiz, environment: ["PATH": "/usr/bin:/bin"], directory: directory)
    #expect(run.status == 0)
    #expect(run.result(2) != nil)
    #expect(run.result(3) != nil)
    let logged = run.notifications("window/logMessage").compactMap { $0["message"] as? String }
    #expect(
      logged.contains {
        $0.contains("answers are not recorded: neither XDG_STATE_HOME nor HOME is set to an absolute path")
      })
    let shown = run.notifications("window/showMessage").compactMap { $0["message"] as? String }
    #expect(shown.count == 1, "\(shown)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { $0.hasPrefix("input-") })
  }

  @Test func aHistoryThatIsASymbolicLinkIsRefusedAndItsTargetUntouched() throws {
    let home = try temporaryDirectory()
    try FileManager.default.createDirectory(atPath: home + "/state/biki", withIntermediateDirectories: true)
    let target = home + "/precious.txt"
    try "no newline at the end".write(toFile: target, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: home + "/state/biki/history.jsonl", withDestinationPath: target)
    let run = try serve(
      Self.quiz, environment: ["PATH": "/usr/bin:/bin", "HOME": home, "XDG_STATE_HOME": home + "/state"],
      directory: home)
    #expect(run.status == 0)
    #expect(run.result(2) != nil)
    let shown = run.notifications("window/showMessage").compactMap { $0["message"] as? String }
    #expect(shown.first?.contains("symbolic link") == true, "\(shown)")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "no newline at the end")
  }

  @Test func theHistoryIsOwnerOnlyWhateverTheUmask() throws {
    let home = try temporaryDirectory()
    let run = try serve(
      Self.quiz, environment: ["PATH": "/usr/bin:/bin", "HOME": home, "XDG_STATE_HOME": home + "/state"],
      directory: home, umask: "000")
    #expect(run.status == 0)
    func mode(_ path: String) throws -> Int {
      (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1) & 0o777
    }
    #expect(try mode(home + "/state") == 0o700)
    #expect(try mode(home + "/state/biki") == 0o700)
    #expect(try mode(home + "/state/biki/history.jsonl") == 0o600)
    let lines = try String(contentsOfFile: home + "/state/biki/history.jsonl", encoding: .utf8).split(separator: "\n")
    #expect(lines.filter { !$0.contains(#""event""#) }.count == 2)
  }
}
