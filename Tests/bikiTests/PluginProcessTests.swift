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
    let script = "printf 'skip\\n' | \"$0\" quiz misbehaving.ok --skill kana --seed 1 --mode questions=1 --plugins '\(plugins)'"
    let quiz = try BikiProcess.run([], viaShell: script, environment: environment(marks: marks))
    #expect(quiz.status == 0, "\(quiz.standardError)")
    let mark = try #require(ProcessGroups.forkMark(marks, seconds: 0))
    #expect(ProcessGroups.waitForEnd(of: mark.group) == [], "the plugin's child \(mark.child) outlived the quiz")
  }

  @Test func whatAPluginForksEndsWithLint() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(Self.fixture, name: "libforks.so", defines: ["FORKS"])
    let marks = NSTemporaryDirectory() + "biki-fork-" + UUID().uuidString
    let lint = try BikiProcess.run(["lint", plugins + "/libforks.so"], program: "biki-pack", environment: environment(marks: marks))
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
    quiz.arguments = ["quiz", "misbehaving.ok", "--skill", "kana", "--seed", "1", "--mode", "questions=5", "--plugins", plugins]
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
}
