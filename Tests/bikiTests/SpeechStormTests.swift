import BikiSpeech
import Foundation
import Testing

/// A storm of listening sessions leaves nothing behind: audio made ahead for sessions that
/// ended is dropped and its Open JTalk stopped, the speech cache stays under its limit, and no
/// Open JTalk outlives the server, however the client leaves.
@Suite(.serialized) struct SpeechStormTests {
  /// The voice `biki say --engine` finds (it may take python3 to find it), for a server whose
  /// PATH is only /usr/bin.
  static let voice: String? = {
    guard let said = try? BikiProcess.run(["say", "--engine"], environment: SpeechTests.withAnyPlayer),
      said.standardOutput.hasPrefix("Speaking with Open JTalk"),
      let open = said.standardOutput.lastIndex(of: "("), let close = said.standardOutput.lastIndex(of: ")")
    else { return nil }
    return String(said.standardOutput[said.standardOutput.index(after: open)..<close])
  }()

  static let usable = voice != nil || ProcessInfo.processInfo.environment["BIKI_REQUIRE_CLIENTS"] == "1"

  /// A server speaking with the real Open JTalk, or (`hanging`) with one that never finishes,
  /// as a slow machine's would seem: only killing it ends it.
  func server(hanging: Bool = false) throws -> LiveServer {
    let home = NSTemporaryDirectory() + "biki-storm-" + UUID().uuidString
    var environment = ["XDG_CACHE_HOME": home + "/cache", "BIKI_AUDIO_PLAYER": "/bin/true"]
    if hanging {
      try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
      try SpeechTests.standInOpenJTalk(running: "sleep 60", in: home, for: &environment)
    } else {
      let voice: String = try #require(Self.voice, "no Open JTalk voice")
      environment["BIKI_VOICE"] = voice
    }
    let server = try LiveServer(home: home, environment: environment)
    try server.initialize()
    try server.waitUntilLoaded()
    return server
  }

  /// The processes whose command line names `home`: Open JTalk writes its audio there.
  static func running(in home: String) -> [String] {
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return ids.filter { $0.allSatisfy(\.isNumber) }.compactMap { id in
      guard let line = FileManager.default.contents(atPath: "/proc/\(id)/cmdline"), !line.isEmpty else { return nil }
      let command = String(decoding: line.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
      return command.contains(home + "/") && !command.contains(" serve") ? command : nil
    }
  }

  static func starts(_ count: Int) -> [UInt8] {
    (1...count).flatMap {
      ServeRun.request(
        $0, "biki/startSession",
        #"{"topicId":"counters.hon","skill":"listening","seed":\#($0),"mode":{"kind":"infinite"}}"#)
    }
  }

  @Test(.needs(usable, SpeechTests.needsOpenJTalk), .timeLimit(.minutes(2)))
  func sessionsStartedAndEndedAtOnceLeaveNoSynthesisRunning() throws {
    try storm(try server())
  }

  @Test(.timeLimit(.minutes(2))) func sessionsEndingStopAnOpenJTalkThatHangs() throws {
    try storm(try server(hanging: true))
  }

  func storm(_ server: LiveServer) throws {
    server.send(Self.starts(1_000))
    server.send((1...1_000).flatMap { ServeRun.request(1_000 + $0, "biki/endSession", #"{"sessionId":"s\#($0)"}"#) })
    try #require(server.waitForResponse(2_000, within: 60) != nil, "the sessions did not all end")
    let ended = Date()
    var left = Self.running(in: server.home)
    while !left.isEmpty && Date().timeIntervalSince(ended) < 5 {
      usleep(20_000)
      left = Self.running(in: server.home)
    }
    #expect(left.isEmpty, "still running 5 s after the sessions ended: \(left)")
    // Nothing more is made once they have ended.
    let cache = SpeechCache(directory: server.home + "/cache/biki/speech")
    let made = cache.size
    usleep(500_000)
    #expect(cache.size == made)
    #expect(made <= SpeechCache.defaultLimit)
    #expect(server.finish() == 0)
    #expect(Self.running(in: server.home).isEmpty)
  }

  /// A client that leaves without ending its sessions or saying `exit`, or an editor that
  /// stops its server with SIGTERM: the server ends, and so does every Open JTalk it started.
  @Test(.timeLimit(.minutes(2)), arguments: ["leaves", "SIGTERM"])
  func aClientLeavingMidStormLeavesNothingRunning(how: String) throws {
    let server = try server(hanging: true)
    server.send(Self.starts(1_000))
    try #require(server.waitForResponse(1_000, within: 60) != nil, "the sessions did not all start")
    // Open JTalk is at work when the client leaves.
    let busy = Date(timeIntervalSinceNow: 10)
    while Self.running(in: server.home).isEmpty && Date() < busy { usleep(5_000) }
    #expect(!Self.running(in: server.home).isEmpty)
    if how == "SIGTERM" { server.process.terminate() } else { try server.closeInput() }
    let deadline = Date(timeIntervalSinceNow: 30)
    while server.process.isRunning && Date() < deadline { usleep(10_000) }
    #expect(!server.process.isRunning)
    if how == "SIGTERM" { #expect(server.process.terminationReason == .uncaughtSignal) }
    #expect(Self.running(in: server.home).isEmpty, "left running: \(Self.running(in: server.home))")
  }
}
