import BikiCore
import BikiSync
import BikiTestSupport
import Foundation
import Testing

@testable import BikiPlugins

/// Plugins that crash, abort or hang, run in worker processes: each call fails with its own
/// error, and this process — the host — keeps going.
@Suite(.serialized) struct IsolatedPluginTests {
  /// `biki`, built next to this test bundle, is the worker executable.
  static let worker = PluginFixtures.worker
  static let now = MonotonicClock.live()

  func isolated(_ path: String, limits: PluginLimits = .standard) -> IsolatedPlugin {
    IsolatedPlugin(path: path, spawner: .live(executable: Self.worker, now: Self.now), limits: limits, now: Self.now)
  }

  /// The one failure of a call for one seed.
  func failure(_ results: [Result<[UInt8], PluginError>]) -> PluginError? {
    guard results.count == 1, case .failure(let error) = results[0] else { return nil }
    return error
  }

  @Test func theCalendarAnswersFromAWorkerInBatches() throws {
    let plugin = isolated(try PluginFixtures.calendar())
    let description = String(decoding: try plugin.describe().description, as: UTF8.self)
    #expect(description.contains("\"weekdays\""))
    let results = plugin.generate(topic: "weekdays", parameters: [:], seeds: Array(0..<7))
    let texts = try results.map { String(decoding: try $0.get(), as: UTF8.self) }
    #expect(texts.count == 7)
    #expect(texts[0].contains("げつようび"))
    #expect(texts[6].contains("にちようび"))
  }

  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func aSegfaultFailsTheCallAndIsNamed() throws {
    let plugin = isolated(try PluginFixtures.misbehaving("SEGFAULT"))
    #expect(try plugin.describe().description.isEmpty == false)  // describing works; generating crashes
    let error = try #require(failure(plugin.generate(topic: "ok", parameters: [:], seeds: [1])))
    #expect(error.kind == .crashed)
    #expect(error.reason.hasPrefix("question 1: "), "\(error)")
    #expect(error.reason.contains("SIGSEGV"), "\(error)")
  }

  /// The cap is on address space (RLIMIT_AS): a shared anonymous mapping of 1.5 GiB is refused,
  /// where a cap on the data segment let it through. The crash that follows is named with the
  /// memory it wanted, and the host goes on.
  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func aSharedMappingPastTheCapIsRefusedAndNamedAsMemory() throws {
    let plugin = isolated(try PluginFixtures.misbehaving("SHARED_HOG"))
    let error = try #require(failure(plugin.generate(topic: "ok", parameters: [:], seeds: [1])))
    #expect(error.kind == .crashed)
    #expect(
      error.reason.hasPrefix(
        "question 1: the plugin's worker crashed with signal 11 (SIGSEGV) right after an allocation was refused (ENOMEM)"
      ), "\(error)")
    #expect(error.reason.contains("at most 1 GiB of memory"), "\(error)")
    let healthy = isolated(try PluginFixtures.misbehaving(nil))
    #expect(try healthy.generate(topic: "ok", parameters: [:], seeds: [1]).first?.get().isEmpty == false)
  }

  /// Only a crash that follows a refused allocation speaks of memory: a write through NULL is a
  /// segfault and nothing more.
  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func aNullWriteIsNamedBySignalWithoutBlamingMemory() throws {
    let plugin = isolated(try PluginFixtures.misbehaving("SEGFAULT"))
    let error = try #require(failure(plugin.generate(topic: "ok", parameters: [:], seeds: [1])))
    #expect(error.reason == "question 1: the plugin's worker crashed with signal 11 (SIGSEGV)")
  }

  /// The cap leaves a plugin its gigabyte whatever the worker itself takes: 1,000 MiB can be
  /// had, 1,100 MiB cannot (the allocation fails and the plugin says so).
  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: "sanitized workers run without the cap")))
  func aPluginMayUseAGigabyteAndNoMore() throws {
    let enough = isolated(try PluginFixtures.misbehaving("ALLOCATE_MB=1000"))
    #expect(throws: Never.self) { try enough.generate(topic: "ok", parameters: [:], seeds: [1]).first?.get() }
    let tooMuch = isolated(try PluginFixtures.misbehaving("ALLOCATE_MB=1100"))
    let error = try #require(failure(tooMuch.generate(topic: "ok", parameters: [:], seeds: [1])))
    #expect(error.reason == "could not allocate 1100 MiB")
  }

  /// A crashing worker says so before its crash report is written (the Swift runtime's
  /// backtrace takes about 0.4 s here, longer on a busy machine): the question is named a crash,
  /// by its signal, even when the report outlasts the question's limit, never a time-out.
  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func aCrashIsNamedACrashWhenItsReportOutlastsTheQuestionsLimit() throws {
    let plugin = isolated(try PluginFixtures.misbehaving("SEGFAULT"), limits: PluginLimits(question: 0.05, loading: 5))
    let error = try #require(failure(plugin.generate(topic: "ok", parameters: [:], seeds: [1])))
    #expect(error.kind == .crashed)
    #expect(error.reason == "question 1: the plugin's worker crashed with signal 11 (SIGSEGV)")
  }

  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func anAbortFailsTheCallAndIsNamed() throws {
    let plugin = isolated(try PluginFixtures.misbehaving("ABORT"))
    let error = try #require(failure(plugin.generate(topic: "ok", parameters: [:], seeds: [1])))
    #expect(error.kind == .crashed)
    #expect(error.reason.contains("SIGABRT"), "\(error)")
  }

  @Test func aHangTimesOutAndTheWorkerIsStopped() throws {
    let plugin = isolated(try PluginFixtures.misbehaving("HANG"), limits: PluginLimits(question: 0.3, loading: 5))
    let started = Self.now()
    let error = try #require(failure(plugin.generate(topic: "ok", parameters: [:], seeds: [1])))
    #expect(error.kind == .timedOut)
    #expect(error.reason == "question 1: the plugin did not answer within 0.3 s; its worker was stopped")
    #expect(Self.now() - started < 5)
  }

  @Test func repeatedCrashesQuarantineThePlugin() throws {
    let plugin = isolated(try PluginFixtures.misbehaving("SEGFAULT"))
    var kinds: [PluginError.Kind] = []
    for _ in 0..<6 {
      if let error = failure(plugin.generate(topic: "ok", parameters: [:], seeds: [1])) { kinds.append(error.kind) }
    }
    #expect(kinds.filter { $0 == .crashed }.count == IsolatedPlugin.quarantineAfter)
    #expect(kinds.last == .quarantined)
    #expect(plugin.isQuarantined)
  }

  @Test func aPluginThatFailsToLoadIsReportedThroughTheWorker() throws {
    let plugin = isolated(try PluginFixtures.misbehaving("NO_ENTRY"))
    do {
      _ = try plugin.describe()
      Issue.record("loaded a plugin without an entry")
    } catch {
      #expect(error.reason.contains("does not export biki_plugin_entry"), "\(error)")
    }
  }

  /// A worker leads a process group of its own; stopping it ends the group, so a process its
  /// plugin forked (here, one that sleeps a minute holding the worker's descriptors) ends too.
  @Test func stoppingAWorkerEndsTheProcessesItsPluginForked() throws {
    let marks = NSTemporaryDirectory() + "biki-fork-\(UUID().uuidString)"
    setenv("BIKI_TEST_FORK_FILE", marks, 1)
    var plugin: IsolatedPlugin? = isolated(try PluginFixtures.misbehaving("FORKS"))
    #expect(try plugin?.generate(topic: "ok", parameters: [:], seeds: [1]).first?.get().isEmpty == false)
    let mark = try #require(ProcessGroups.forkMark(marks))
    #expect(ProcessGroups.living(mark.group).contains(mark.child))
    #expect(mark.group != getpgrp())
    plugin = nil  // stops its worker
    #expect(ProcessGroups.waitForEnd(of: mark.group) == [])
  }

  /// Each call's record stays in its worker for good, so a worker is replaced after so many
  /// calls, between requests, without counting as a failure.
  @Test func aWorkerIsReplacedAfterItsShareOfCalls() throws {
    let spawns = Locked(0)
    let live = WorkerSpawner.live(executable: Self.worker, now: Self.now)
    let counting = WorkerSpawner { path in
      spawns.withLock { $0 += 1 }
      return live.spawn(path)
    }
    let plugin = IsolatedPlugin(
      path: try PluginFixtures.misbehaving(nil), spawner: counting, callsPerWorker: 5, now: Self.now)
    for _ in 0..<3 {
      #expect(try plugin.generate(topic: "ok", parameters: [:], seeds: Array(0..<5)).map { try $0.get() }.count == 5)
    }
    #expect(spawns.withLock { $0 } == 3)
    #expect(!plugin.isQuarantined)
  }

  /// Through a worker, as lint asks: a thread's write 20 ms after its call returned is named
  /// against that call, though no call came after it; asked again, it is not named twice.
  @Test(arguments: ["LATE_THREAD_WRITE", "LATE_READINGS_WRITE"])
  func aLateWriteFromAThreadIsReportedByTheWorker(_ define: String) throws {
    let plugin = isolated(try PluginFixtures.misbehaving(define))
    #expect(throws: Never.self) { try plugin.generate(topic: "ok", parameters: [:], seeds: [4]).first?.get() }
    let late = try #require(plugin.lateWrites(grace: 0.2))
    #expect(late.kind == .writerAfterReturn)
    #expect(
      late.reason
        == #"it wrote through the output writer of generate for topic "ok", seed 4 after that call had returned (1 write, refused)"#
    )
    #expect(plugin.lateWrites(grace: 0) == nil)
  }

  /// In a quiz nobody asks for late writes; the worker's log counts them at its next request.
  @Test func lateWritesAreCountedInTheWorkerLog() throws {
    let log = NSTemporaryDirectory() + "biki-worker-log-\(UUID().uuidString)"
    let path = try PluginFixtures.misbehaving("LATE_WRITE")
    let plugin = IsolatedPlugin(
      path: path, spawner: .live(executable: Self.worker, logPath: log, now: Self.now), now: Self.now)
    // The second question writes through the first one's writer; the third request reads the count.
    for seed in UInt64(0)..<3 {
      #expect(throws: Never.self) { try plugin.generate(topic: "ok", parameters: [:], seeds: [seed]).first?.get() }
    }
    let written = try String(contentsOfFile: log, encoding: .utf8)
    #expect(
      written.contains("biki worker: \(path): 1 write through writers after their calls had returned, refused\n"),
      "\(written)")
  }

  @Test func theHostKeepsServingWhileAPluginCrashes() throws {
    let crashing = isolated(try PluginFixtures.misbehaving("SEGFAULT"))
    let healthy = isolated(try PluginFixtures.calendar())
    _ = crashing.generate(topic: "ok", parameters: [:], seeds: [1])
    #expect(healthy.generate(topic: "eras", parameters: [:], seeds: [0]).count == 1)
  }
}

@Suite struct PluginBackendTests {
  @Test func isolatedAndInProcessTopicsAgree() throws {
    let path = try PluginFixtures.calendar()
    let isolated = try PluginTopics(
      backend: .isolated(
        IsolatedPlugin(
          path: path, spawner: .live(executable: IsolatedPluginTests.worker, now: IsolatedPluginTests.now),
          now: IsolatedPluginTests.now)))
    let inProcess = try PluginTopics(backend: .inProcess(path))
    #expect(isolated.identity == inProcess.identity)
    #expect(isolated.topics == inProcess.topics)
    let a = try isolated.generator(for: isolated.topics[1])
    let b = try inProcess.generator(for: inProcess.topics[1])
    let seeds = Array(UInt64(0)..<200)
    let batched = a.questions(seeds: seeds).map { try? $0.get() }
    #expect(batched == seeds.map { try? b.question(seed: $0) })
    #expect(batched.allSatisfy { $0 != nil })
  }
}
