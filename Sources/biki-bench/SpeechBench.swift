import BikiSpeech
import Foundation

/// How soon a listening question is heard: from the prompt to the player started, with its
/// audio made ahead (as `biki quiz --speak` makes the next question's while the learner
/// answers, and `biki serve` a session's) and made only when asked (the first question), at
/// rate 1. The player is /bin/true, so what is timed is Biki's part; each figure is the 95th
/// percentile of 20 prompts of 10 to 12 morae.
struct SpeechBench {
  /// The biki beside the bench: `biki say` is what the editors run for each question.
  var biki: String

  /// Readings of 10 to 12 morae, of the kind a quiz speaks, each with the text it reads.
  static let utterances: [Utterance] = [
    ("ごひゃくさんじゅうにまい", "五百三十二枚"), ("よんひゃくろくじゅうえん", "四百六十円"), ("ななひゃくにじゅうにほん", "七百二十二本"),
    ("さんびゃくよんじゅうにん", "三百四十人"), ("にひゃくごじゅうろっこ", "二百五十六個"), ("きゅうひゃくじゅうさんだい", "九百十三台"),
    ("ろっぴゃくはちじゅうえん", "六百八十円"), ("はっぴゃくきゅうじゅうまい", "八百九十枚"), ("ひゃくななじゅうごにん", "百七十五人"),
    ("せんにひゃくさんじゅうえん", "千二百三十円"), ("ごひゃくよんじゅういちまい", "五百四十一枚"), ("よんひゃくさんじゅうななこ", "四百三十七個"),
    ("さんびゃくにじゅうはっぽん", "三百二十八本"), ("ななひゃくごじゅうごえん", "七百五十五円"), ("にひゃくろくじゅうきゅうにん", "二百六十九人"),
    ("きゅうひゃくよんじゅうまい", "九百四十枚"), ("ろっぴゃくさんじゅうよんほん", "六百三十四本"), ("はっぴゃくにじゅういちえん", "八百二十一円"),
    ("ひゃくはちじゅうさんだい", "百八十三台"), ("せんよんひゃくごじゅうえん", "千四百五十円"),
  ].map { Utterance(reading: $0.0, display: $0.1) }

  func run() -> [String] {
    var environment = ProcessInfo.processInfo.environment
    environment["BIKI_AUDIO_PLAYER"] = "/bin/true"
    let engine = SpeechEngine.choose(environment: environment, voice: nil, system: .live)
    guard case .openJTalk(let openJTalk, _) = engine else { return ["speech: not measured here: \(engine.summary)"] }
    func fail(_ message: String) -> Never {
      FileHandle.standardError.write(Data("Error: speech: \(message), so nothing is measured\n".utf8))
      exit(1)
    }
    let clock = ContinuousClock()
    func milliseconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
    func speaker() -> (Speaker, String) {
      // A fresh directory each time: nothing is made before it is asked for.
      let directory = NSTemporaryDirectory() + "biki-bench-speech-" + UUID().uuidString
      try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      return (Speaker(engine: engine, directory: directory, system: .live), directory)
    }
    var cold: [Double] = []
    var ahead: [Double] = []
    let (asking, askingDirectory) = speaker()
    for utterance in Self.utterances {
      let start = clock.now
      if let failure = asking.speak(utterance) { fail("\(utterance.reading): \(failure)") }
      cold.append(milliseconds(start.duration(to: clock.now)))
    }
    let (early, earlyDirectory) = speaker()
    for utterance in Self.utterances {
      early.prepare(utterance, for: "bench")
      // The learner answers the question before: the audio is made meanwhile.
      Thread.sleep(forTimeInterval: 0.5)
      let start = clock.now
      if let failure = early.speak(utterance) { fail("\(utterance.reading): \(failure)") }
      ahead.append(milliseconds(start.duration(to: clock.now)))
    }
    // The editors' way: `biki serve` made the audio ahead (into the cache `biki say` reads),
    // and the editor runs `biki say` when the question arrives.
    let cache = NSTemporaryDirectory() + "biki-bench-cache-" + UUID().uuidString
    let server = Speaker(engine: engine, directory: cache + "/biki/speech", system: .live)
    try? FileManager.default.createDirectory(atPath: cache + "/biki/speech", withIntermediateDirectories: true)
    var said: [Double] = []
    for utterance in Self.utterances {
      if case .failure(let failure) = server.audio(utterance) { fail("\(utterance.reading): \(failure)") }
      let variables = environment.merging(["XDG_CACHE_HOME": cache]) { $1 }.map { "\($0)=\($1)" }
      let start = clock.now
      // Spawned and waited for directly: Foundation's Process looks for the end only every 50 ms.
      guard let status = Self.run([biki, "say", utterance.reading, utterance.display], variables) else {
        fail("cannot run \(biki)")
      }
      said.append(milliseconds(start.duration(to: clock.now)))
      guard status == 0 else { fail("biki say \(utterance.reading) failed") }
    }
    for directory in [askingDirectory, earlyDirectory, cache] { try? FileManager.default.removeItem(atPath: directory) }
    let (made, madeAhead, sayAhead) = (Spread(cold), Spread(ahead), Spread(said))
    func figure(_ value: Double) -> String { String(format: "%.1f", value) }
    return [
      "speech.ahead: p95 \(figure(madeAhead.p95)) ms from the prompt to the player, the audio made ahead (median \(figure(madeAhead.median)))  (target ≤ 50 ms: \(madeAhead.p95 <= 50 ? "met" : "NOT met"))  [Open JTalk, voice \(openJTalk.voiceName); \(ahead.count) prompts of 10–12 morae]",
      "speech.say: p95 \(figure(sayAhead.p95)) ms for the editors' `biki say` to start the player, the audio made ahead by the server (median \(figure(sayAhead.median)))  (target ≤ 50 ms: \(sayAhead.p95 <= 50 ? "met" : "NOT met"))  [\(said.count) prompts]",
      "speech.asking: p95 \(figure(made.p95)) ms from the prompt to the player, the audio made on asking at rate 1 (median \(figure(made.median)))  (target ≤ 300 ms: \(made.p95 <= 300 ? "met" : "NOT met"))  [Open JTalk, voice \(openJTalk.voiceName); \(cold.count) prompts of 10–12 morae]",
    ]
  }

  /// Runs a program to its end, its output thrown away: its exit status, or nil.
  static func run(_ arguments: [String], _ environment: [String]) -> Int32? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
  }
}
