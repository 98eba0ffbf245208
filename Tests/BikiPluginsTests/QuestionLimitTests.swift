import BikiCore
import BikiSync
import BikiTestSupport
import Foundation
import Testing

@testable import BikiPlugins

/// A plugin in a worker is timed question by question: a batch may take as long as its
/// questions need, and a crash or a hang costs the question it met and no other.
@Suite(.serialized) struct QuestionLimitTests {
  static let now = MonotonicClock.live()

  func plugin(_ define: String, limits: PluginLimits = .standard) throws -> IsolatedPlugin {
    IsolatedPlugin(
      path: try PluginFixtures.misbehaving(define), spawner: .live(executable: PluginFixtures.worker, now: Self.now),
      limits: limits, now: Self.now)
  }

  /// The plugin's one topic, asked for seeds 0 to 29 in one batch, as a session or `biki/generate` would.
  func thirtyQuestions(_ plugin: IsolatedPlugin) throws -> [Result<Question, GenerationError>] {
    let topics = try PluginTopics(backend: .isolated(plugin))
    return try topics.generator(for: topics.topics[0]).questions(seeds: Array(0..<30))
  }

  func failures<T>(_ results: [Result<T, GenerationError>]) -> [Int: GenerationError] {
    var failed: [Int: GenerationError] = [:]
    for (index, result) in results.enumerated() {
      if case .failure(let error) = result { failed[index] = error }
    }
    return failed
  }

  @Test func thirtyQuestionsOfATenthOfASecondEachAreOneBatch() throws {
    // Three seconds in all, three times the limit of one question: the limit is each question's.
    let plugin = try plugin("SLOW_MS=100")
    let started = Self.now()
    let results = try thirtyQuestions(plugin)
    #expect(Self.now() - started >= 3)
    #expect(results.count == 30)
    #expect(failures(results).isEmpty, "\(failures(results))")
    #expect(try results.map { try $0.get().seed } == Array(0..<30))
    #expect(!plugin.isQuarantined)
  }

  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func aCrashCostsOnlyTheQuestionItMet() throws {
    let path = try PluginFixtures.misbehaving("CRASH_ON_SEED=7")
    let plugin = try plugin("CRASH_ON_SEED=7")
    let results = try thirtyQuestions(plugin)
    #expect(results.count == 30)
    // The seven made before the crash are kept; the twenty-two after it come from a fresh worker.
    let failed = failures(results)
    #expect(Array(failed.keys) == [7])
    let error = try #require(failed[7])
    #expect(error.topicID == "misbehaving.ok")
    #expect(
      error.description
        == "topic misbehaving.ok could not generate a question: \(path): question 7: the plugin's worker crashed with signal 11 (SIGSEGV)"
    )
    #expect(!plugin.isQuarantined)
  }

  @Test func aHangCostsOnlyItsQuestionAtTheLimit() throws {
    let path = try PluginFixtures.misbehaving("HANG_ON_SEED=3")
    let plugin = try plugin("HANG_ON_SEED=3", limits: PluginLimits(question: 0.5, loading: 5))
    let started = Self.now()
    let results = try thirtyQuestions(plugin)
    let elapsed = Self.now() - started
    #expect(elapsed >= 0.5 && elapsed < 4, "\(elapsed) s")
    let failed = failures(results)
    #expect(Array(failed.keys) == [3])
    #expect(
      failed[3]?.description
        == "topic misbehaving.ok could not generate a question: \(path): question 3: the plugin did not answer within 0.5 s; its worker was stopped"
    )
    #expect(!plugin.isQuarantined)
  }

  @Test func crashesApartAreNotInARow() throws {
    let plugin = try plugin("CRASH_EVERY_TENTH")
    let results = plugin.generate(topic: "ok", parameters: [:], seeds: Array(0..<30))
    let failed = results.enumerated().compactMap { index, result in (try? result.get()) == nil ? index : nil }
    #expect(failed == [9, 19, 29])
    #expect(!plugin.isQuarantined)
  }

  @Test func aPluginCrashingOnEveryQuestionIsStoppedAfterThreeWhateverTheBatch() throws {
    let plugin = try plugin("SEGFAULT")
    let results = plugin.generate(topic: "ok", parameters: [:], seeds: Array(0..<100))
    var kinds: [PluginError.Kind] = []
    for result in results {
      if case .failure(let error) = result { kinds.append(error.kind) }
    }
    #expect(kinds == Array(repeating: .crashed, count: 3) + Array(repeating: .quarantined, count: 97))
    guard case .failure(let notAsked) = results[3] else { return }
    #expect(
      notAsked.reason.hasPrefix(
        "question 3 was not asked: the plugin is quarantined after 3 failures in a row; last: question 2: "),
      "\(notAsked)")
    #expect(plugin.isQuarantined)
  }

  @Test func threeHangsInARowQuarantineThePlugin() throws {
    let plugin = try plugin("HANG", limits: PluginLimits(question: 0.2, loading: 5))
    let started = Self.now()
    let results = plugin.generate(topic: "ok", parameters: [:], seeds: Array(0..<30))
    // Three limits, not thirty (6 s): the twenty-seven after the third are not asked.
    let elapsed = Self.now() - started
    #expect(elapsed >= 0.6 && elapsed < 4, "\(elapsed) s")
    let kinds = results.compactMap { result -> PluginError.Kind? in
      guard case .failure(let error) = result else { return nil }
      return error.kind
    }
    #expect(kinds == Array(repeating: .timedOut, count: 3) + Array(repeating: .quarantined, count: 27))
  }

  @Test func loadingAndDescribingHaveTheirOwnLimit() throws {
    // The entry takes 0.5 s and describe 0.5 s: each more than a question may, and each within
    // loading's 0.9 s (with room for the worker to start), though not both together.
    let limits = PluginLimits(question: 0.2, loading: 0.9)
    let patient = try plugin("SLOW_LOAD_MS=500", limits: limits)
    #expect(try patient.describe().description.isEmpty == false)
    // A question asked of a fresh worker waits for the load, then has its own 0.2 s.
    let fresh = try plugin("SLOW_LOAD_MS=500", limits: limits)
    #expect(fresh.generate(topic: "ok", parameters: [:], seeds: [0, 1, 2]).allSatisfy { (try? $0.get()) != nil })
    let hurried = try plugin("SLOW_LOAD_MS=500", limits: PluginLimits(question: 5, loading: 0.2))
    do {
      _ = try hurried.describe()
      Issue.record("a plugin answered before it loaded")
    } catch {
      #expect(error.kind == .timedOut)
      #expect(error.reason == "loading: the plugin did not answer within 0.2 s; its worker was stopped")
    }
  }

  @Test func countingHasTheLimitOfAQuestion() throws {
    let plugin = try plugin("HANG_IN_COUNT", limits: PluginLimits(question: 0.2, loading: 5))
    let started = Self.now()
    do {
      _ = try plugin.questionCount(topic: "ok", parameters: [:])
      Issue.record("a plugin counted that never returns")
    } catch {
      #expect(error.kind == .timedOut)
      #expect(error.reason == "counting questions: the plugin did not answer within 0.2 s; its worker was stopped")
    }
    #expect(Self.now() - started < 2)
  }

  @Test func aPluginThatDoesNotLoadIsNotStartedAgain() throws {
    let live = WorkerSpawner.live(executable: PluginFixtures.worker, now: Self.now)
    let spawned = Locked(0)
    let spawner = WorkerSpawner { path in
      spawned.withLock { $0 += 1 }
      return live.spawn(path)
    }
    let plugin = IsolatedPlugin(path: try PluginFixtures.misbehaving("NO_ENTRY"), spawner: spawner, now: Self.now)
    for _ in 0..<2 {
      #expect(throws: PluginError.self) { try plugin.describe() }
    }
    let results = plugin.generate(topic: "ok", parameters: [:], seeds: [0, 1])
    for result in results {
      guard case .failure(let error) = result else {
        Issue.record("a plugin without an entry answered")
        continue
      }
      #expect(error.reason.contains("does not export biki_plugin_entry"), "\(error)")
    }
    #expect(spawned.withLock { $0 } == 1)
    #expect(!plugin.isQuarantined)
  }

  @Test func aWorkerThatCannotStartFailsTheQuestionsNotYetAskedOnce() {
    let spawner = WorkerSpawner { path in
      .failure(PluginError(path: path, kind: .workerFailed, reason: "cannot start the worker /x: no such file"))
    }
    let plugin = IsolatedPlugin(path: "/p/libx.so", spawner: spawner, now: { 0 })
    let results = plugin.generate(topic: "ok", parameters: [:], seeds: [4, 5, 6])
    let reasons = results.map { result -> String? in
      guard case .failure(let error) = result else { return nil }
      return error.reason
    }
    #expect(reasons == [4, 5, 6].map { "question \($0) was not asked: cannot start the worker /x: no such file" })
    // One failure, not three: nothing was asked. Three batches that could not start are three in a row.
    #expect(!plugin.isQuarantined)
    _ = plugin.generate(topic: "ok", parameters: [:], seeds: [7])
    _ = plugin.generate(topic: "ok", parameters: [:], seeds: [8])
    #expect(plugin.isQuarantined)
    guard case .failure(let error)? = plugin.generate(topic: "ok", parameters: [:], seeds: [9]).first else { return }
    #expect(error.kind == .quarantined)
  }
}
