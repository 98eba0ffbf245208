import BikiTestSupport
import Foundation
import Testing

/// What a plugin's worker leaves behind, through the real executables: a process the plugin
/// forks ends with the command that asked for it, however that command ends.
@Suite struct PluginProcessTests {
  static let fixture = "Tests/BikiPluginsTests/Fixtures/misbehaving.c"

  func environment(marks: String) -> [String: String] {
    var environment = BikiPackTests.isolated(NSTemporaryDirectory() + "biki-e2e-" + UUID().uuidString)
    environment["BIKI_TEST_FORK_FILE"] = marks
    return environment
  }

  @Test func whatAPluginForksEndsWithTheQuiz() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(Self.fixture, name: "libforks.so", defines: ["FORKS"])
    let marks = NSTemporaryDirectory() + "biki-fork-" + UUID().uuidString
    let script =
      "printf 'skip\\n' | \"$0\" quiz misbehaving.ok --skill kana --seed 1 --mode questions=1 --plugins '\(plugins)'"
    let quiz = try BikiProcess.run([], viaShell: script, environment: environment(marks: marks))
    #expect(quiz.status == 0, "\(quiz.standardError)")
    let mark = try #require(ProcessGroups.forkMark(marks, seconds: 0))
    #expect(ProcessGroups.waitForEnd(of: mark.group) == [], "the plugin's child \(mark.child) outlived the quiz")
  }

  @Test func whatAPluginForksEndsWithLint() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(Self.fixture, name: "libforks.so", defines: ["FORKS"])
    let marks = NSTemporaryDirectory() + "biki-fork-" + UUID().uuidString
    let lint = try BikiProcess.run(
      ["lint", plugins + "/libforks.so"], program: "biki-pack", environment: environment(marks: marks))
    #expect(lint.status == 0, "\(lint.standardOutput)")
    let mark = try #require(ProcessGroups.forkMark(marks, seconds: 0))
    #expect(ProcessGroups.waitForEnd(of: mark.group) == [], "the plugin's child \(mark.child) outlived lint")
  }

  /// A quiz killed with SIGKILL runs no code of its own on the way out: its workers notice their
  /// input hang up and take their process groups down with them.
  @Test func whatAPluginForksEndsWithAQuizKilledWithSIGKILL() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(Self.fixture, name: "libforks.so", defines: ["FORKS"])
    let marks = NSTemporaryDirectory() + "biki-fork-" + UUID().uuidString
    let quiz = Process()
    quiz.executableURL = BikiProcess.executable
    quiz.arguments = [
      "quiz", "misbehaving.ok", "--skill", "kana", "--seed", "1", "--mode", "questions=5", "--plugins", plugins,
    ]
    quiz.environment = environment(marks: marks)
    let input = Pipe()
    quiz.standardInput = input  // kept open: the quiz waits for an answer
    quiz.standardOutput = FileHandle.nullDevice
    quiz.standardError = FileHandle.nullDevice
    try quiz.run()
    defer { try? input.fileHandleForWriting.close() }
    let mark = try #require(ProcessGroups.forkMark(marks))
    #expect(ProcessGroups.living(mark.group).contains(mark.child))
    kill(quiz.processIdentifier, SIGKILL)
    quiz.waitUntilExit()
    #expect(quiz.terminationReason == .uncaughtSignal)
    #expect(ProcessGroups.waitForEnd(of: mark.group) == [], "the plugin's child \(mark.child) outlived the killed quiz")
  }

  /// `biki serve` ended by `shutdown` and `exit` takes what its plugin forked with it.
  @Test func whatAPluginForksEndsWithTheServer() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(Self.fixture, name: "libforks.so", defines: ["FORKS"])
    let marks = NSTemporaryDirectory() + "biki-fork-" + UUID().uuidString
    let environment = environment(marks: marks)
    let run = try ServeRun.run(
      ServeRun.initialize + ServeRun.request(1, "biki/generate", #"{"topicId":"misbehaving.ok","seed":1,"count":1}"#)
        + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins], home: environment["HOME"], extraEnvironment: ["BIKI_TEST_FORK_FILE": marks])
    #expect(run.status == 0)
    let mark = try #require(ProcessGroups.forkMark(marks, seconds: 0))
    #expect(ProcessGroups.waitForEnd(of: mark.group) == [], "the plugin's child \(mark.child) outlived the server")
  }
}

/// A plugin's memory and its late writes, through `biki quiz` and `biki serve` (lint's checks
/// are in `PluginLintTests`).
@Suite struct PluginRuntimeTests {
  /// 1.5 GiB of shared anonymous memory, every page touched: refused by the worker's cap on
  /// address space, and named as memory, in the quiz and in the server.
  @Test func aSharedMappingPastTheCapIsRefusedInQuizAndServe() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(
      PluginProcessTests.fixture, name: "libhog.so", defines: ["SHARED_HOG"])
    let home = NSTemporaryDirectory() + "biki-hog-" + UUID().uuidString
    let quiz = try BikiProcess.run(
      [],
      viaShell:
        "printf 'skip\\n' | \"$0\" quiz misbehaving.ok --skill kana --seed 1 --mode questions=1 --plugins '\(plugins)'",
      environment: BikiPackTests.isolated(home))
    #expect(quiz.status == 69)
    #expect(!quiz.standardOutput.contains("[1/1]"))
    #expect(
      quiz.standardError.contains("right after an allocation was refused (ENOMEM): a plugin may use at most 1 GiB"),
      "\(quiz.standardError)")
    let run = try ServeRun.run(
      ServeRun.initialize + ServeRun.request(1, "biki/generate", #"{"topicId":"misbehaving.ok","seed":1,"count":1}"#)
        + ServeRun.request(2, "biki/read", #"{"text":"8本"}"#) + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins], home: home)
    #expect(run.status == 0)
    let message = (run.response(1)?["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(message.contains("ENOMEM"), "\(message)")
    #expect(run.result(2)?["reading"] as? String == "はっぽん")
  }

  /// A writer kept by a thread writes 20 ms after its call returned (through the output writer,
  /// or through Biki's readings extension): the write is refused, and what the learner and the
  /// client see are the questions as their calls wrote them.
  @Test(arguments: ["LATE_THREAD_WRITE", "LATE_READINGS_WRITE"])
  func aLateWriteNeverReachesAQuestionInQuizOrServe(_ define: String) throws {
    let plugins = NSTemporaryDirectory() + "biki-late-plugins-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: try PluginFixtures.misbehaving(define), toPath: plugins + "/liblate.so")
    let home = NSTemporaryDirectory() + "biki-late-" + UUID().uuidString
    // The answers come slowly enough that the late write lands while the quiz goes on.
    let quiz = try BikiProcess.run(
      [],
      viaShell:
        "(for answer in 1 skip skip skip; do sleep 0.1; echo $answer; done) | \"$0\" quiz misbehaving.ok --skill kana --seed 1 --mode questions=3 --plugins '\(plugins)'",
      environment: BikiPackTests.isolated(home))
    #expect(quiz.status == 0, "\(quiz.standardError)")
    #expect(quiz.standardOutput.contains("[3/3]"))
    #expect(!quiz.standardOutput.contains("injected") && !quiz.standardOutput.contains("八本"), "\(quiz.standardOutput)")
    var input = ServeRun.initialize
    for id in 1...3 {
      input += ServeRun.request(id, "biki/generate", #"{"topicId":"misbehaving.ok","seed":\#(id),"count":1}"#)
    }
    let run = try ServeRun.run(input + ServeRun.shutdownAndExit, arguments: ["--plugins", plugins], home: home)
    #expect(run.status == 0)
    for id in 1...3 {
      let question = (run.result(id)?["questions"] as? [[String: Any]])?.first
      #expect(
        question?["error"] == nil && !"\(question ?? [:])".contains("injected") && !"\(question ?? [:])".contains("八本"),
        "\(String(describing: run.response(id)))")
    }
  }
}
