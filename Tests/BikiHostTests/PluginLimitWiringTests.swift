import BikiCore
import BikiPacks
import BikiPlugins
import BikiTestSupport
import Foundation
import Testing

@testable import BikiHost

/// Every tool runs plugins under one set of limits: what `biki-pack lint` passes, `biki quiz`,
/// `biki serve` and `biki-pack sample` do not time out.
@Suite struct PluginLimitWiringTests {
  static let now = MonotonicClock.live()

  @Test func aQuestionMayTakeOneSecondAndLoadingFive() {
    // docs/plugin-abi.md and docs/reliability.md state these two numbers.
    #expect(PluginLimits.standard == PluginLimits(question: 1, loading: 5))
    #expect(PluginLimits.seconds(PluginLimits.standard.question) == "1 s")
    #expect(PluginLimits.seconds(0.3) == "0.3 s")
  }

  @Test func quizServeLintAndSampleRunPluginsUnderTheStandardLimits() {
    // biki quiz and biki serve: HostSetup.loadCatalog.
    let host = HostSetup(fileSystem: .memory([:]), environment: [:], executable: "/x/biki")
    let catalog = host.pluginIsolation(for: ["/p/libx.so"], inProcess: false, workerExecutable: "/x/biki", now: { 0 })
    #expect(catalog.limits == .standard)
    // biki-pack lint: a PluginValidator, made with its defaults.
    #expect(
      PluginValidator(
        spawner: WorkerSpawner { _ in .failure(PluginError(path: "", kind: .workerFailed, reason: "")) }, now: { 0 }
      ).limits == .standard)
    // biki-pack sample: a worker isolation, as its context makes it.
    #expect(PluginIsolation.worker(executable: "/x/biki-pack", logPath: "/dev/null", now: { 0 }).limits == .standard)
    #expect(
      IsolatedPlugin(
        path: "/p/libx.so",
        spawner: WorkerSpawner { _ in .failure(PluginError(path: "", kind: .workerFailed, reason: "")) }, now: { 0 }
      ).limits == .standard)
    // In this process nothing is timed; with no plugins nothing is started.
    #expect(
      host.pluginIsolation(for: ["/p/libx.so"], inProcess: true, workerExecutable: "/x/biki", now: { 0 }).limits == nil)
    #expect(host.pluginIsolation(for: [], inProcess: false, workerExecutable: "/x/biki", now: { 0 }).limits == nil)
  }

  /// A plugin directory holding one fixture, and an empty home for the catalog's caches.
  func catalog(_ define: String) throws -> (registry: TopicRegistry, library: String) {
    let library = try PluginFixtures.misbehaving(define)
    let directory = NSTemporaryDirectory() + "biki-limits-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory + "/plugins", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: library, toPath: directory + "/plugins/libslow.so")
    let host = HostSetup(fileSystem: .live, environment: ["HOME": directory], executable: "/nowhere/biki")
    let (_, registry) = host.loadCatalog(
      pluginDirectories: [directory + "/plugins"], workerExecutable: PluginFixtures.worker, now: Self.now)
    return (registry, directory + "/plugins/libslow.so")
  }

  @Test func aQuizOrServersBatchOfThirtySlowQuestionsSucceeds() throws {
    let (registry, _) = try catalog("SLOW_MS=100")
    let topic = try #require(registry.topics.first { $0.topic.id == "misbehaving.ok" })
    let results = try topic.generator().questions(seeds: Array(0..<30))
    #expect(results.count == 30)
    #expect(results.allSatisfy { (try? $0.get()) != nil })
  }

  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func lintReportsTheOneQuestionThatCrashes() throws {
    let library = try PluginFixtures.misbehaving("CRASH_ON_SEED=7")
    let validator = PluginValidator(spawner: .live(executable: PluginFixtures.worker, now: Self.now), now: Self.now)
    let problems = validator.validate(library, otherTopics: [:]).filter { $0.rule != "plugin-slow-entry" }
    #expect(problems.map(\.rule) == ["plugin-crash"])
    #expect(
      problems.first?.message
        == "topic \"misbehaving.ok\": 1 of 30 questions failed, e.g. question 7: the plugin's worker crashed with signal 11 (SIGSEGV); ask it again with: biki-pack sample \(library) --topic misbehaving.ok --question 7"
    )
  }

  @Test func lintTimesEachQuestionAsAQuizDoes() throws {
    let library = try PluginFixtures.misbehaving("HANG_ON_SEED=3")
    let validator = PluginValidator(
      spawner: .live(executable: PluginFixtures.worker, now: Self.now), now: Self.now,
      limits: PluginLimits(question: 0.5, loading: 5))
    let problems = validator.validate(library, otherTopics: [:]).filter { $0.rule != "plugin-slow-entry" }
    #expect(problems.map(\.rule) == ["plugin-timeout"])
    #expect(
      problems.first?.message
        == "topic \"misbehaving.ok\": 1 of 30 questions failed, e.g. question 3: the plugin did not answer within 0.5 s; its worker was stopped; ask it again with: biki-pack sample \(library) --topic misbehaving.ok --question 3"
    )
  }

  /// The command lint prints to ask a failed question again is one a shell reads back word for
  /// word, with the parameters the question was made with.
  @Test func theCommandToAskAgainSurvivesTheShell() {
    #expect(
      PluginValidator.askAgain("/p/it's here/libx.so", topic: "x.t", seed: 12, parameters: ["min": -1, "max": 9])
        == #"; ask it again with: biki-pack sample '/p/it'\''s here/libx.so' --topic x.t --question 12 --param max=9 --param min=-1"#
    )
    #expect(PluginValidator.shellQuoted("/数/lib.so") == "'/数/lib.so'")
    #expect(PluginValidator.shellQuoted("") == "''")
    #expect(PluginValidator.shellQuoted("$(rm)") == "'$(rm)'")
  }
}
