import Foundation
import Testing

/// Plugin time limits through the real executables: each question of a batch has its own
/// second, in every tool.
@Suite struct PluginLimitTests {
  static let fixture = "Tests/BikiPluginsTests/Fixtures/misbehaving.c"

  @Test func sampleMakesThirtyQuestionsOfATenthOfASecondEach() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(Self.fixture, name: "libslow.so", defines: ["SLOW_MS=100"])
    let home = NSTemporaryDirectory() + "biki-e2e-" + UUID().uuidString
    let result = try BikiProcess.run(
      ["sample", plugins + "/libslow.so", "-n", "30"], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.count == 31, "\(result.standardOutput)")  // the header, then thirty questions
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("misbehaving.ok\t") })
  }

  @Test func serveGeneratesTwentySlowQuestionsInOneRequestAndStaysAvailable() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(Self.fixture, name: "libslow.so", defines: ["SLOW_MS=100"])
    let run = try ServeRun.run(
      ServeRun.initialize
        + ServeRun.request(1, "biki/generate", #"{"topicId":"misbehaving.ok","seed":1,"count":20}"#)
        + ServeRun.request(2, "biki/generate", #"{"topicId":"misbehaving.ok","seed":2,"count":1}"#)
        + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins])
    #expect(run.status == 0)
    #expect((run.result(1)?["questions"] as? [Any])?.count == 20, "\(run.messages)")
    #expect((run.result(2)?["questions"] as? [Any])?.count == 1, "\(run.messages)")
  }

  @Test func lintAndSampleStopAHangingQuestionAfterTheSameSecond() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(
      Self.fixture, name: "libhang.so", defines: ["HANG_ON_SEED=3"])
    let library = plugins + "/libhang.so"
    let home = NSTemporaryDirectory() + "biki-e2e-" + UUID().uuidString
    let limit = "question 3: the plugin did not answer within 1 s; its worker was stopped"

    let lint = try BikiProcess.run(["lint", library], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(lint.status == 1)
    #expect(
      lint.standardOutput.contains(
        #"\#(library):1:1: error: topic "misbehaving.ok": 1 of 30 questions failed, e.g. \#(limit); ask it again with: biki-pack sample \#(library) --topic misbehaving.ok --question 3 [plugin-timeout]"#
      ),
      "\(lint.standardOutput)")

    // The question that hung is reported; the other twenty-nine are printed.
    let sample = try BikiProcess.run(
      ["sample", library, "-n", "30"], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(sample.status == 1)
    #expect(sample.standardOutput.split(separator: "\n").count == 30, "\(sample.standardOutput)")
    #expect(
      sample.standardError
        == "Error: misbehaving.ok: topic misbehaving.ok could not generate a question: \(library): \(limit)\n")
  }

  /// A crash by `raise(SIGSEGV)` ends the worker as a NULL write does, with the Swift runtime's
  /// backtrace handler (which returns) run first: lint, sample and the command lint prints to
  /// ask the question again all fail on the same question, and only on it.
  @Test(arguments: ["enable=yes"])
  func aRaisedSignalIsACrashEverywhereAndLintSaysHowToAskItAgain(backtrace: String) throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(
      Self.fixture, name: "libraise.so", defines: ["RAISE_ON_SEED=7"])
    let library = plugins + "/libraise.so"
    var environment = BikiPackTests.isolated(NSTemporaryDirectory() + "biki-e2e-" + UUID().uuidString)
    environment["SWIFT_BACKTRACE"] = backtrace
    let crash = "question 7: the plugin's worker crashed with signal 11 (SIGSEGV)"
    let again = "biki-pack sample \(library) --topic misbehaving.ok --question 7"

    let lint = try BikiProcess.run(["lint", library], program: "biki-pack", environment: environment)
    #expect(lint.status == 1)
    #expect(
      lint.standardOutput.hasPrefix(
        #"\#(library):1:1: error: topic "misbehaving.ok": 1 of 30 questions failed, e.g. \#(crash); ask it again with: \#(again) [plugin-crash]"#
          + "\n"), "\(lint.standardOutput)")

    let sample = try BikiProcess.run(
      ["sample", library, "-n", "30"], program: "biki-pack", environment: environment)
    #expect(sample.status == 1)
    #expect(sample.standardOutput.split(separator: "\n").count == 30, "\(sample.standardOutput)")
    let failure = "Error: misbehaving.ok: topic misbehaving.ok could not generate a question: \(library): \(crash)\n"
    #expect(sample.standardError == failure)

    let asked = try BikiProcess.run(
      Array(again.split(separator: " ").dropFirst().map(String.init)), program: "biki-pack", environment: environment)
    #expect(asked.status == 1)
    #expect(asked.standardOutput == "topic\tseed\tdisplay\tkanji\treading\tanswer\tcounted\n")
    #expect(asked.standardError == failure)
  }
}
