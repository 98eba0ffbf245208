import BikiSpeech
import BikiTestSupport
import Foundation
import Testing

/// Listening through the real binary: which engine speaks, said once; Open JTalk's audio made
/// ahead and played by the player found; what to install when nothing can speak.
@Suite struct SpeechTests {

  /// The user's environment with a player that plays nothing and always works: which engine
  /// would speak, asked on a machine with no sound device too.
  static let withAnyPlayer = ProcessInfo.processInfo.environment.merging(["BIKI_AUDIO_PLAYER": "/bin/true"]) { $1 }

  static let openJTalkUsable: Bool =
    ProcessInfo.processInfo.environment["BIKI_REQUIRE_CLIENTS"] == "1"
    || ((try? BikiProcess.run(["say", "--engine"], environment: withAnyPlayer))?
      .standardOutput.hasPrefix("Speaking with Open JTalk") ?? false)

  static let needsOpenJTalk =
    "needs Open JTalk, a voice and a player: sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic alsa-utils && python3 -m pip install pyopenjtalk-plus"

  /// The user's PATH (where python3 finds pyopenjtalk), a home of its own, and a player that
  /// writes down what it was given to play: questions' audio in `played`, the moment of silence
  /// that tries the sound in `tried`.
  func environment() throws -> (environment: [String: String], home: String, played: String) {
    let home = NSTemporaryDirectory() + "biki-speech-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let player = home + "/player"
    try ExecutableCopy.script(
      #"case "$*" in *silence.wav) echo "$@" >> '\#(home)/tried' ;; *) echo "$@" >> '\#(home)/played' ;; esac"#,
      at: player)
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home
    environment["XDG_CACHE_HOME"] = home + "/cache"
    environment["XDG_STATE_HOME"] = home + "/state"
    environment["BIKI_AUDIO_PLAYER"] = player
    return (environment, home, home + "/played")
  }

  /// BIKI_ESPEAK_NG rules out an espeak-ng in /usr/bin, so this runs wherever one is installed.
  @Test func withNothingToSpeakTheQuizSaysWhatToInstallOnce() throws {
    var (environment, _, _) = try environment()
    environment["BIKI_OPEN_JTALK"] = "/nonexistent/open_jtalk"
    environment["BIKI_ESPEAK_NG"] = "/nonexistent/espeak-ng"
    environment["BIKI_INPUT"] = "skip\nskip\n"
    let result = try BikiProcess.run(
      [],
      viaShell:
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --speak --skill listening --seed 4 --mode questions=2",
      environment: environment)
    #expect(result.status == 0)
    #expect(
      result.standardError
        == "Warning: Nothing can speak: BIKI_OPEN_JTALK names /nonexistent/open_jtalk, which is not a program, and BIKI_ESPEAK_NG names /nonexistent/espeak-ng, which is not a program. Install Open JTalk with: sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic alsa-utils && python3 -m pip install pyopenjtalk-plus (or espeak-ng: sudo apt-get install espeak-ng)\n"
    )
    // The questions are shown instead, as their reading.
    #expect(result.standardOutput.contains("[1/2] ろっぽん\n"), "\(result.standardOutput)")
  }

  /// An espeak-ng stand-in that, like the real one with no sound device, says so on standard
  /// error and ends with status 0; `tryWorks` lets the moment of silence (" ") through, as a
  /// device that goes away mid-quiz would.
  func soundless(_ environment: inout [String: String], home: String, tryWorks: Bool = false) throws {
    let espeak = home + "/espeak-ng"
    let pass = tryWorks ? "[ \"$3\" = ' ' ] && exit 0\n" : ""
    try ExecutableCopy.script("\(pass)echo 'error: No such file or directory' >&2", at: espeak)
    environment["BIKI_OPEN_JTALK"] = "/nonexistent/open_jtalk"
    environment["BIKI_ESPEAK_NG"] = espeak
  }

  /// With no sound device, `biki say --engine` (which the editors and :checkhealth ask) says
  /// there is no sound, why in the player's words, and what to do; it exits 69 as with no engine.
  @Test func withNoSoundTheEngineLineSaysSo() throws {
    var (environment, home, _) = try environment()
    try soundless(&environment, home: home)
    let engine = try BikiProcess.run(["say", "--engine"], environment: environment, directory: "/")
    #expect(engine.status == 69)
    #expect(
      engine.standardOutput
        == "espeak-ng would speak (instead of Open JTalk: BIKI_OPEN_JTALK names /nonexistent/open_jtalk, which is not a program), but espeak-ng cannot play sound here: it says \"error: No such file or directory\"; espeak-ng plays on this machine's sound device only (Open JTalk's audio can be played by BIKI_AUDIO_PLAYER or written to a file)\n"
    )
    let said = try BikiProcess.run(["say", "はっぽん", "八本"], environment: environment, directory: "/")
    #expect(said.status == 69)
    #expect(said.standardError.hasPrefix("Error: espeak-ng cannot play sound here: it says"), "\(said.standardError)")
  }

  /// Open JTalk with a player that finds no sound card, as aplay says it.
  @Test(.needs(openJTalkUsable, needsOpenJTalk))
  func withNoSoundCardOpenJTalksPlayerIsNamed() throws {
    var (environment, home, _) = try environment()
    let player = home + "/aplay"
    try ExecutableCopy.script(
      "echo 'aplay: main:831: audio open error: No such file or directory' >&2\nexit 1", at: player)
    environment["BIKI_AUDIO_PLAYER"] = player
    let engine = try BikiProcess.run(["say", "--engine"], environment: environment, directory: "/")
    #expect(engine.status == 69)
    #expect(
      engine.standardOutput
        == "Open JTalk would speak, but aplay cannot play sound here: it says \"aplay: main:831: audio open error: No such file or directory\"; set BIKI_AUDIO_PLAYER to a program that plays a WAV file where sound works, or write the audio to a file with: biki say <reading> --wav <file>\n"
    )
    // Writing the audio out still works.
    let written = try BikiProcess.run(["say", "はっぽん", "八本", "--wav", home + "/8.wav"], environment: environment)
    #expect(written.status == 0, "\(written.standardError)")
  }

  /// Two listening questions of counters.hon (6本, then 1本) with `--speak`, answered with `input`.
  func listeningQuiz(_ input: String, environment: [String: String], home: String) throws -> BikiProcess.Result {
    var environment = environment
    environment["BIKI_INPUT"] = input
    return try BikiProcess.run(
      [],
      viaShell:
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --speak --skill listening --seed 4 --mode questions=2",
      environment: environment, directory: home)
  }

  /// The quiz tries the sound before the first question: with none, it says so once and shows
  /// the questions, which can then be answered.
  @Test func withNoSoundTheQuizSaysSoOnceAndShowsTheQuestions() throws {
    var (environment, home, _) = try environment()
    try soundless(&environment, home: home)
    let result = try listeningQuiz("6本\nskip\n", environment: environment, home: home)
    #expect(result.status == 0)
    let warnings = result.standardError.split(separator: "\n")
    #expect(warnings.count == 1, "\(result.standardError)")
    #expect(warnings.first?.hasPrefix("Warning: no sound: espeak-ng cannot play sound here: it says") == true)
    #expect(warnings.first?.hasSuffix("The questions are shown instead.") == true)
    #expect(result.standardOutput.contains("[1/2] ろっぽん\n"), "\(result.standardOutput)")
    #expect(!result.standardOutput.contains("🔊"))
  }

  /// Sound that goes away mid-quiz (the device unplugged, the SSH session's forwarding gone):
  /// said once, and the questions are shown from then on.
  @Test func soundLostMidQuizIsToldOnceAndTheQuestionsAreShown() throws {
    var (environment, home, _) = try environment()
    try soundless(&environment, home: home, tryWorks: true)
    let result = try listeningQuiz("skip\nskip\n", environment: environment, home: home)
    #expect(result.status == 0)
    let warnings = result.standardError.split(separator: "\n")
    #expect(warnings.count == 1, "\(result.standardError)")
    #expect(warnings.first?.hasSuffix("The questions are shown from now on.") == true)
    #expect(result.standardOutput.contains("[1/2] 🔊 (listen; empty line to hear it again)\n   ろっぽん\n"))
    #expect(!result.standardOutput.contains("[2/2] 🔊"), "\(result.standardOutput)")
  }

  @Test(.needs(openJTalkUsable, needsOpenJTalk))
  func withOpenJTalkTheQuizSaysSoAndPlaysEachQuestionsAudio() throws {
    var (environment, home, played) = try environment()
    environment["BIKI_INPUT"] = "skip\nskip\n"
    let result = try BikiProcess.run(
      [],
      viaShell:
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --speak --skill listening --seed 4 --mode questions=2",
      environment: environment, directory: home)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("Speaking with Open JTalk, voice mei_normal ("), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("[1/2] 🔊 (listen; empty line to hear it again)\n"))
    // Heard, not shown: the reading comes only with the answer, after the skip.
    #expect(!result.standardOutput.contains("🔊 (listen; empty line to hear it again)\n   ろっぽん"))
    #expect(result.standardOutput.contains("→ The answer: 6本\n   六本  ろっぽん\n"), "\(result.standardOutput)")
    // The player may still be writing when the quiz ends.
    var files: [String] = []
    for _ in 0..<50 {
      files = ((try? String(contentsOfFile: played, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
      if files.count == 2 { break }
      usleep(100_000)
    }
    #expect(files.count == 2)
    // The sound was tried once, before the first question.
    #expect(((try? String(contentsOfFile: home + "/tried", encoding: .utf8)) ?? "").split(separator: "\n").count == 1)
    // Each is speech of a counted phrase's length and loudness (ろっぽん, …).
    for file in files {
      #expect(file.hasPrefix(home + "/cache/biki/speech/"), "\(file)")
      let wav = try #require(WAV(Array(try Data(contentsOf: URL(fileURLWithPath: file)))))
      #expect((0.3...3.0).contains(wav.seconds), "\(wav.seconds) s")
      #expect((-35.0 ... -8.0).contains(wav.loudness), "\(wav.loudness) dBFS")
    }
  }

  /// `--rate` is real: 八本 at rate 0.5 lasts about twice as long as at 1, at 2 about half; and
  /// `--pitch 6` raises the voice's fundamental frequency by about half an octave.
  @Test(.needs(openJTalkUsable, needsOpenJTalk))
  func rateAndPitchChangeWhatIsHeard() throws {
    let (environment, home, _) = try environment()
    func made(_ options: [String]) throws -> WAV {
      let file = home + "/\(options.joined()).wav"
      let result = try BikiProcess.run(["say", "はっぽん", "八本", "--wav", file] + options, environment: environment)
      #expect(result.status == 0, "\(result.standardError)")
      return try #require(WAV(Array(try Data(contentsOf: URL(fileURLWithPath: file)))))
    }
    let normal = try made([])
    let slow = try made(["--rate", "0.5"])
    let fast = try made(["--rate", "2"])
    #expect(abs(slow.seconds / normal.seconds - 2) <= 0.4, "\(slow.seconds) against \(normal.seconds)")
    #expect(abs(fast.seconds / normal.seconds - 0.5) <= 0.1, "\(fast.seconds) against \(normal.seconds)")
    let higher = try made(["--pitch", "6"])
    let (usual, raised) = (try #require(normal.fundamental), try #require(higher.fundamental))
    // Six semitones is a ratio of 2^(6/12) ≈ 1.41.
    #expect(raised / usual > 1.25 && raised / usual < 1.6, "\(usual) Hz, then \(raised) Hz")
  }

  /// A display Open JTalk cannot read as one line (a line break before 八本) falls back: the
  /// line break is left out, and the reading is said.
  @Test(.needs(openJTalkUsable, needsOpenJTalk))
  func aDisplayWithALineBreakIsStillSaid() throws {
    let (environment, home, _) = try environment()
    let result = try BikiProcess.run(
      ["say", "はっぽん", "\n八本", "--wav", home + "/heard.wav"], environment: environment)
    #expect(result.status == 0, "\(result.standardError)")
    let wav = try #require(WAV(Array(try Data(contentsOf: URL(fileURLWithPath: home + "/heard.wav")))))
    #expect(wav.seconds > 0.3)
  }

  /// While the learner answers, the next question's audio is made: a one-question quiz answered
  /// after three seconds leaves two files, the one played and the next one's.
  @Test(.needs(openJTalkUsable, needsOpenJTalk))
  func theNextQuestionsAudioIsMadeWhileTheLearnerAnswers() throws {
    let (environment, home, played) = try environment()
    let result = try BikiProcess.run(
      [],
      viaShell:
        "(sleep 3; printf 'skip\\n') | \"$0\" quiz counters.hon --speak --skill listening --seed 4 --mode questions=1",
      environment: environment, directory: home)
    #expect(result.status == 0, "\(result.standardError)")
    let made = ((try? FileManager.default.contentsOfDirectory(atPath: home + "/cache/biki/speech")) ?? []).filter {
      $0.hasSuffix(".wav") && !$0.hasPrefix(".") && $0 != "silence.wav"
    }
    #expect(made.count == 2, "\(made)")
    let playedFiles = ((try? String(contentsOfFile: played, encoding: .utf8)) ?? "").split(separator: "\n")
    #expect(playedFiles.count == 1)
  }

  /// For the kana skill the reading is the answer, and for the counter skill the count with its
  /// counter is: --speak says neither.
  @Test(.needs(openJTalkUsable, needsOpenJTalk), arguments: ["kana", "counter"])
  func theAnswerIsNeverSpoken(skill: String) throws {
    var (environment, home, played) = try environment()
    environment["BIKI_INPUT"] = "skip\n"
    let topic = skill == "counter" ? "counters.which-counter" : "counters.hon"
    let result = try BikiProcess.run(
      [],
      viaShell:
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz \(topic) --speak --skill \(skill) --seed 4 --mode questions=1",
      environment: environment, directory: home)
    #expect(result.status == 0, "\(result.standardError)")
    usleep(500_000)
    #expect(!FileManager.default.fileExists(atPath: played))
  }

  @Test(.needs(openJTalkUsable, needsOpenJTalk))
  func sayWritesTheAudioAndNamesTheEngine() throws {
    let (environment, home, _) = try environment()
    let engine = try BikiProcess.run(["say", "--engine"], environment: environment, directory: "/")
    #expect(engine.status == 0)
    #expect(engine.standardOutput.hasPrefix("Speaking with Open JTalk, voice mei_normal ("))
    let said = try BikiProcess.run(
      ["say", "はっぽん", "八本", "--wav", home + "/8.wav"], environment: environment, directory: "/")
    #expect(said.status == 0, "\(said.standardError)")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: home + "/8.wav"))
    #expect(bytes.count > 40_000)  // about a second of 48 kHz speech
  }

  static let refusals: [([String], String)] = [
    (
      ["say", "8本"],
      "Error: '8本' is not a reading in kana; give it as はっぽん, and what it reads (八本) after it.\n"
    ),
    (["say"], "Error: Missing expected argument '<reading>'.\n"),
    (["say", "--engine", "はち"], "Error: '--engine' takes no reading.\n"),
    (["say", "はち", "--rate", "3"], "Error: '--rate' takes a number from 0.5 to 2, not '3'.\n"),
    (["say", "はち", "--rate", "fast"], "Error: '--rate' takes a number from 0.5 to 2, not 'fast'.\n"),
    (["say", "はち", "--pitch", "-13"], "Error: '--pitch' takes a number of semitones from -12 to 12, not '-13'.\n"),
    (["quiz", "counters.hon", "--rate", "0.7"], "Error: '--rate' and '--pitch' go with '--speak'.\n"),
  ]

  @Test(arguments: refusals)
  func sayRefusesWhatIsNotAReading(arguments: [String], message: String) throws {
    let result = try BikiProcess.run(arguments, environment: try environment().environment)
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
  }

  /// `biki serve` makes a listening question's audio, and the next one's, off its message loop:
  /// a request sent right after the session starts is answered at once, the audio appears in
  /// the cache, and `biki say` with what the question carries finds it made.
  @Test(.needs(openJTalkUsable, needsOpenJTalk))
  func theServerMakesListeningAudioAheadWithoutHoldingARequest() throws {
    let home = NSTemporaryDirectory() + "biki-serve-speech-" + UUID().uuidString
    let cache = home + "/cache/biki/speech"
    let extra = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "XDG_CACHE_HOME": home + "/cache",
    ]
    let server = try LiveServer(home: home, environment: extra)
    try server.initialize()
    try server.waitUntilLoaded()
    let started = server.request(
      1, "biki/startSession",
      #"{"topicId":"counters.hon","skill":"listening","seed":4,"mode":{"kind":"questionLimit","limit":3}}"#)
    let asked = server.request(2, "biki/topics")
    let session = try #require(server.waitForResponse(1, within: 10))
    let topics = try #require(server.waitForResponse(2, within: 10))
    #expect(topics.at - asked < 1.0, "biki/topics waited \(topics.at - asked) s")
    #expect(session.at - started < 1.0, "biki/startSession took \(session.at - started) s")
    let question = try #require((session.message["result"] as? [String: Any])?["question"] as? [String: Any])
    let speech = try #require(question["speech"] as? String)
    let text = try #require(question["speechText"] as? String)
    func made() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).filter {
        $0.hasSuffix(".wav") && !$0.hasPrefix(".")
      }
    }
    let deadline = Date(timeIntervalSinceNow: 20)
    while made().count < 2 && Date() < deadline { usleep(50_000) }
    #expect(made().count == 2, "\(made())")
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home
    environment["XDG_CACHE_HOME"] = home + "/cache"
    let said = try BikiProcess.run(["say", speech, text, "--wav", home + "/heard.wav"], environment: environment)
    #expect(said.status == 0, "\(said.standardError)")
    #expect(made().count == 2)  // found made, not made again
    #expect(server.finish() == 0)
  }

  /// An Open JTalk that hangs (leaving a child that holds on), crashes, fails or says nothing
  /// costs that utterance alone, with words naming what went wrong; a hang is stopped, with the
  /// child it left, at its 10 s limit, timed by the real clock.
  static let brokenEngines: [(String, String, String)] = [
    ("hangs", "sleep 60 & wait", "did not finish within 10 s and was stopped"),
    ("crashes", "kill -SEGV $$", "ended by signal 11"),
    (
      "fails", "exit 1",
      "Open JTalk does not say はっぽん (h a cl p o N) from any form: 八本: failed (status 1); はっぽん: failed (status 1); ハッポン: failed (status 1)"
    ),
    ("says nothing", "exit 0", "Open JTalk does not say はっぽん (h a cl p o N) from any form: 八本: ; はっぽん: ; ハッポン: "),
  ]

  /// An Open JTalk that runs `script`, with a dictionary and a voice of its own, set in
  /// `environment` for Biki to find; its path.
  @discardableResult
  static func standInOpenJTalk(running script: String, in home: String, for environment: inout [String: String])
    throws -> String
  {
    let program = home + "/open_jtalk"
    try ExecutableCopy.script(script, at: program)
    try FileManager.default.createDirectory(atPath: home + "/dic", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: home + "/dic/sys.dic", contents: Data())
    _ = FileManager.default.createFile(atPath: home + "/v.htsvoice", contents: Data("voice".utf8))
    environment["BIKI_OPEN_JTALK"] = program
    environment["BIKI_OPEN_JTALK_DICTIONARY"] = home + "/dic"
    environment["BIKI_VOICE"] = home + "/v.htsvoice"
    return program
  }

  /// A failure on a 20,000-kana reading is one short line, not the reading and its sounds whole.
  @Test func aFailureOnALongReadingIsOneShortLine() throws {
    var (environment, home, _) = try environment()
    try Self.standInOpenJTalk(running: "exit 0", in: home, for: &environment)
    let result = try BikiProcess.run(
      ["say", String(repeating: "は", count: 20_000), "--wav", home + "/out.wav"], environment: environment)
    #expect(result.status == 69)
    #expect(result.standardError.utf8.count < 600, "\(result.standardError.utf8.count) bytes")
    #expect(result.standardError.split(separator: "\n").count == 1)
    #expect(result.standardError.hasPrefix("Error: Open JTalk does not say はははは"))
  }

  @Test(arguments: brokenEngines)
  func aBrokenOpenJTalkCostsTheUtteranceAndSaysWhy(name: String, script: String, message: String) throws {
    var (environment, home, _) = try environment()
    let program = try Self.standInOpenJTalk(running: script, in: home, for: &environment)
    let started = Date()
    let result = try BikiProcess.run(["say", "はっぽん", "八本", "--wav", home + "/out.wav"], environment: environment)
    let seconds = Date().timeIntervalSince(started)
    #expect(result.status == 69)
    let expected = message.hasPrefix("Open JTalk") ? message : "\(program) \(message)"
    #expect(result.standardError == "Error: \(expected)\n", "\(name)")
    #expect(!FileManager.default.fileExists(atPath: home + "/out.wav"))
    #expect(seconds < (name == "hangs" ? 15 : 5), "\(name): \(seconds) s")
  }
}
