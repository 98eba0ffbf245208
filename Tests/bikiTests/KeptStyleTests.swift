import BikiSpeech
import BikiTestSupport
import Foundation
import Testing

/// The rate and pitch a learner keeps in BIKI_SPEECH_RATE and BIKI_SPEECH_PITCH: read by
/// `biki say`, `biki quiz --speak` and `biki serve` alike, so that audio made ahead for a
/// session is the audio `biki say` then plays.
extension SpeechTests {
  static let keptStyles: [([String: String], KeptStyle?)] = [
    ([:], KeptStyle.none),
    (["BIKI_SPEECH_RATE": "", "BIKI_SPEECH_PITCH": ""], KeptStyle.none),
    (["BIKI_SPEECH_RATE": "0.5"], KeptStyle(rate: 0.5, pitch: nil)),
    (["BIKI_SPEECH_RATE": "2", "BIKI_SPEECH_PITCH": "-12"], KeptStyle(rate: 2, pitch: -12)),
    (["BIKI_SPEECH_PITCH": "3.5"], KeptStyle(rate: nil, pitch: 3.5)),
    (["BIKI_SPEECH_RATE": "2.01"], nil),
    (["BIKI_SPEECH_RATE": "slow"], nil),
    (["BIKI_SPEECH_RATE": "nan"], nil),
    (["BIKI_SPEECH_PITCH": "13"], nil),
    (["BIKI_SPEECH_PITCH": "inf"], nil),
  ]

  @Test(arguments: keptStyles)
  func theKeptStyleIsReadOrRefused(variables: [String: String], kept: KeptStyle?) {
    switch KeptStyle.read(variables) {
    case .success(let read): #expect(read == kept)
    case .failure(let problem):
      #expect(kept == nil, "\(problem.message)")
      #expect(problem.message.hasPrefix(variables.keys.first { $0.hasPrefix("BIKI_SPEECH") } ?? "?"))
    }
  }

  /// What is asked wins over what is kept, and what is kept over the voice's own.
  @Test func whatIsAskedWinsOverWhatIsKept() {
    let kept = KeptStyle(rate: 0.5, pitch: 2)
    #expect(kept.style(rate: nil, pitch: nil) == SpeechStyle(rate: 0.5, pitch: 2))
    #expect(kept.style(rate: 1, pitch: nil) == SpeechStyle(rate: 1, pitch: 2))
    #expect(kept.style(rate: nil, pitch: 0) == SpeechStyle(rate: 0.5, pitch: 0))
    #expect(KeptStyle.none.style(rate: nil, pitch: nil) == .normal)
  }

  static let keptRefusals: [([String], String, String, String)] = [
    (
      ["say", "はち"], "BIKI_SPEECH_RATE", "fast",
      "Error: BIKI_SPEECH_RATE must be a number from 0.5 to 2, not 'fast'.\n"
    ),
    (
      ["quiz", "counters.hon", "--speak"], "BIKI_SPEECH_PITCH", "20",
      "Error: BIKI_SPEECH_PITCH must be a number of semitones from -12 to 12, not '20'.\n"
    ),
  ]

  /// A kept value Biki cannot use is named, as a mistyped option is, before anything is asked.
  @Test(arguments: keptRefusals)
  func aKeptStyleOutOfRangeIsNamed(arguments: [String], variable: String, value: String, message: String) throws {
    var (environment, _, _) = try environment()
    environment[variable] = value
    let result = try BikiProcess.run(arguments, environment: environment)
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
  }

  /// A quiz that does not speak does not read them: a bad one costs nothing there.
  @Test func aQuizThatDoesNotSpeakIgnoresTheKeptStyle() throws {
    var (environment, _, _) = try environment()
    environment["BIKI_SPEECH_RATE"] = "fast"
    environment["BIKI_INPUT"] = "skip\n"
    let result = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --seed 4 --mode questions=1",
      environment: environment)
    #expect(result.status == 0, "\(result.standardError)")
  }

  /// BIKI_SPEECH_RATE=0.5 says exactly what `--rate 0.5` says, and `--rate 1` overrides it.
  @Test(.needs(openJTalkUsable, needsOpenJTalk))
  func theKeptRateIsTheRateSpoken() throws {
    var (environment, home, _) = try environment()
    func said(_ name: String, _ options: [String]) throws -> Data {
      let file = home + "/" + name + ".wav"
      let result = try BikiProcess.run(["say", "はっぽん", "八本", "--wav", file] + options, environment: environment)
      #expect(result.status == 0, "\(result.standardError)")
      return try Data(contentsOf: URL(fileURLWithPath: file))
    }
    let asked = try said("asked", ["--rate", "0.5"])
    let plain = try said("plain", [])
    environment["BIKI_SPEECH_RATE"] = "0.5"
    #expect(try said("kept", []) == asked)
    #expect(try said("overridden", ["--rate", "1"]) == plain)
    #expect(asked != plain)
  }

  /// A session that leaves the rate unset is made ahead at the kept rate, which is what the
  /// editor's `biki say` (with no `--rate`) then finds made.
  @Test(.needs(openJTalkUsable, needsOpenJTalk))
  func theServerMakesAheadAtTheKeptRate() throws {
    let home = NSTemporaryDirectory() + "biki-serve-kept-" + UUID().uuidString
    let cache = home + "/cache/biki/speech"
    let extra = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "XDG_CACHE_HOME": home + "/cache",
      "BIKI_SPEECH_RATE": "0.75",
    ]
    let server = try LiveServer(home: home, environment: extra)
    try server.initialize()
    try server.waitUntilLoaded()
    _ = server.request(
      1, "biki/startSession",
      #"{"topicId":"counters.hon","skill":"listening","seed":4,"mode":{"kind":"questionLimit","limit":1}}"#)
    let session = try #require(server.waitForResponse(1, within: 10))
    let question = try #require((session.message["result"] as? [String: Any])?["question"] as? [String: Any])
    let speech = try #require(question["speech"] as? String)
    let text = try #require(question["speechText"] as? String)
    func made() -> Int {
      ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).filter {
        $0.hasSuffix(".wav") && !$0.hasPrefix(".")
      }.count
    }
    let deadline = Date(timeIntervalSinceNow: 20)
    while made() < 1 && Date() < deadline { usleep(50_000) }
    usleep(300_000)
    let before = made()
    #expect(before >= 1)
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home
    environment["XDG_CACHE_HOME"] = home + "/cache"
    environment["BIKI_SPEECH_RATE"] = "0.75"
    let said = try BikiProcess.run(["say", speech, text, "--wav", home + "/heard.wav"], environment: environment)
    #expect(said.status == 0, "\(said.standardError)")
    #expect(made() == before)  // found made, not made again
    environment["BIKI_SPEECH_RATE"] = nil
    let plain = try BikiProcess.run(["say", speech, text, "--wav", home + "/plain.wav"], environment: environment)
    #expect(plain.status == 0, "\(plain.standardError)")
    #expect(made() == before + 1)  // the voice's own rate is other audio
    #expect(server.finish() == 0)
  }

  /// A kept rate the server cannot use is named in its log, and sessions are still served.
  @Test func theServerNamesAKeptRateItCannotUse() throws {
    let home = NSTemporaryDirectory() + "biki-serve-kept-bad-" + UUID().uuidString
    let server = try LiveServer(home: home, environment: ["BIKI_SPEECH_RATE": "fast"])
    try server.initialize()
    try server.waitUntilLoaded()
    _ = server.request(
      1, "biki/startSession",
      #"{"topicId":"counters.hon","skill":"listening","seed":4,"mode":{"kind":"questionLimit","limit":1}}"#)
    let session = try #require(server.waitForResponse(1, within: 10))
    #expect((session.message["result"] as? [String: Any])?["question"] != nil, "\(session.message)")
    #expect(
      server.standardErrorTail.contains(
        "biki serve: BIKI_SPEECH_RATE must be a number from 0.5 to 2, not 'fast'."),
      "\(server.standardErrorTail)")
    #expect(server.finish() == 0)
  }
}
