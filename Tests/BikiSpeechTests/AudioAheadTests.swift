import BikiSync
import Foundation
import Testing

@testable import BikiSpeech

/// Audio made ahead stays in bounds, and work no longer wanted is stopped.
@Suite struct AudioAheadTests {
  /// A job that holds the worker until it is cancelled (or released), as a slow Open JTalk
  /// would; it says when it started and how it ended.
  final class Gate: Sendable {
    let started = Locked<[String]>([])
    let stopped = Locked<[String]>([])
    let released = Locked(false)

    func job(_ key: String) -> AudioAhead.Work {
      { cancellation in
        self.started.withLock { $0.append(key) }
        while !cancellation.isCancelled && !self.released.withLock({ $0 }) { usleep(1_000) }
        if cancellation.isCancelled { self.stopped.withLock { $0.append(key) } }
        return .success(key)
      }
    }

    func waitUntil(_ condition: () -> Bool) {
      let deadline = Date().addingTimeInterval(10)
      while !condition() && Date() < deadline { usleep(1_000) }
    }
  }

  @Test func eachOwnerKeepsItsNewestTwoAndAllKeepAtMostTheLimit() {
    let gate = Gate()
    let ahead = AudioAhead(perOwner: 2, limit: 5)
    ahead.add(owner: "s0", key: "first", work: gate.job("first"))
    gate.waitUntil { gate.started.withLock { $0 } == ["first"] }
    for index in 1...4 { ahead.add(owner: "s1", key: "s1-\(index)", work: gate.job("s1-\(index)")) }
    #expect(ahead.counts == (waiting: 2, running: 1))
    for owner in 2...10 { ahead.add(owner: "s\(owner)", key: "s\(owner)", work: gate.job("s\(owner)")) }
    #expect(ahead.counts == (waiting: 5, running: 1))
    ahead.stop()
    #expect(gate.stopped.withLock { $0 } == ["first"])
    #expect(gate.started.withLock { $0 } == ["first"])
  }

  @Test func anOwnersCancelDropsItsWorkAndStopsWhatRuns() {
    let gate = Gate()
    let ahead = AudioAhead()
    ahead.add(owner: "s1", key: "a", work: gate.job("a"))
    gate.waitUntil { !gate.started.withLock { $0 }.isEmpty }
    ahead.add(owner: "s1", key: "b", work: gate.job("b"))
    ahead.add(owner: "s2", key: "c", work: gate.job("c"))
    ahead.cancel(owner: "s1")
    gate.waitUntil { gate.started.withLock { $0 }.count == 2 }
    #expect(gate.stopped.withLock { $0 } == ["a"])
    #expect(gate.started.withLock { $0 } == ["a", "c"])
    gate.released.withLock { $0 = true }
    #expect(ahead.take("c") == .success("c"))
    // What was stopped is not remembered as made.
    #expect(ahead.take("a") == nil)
    ahead.stop()
  }

  @Test func takingWaitsForAudioInTheMakingAndTakesBackWhatWaits() {
    let gate = Gate()
    let ahead = AudioAhead()
    ahead.add(owner: "s1", key: "a", work: gate.job("a"))
    ahead.add(owner: "s1", key: "b", work: gate.job("b"))
    gate.waitUntil { !gate.started.withLock { $0 }.isEmpty }
    // Still waiting: the caller makes it now, and the queue does not.
    #expect(ahead.take("b") == nil)
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { gate.released.withLock { $0 = true } }
    #expect(ahead.take("a") == .success("a"))
    ahead.stop()
    #expect(gate.started.withLock { $0 } == ["a"])
  }

  @Test func nothingIsMadeOnceStopped() {
    let gate = Gate()
    let ahead = AudioAhead()
    ahead.stop()
    ahead.add(owner: "s1", key: "a", work: gate.job("a"))
    #expect(ahead.counts == (waiting: 0, running: 0))
    #expect(gate.started.withLock { $0 }.isEmpty)
  }
}

/// The speech directory is held under its limit, least recently used first.
@Suite struct SpeechCacheTests {
  func directory(_ files: [(String, Int, TimeInterval)]) throws -> String {
    let directory = NSTemporaryDirectory() + "biki-cache-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, size, used) in files {
      let path = directory + "/" + name
      FileManager.default.createFile(atPath: path, contents: Data(count: size))
      var times = [
        timespec(tv_sec: Int(used), tv_nsec: 0), timespec(tv_sec: Int(used), tv_nsec: 0),
      ]
      _ = utimensat(AT_FDCWD, path, &times, 0)
    }
    return directory
  }

  func names(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }

  @Test func theLeastRecentlyUsedGoUntilThreeQuartersOfTheLimitAreLeft() throws {
    let files = (0..<10).map { ("\($0).wav", 100, TimeInterval(1_000 + $0)) }
    let directory = try directory(files.shuffled() + [("voice", 5_000, 1)])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let cache = SpeechCache(directory: directory, limit: 800)
    cache.prune(now: 2_000)
    // 1,000 bytes over a limit of 800: the four oldest go, leaving 600.
    #expect(names(directory) == ["4.wav", "5.wav", "6.wav", "7.wav", "8.wav", "9.wav", "voice"])
    #expect(cache.size == 600)
    cache.prune(now: 2_000)
    #expect(cache.size == 600)
  }

  @Test func aFileUsedAgainIsKeptLongest() throws {
    let directory = try directory([("a.wav", 100, 1_000), ("b.wav", 100, 1_001), ("c.wav", 100, 1_002)])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    SpeechCache.touch(directory + "/a.wav")
    SpeechCache(directory: directory, limit: 250).prune(now: Date().timeIntervalSince1970)
    // 300 bytes over a limit of 250: b and c go, though a was made first.
    #expect(names(directory) == ["a.wav"])
  }

  @Test func halfMadeFilesLeftByAKilledProcessAreRemoved() throws {
    let directory = try directory([
      (".1-old.wav", 10, 1_000), (".1-old.trace", 10, 1_000), (".2-new.wav", 10, 1_950), ("kept.wav", 10, 1_000),
    ])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    SpeechCache(directory: directory, limit: 1 << 20).prune(now: 2_000)
    #expect(names(directory) == [".2-new.wav", "kept.wav"])
  }
}
