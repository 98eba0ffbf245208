import Foundation
import Testing

/// `biki quiz --speak` ended by a signal while Open JTalk is making a question's audio (an
/// editor's terminal closed, Ctrl-C, `kill`): nothing it started outlives it, down to the
/// programs Open JTalk itself started.
@Suite struct QuizSpeechEndTests {
  @Test(.timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
  func aQuizEndedWhileOpenJTalkWorksLeavesNothingRunning(signal: Int32) throws {
    let home = NSTemporaryDirectory() + "biki-quiz-speech-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: home) }
    var environment = BikiPackTests.isolated(home)
    environment["XDG_CACHE_HOME"] = home + "/cache"
    environment["XDG_STATE_HOME"] = home + "/state"
    environment["BIKI_AUDIO_PLAYER"] = "/bin/true"
    // An Open JTalk that never finishes, and starts a program of its own that names the home
    // too, so what is left running is found by it.
    try SpeechTests.standInOpenJTalk(
      running: #"bash -c 'exec -a "$0" sleep 60' "$0-child""#, in: home, for: &environment)
    let quiz = Process()
    quiz.executableURL = BikiProcess.executable
    quiz.arguments = ["quiz", "counters.hon", "--skill", "listening", "--speak", "--mode", "questions=3"]
    quiz.environment = environment
    let input = Pipe()
    quiz.standardInput = input
    quiz.standardOutput = FileHandle.nullDevice
    quiz.standardError = FileHandle.nullDevice
    try quiz.run()
    defer { try? input.fileHandleForWriting.close() }
    // Open JTalk and its own program are at work on the first question.
    let busy = Date(timeIntervalSinceNow: 20)
    while SpeechStormTests.running(in: home).count < 2 && Date() < busy { usleep(10_000) }
    try #require(SpeechStormTests.running(in: home).count == 2, "\(SpeechStormTests.running(in: home))")
    kill(quiz.processIdentifier, signal)
    let ended = Date(timeIntervalSinceNow: 10)
    while quiz.isRunning && Date() < ended { usleep(10_000) }
    #expect(!quiz.isRunning)
    // Stopped with the quiz, not left to run out their minute.
    let gone = Date(timeIntervalSinceNow: 2)
    while !SpeechStormTests.running(in: home).isEmpty && Date() < gone { usleep(10_000) }
    #expect(SpeechStormTests.running(in: home).isEmpty, "left running: \(SpeechStormTests.running(in: home))")
  }
}
