import BikiCore
import Foundation
import Testing

@testable import BikiPractice

@Suite struct AnswerHistoryTests {
  let entry = HistoryEntry(
    Session.AnswerRecord(
      topicID: "counters.hon", seed: UInt64.max, skill: .kana, prompt: "8本", expected: "はっぽん", given: "はちほん",
      isCorrect: false, seconds: 2.25), at: 1_800_000_000.5)

  @Test func aLineRoundTrips() {
    let contents = HistoryFile.parse(HistoryFile.line(.answer(entry)), path: "h")
    #expect(contents.entries == [entry])
    #expect(contents.warnings.isEmpty)
  }

  /// A history written before sessions were recorded (Biki at c785286, which wrote only
  /// answers, as here byte for byte) reads the same today, and lines of both kinds mix.
  @Test func historiesWrittenByEarlierVersionsStillRead() {
    let earlier = """
      {"at":1795000000.25,"topic":"counters.hon","seed":"3","skill":"reading","question":"八本","expected":"8本","given":"8","correct":true,"skipped":false,"seconds":2.5}
      {"at":1795000004.5,"topic":"counters.hon","seed":"7","skill":"kana","question":"6本","expected":"ろっぽん","given":"","correct":false,"skipped":true,"seconds":4.0}

      """
    let contents = HistoryFile.parse(Array(earlier.utf8), path: "h")
    #expect(contents.warnings.isEmpty)
    #expect(contents.entries.map(\.prompt) == ["八本", "6本"])
    #expect(contents.entries.map(\.skipped) == [false, true])
    let started = HistoryFile.line(.sessionStarted(at: 1, topicID: "counters.hon", skill: .kana, seed: 9))
    let ended = HistoryFile.line(
      .sessionEnded(at: 2, topicID: "counters.hon", reason: "ended", questions: 1, correct: 0))
    // As docs/protocol.md shows them.
    #expect(
      String(decoding: started, as: UTF8.self)
        == #"{"event":"sessionStarted","at":1.0,"topic":"counters.hon","skill":"kana","seed":"9"}"# + "\n")
    #expect(
      String(decoding: ended, as: UTF8.self)
        == #"{"event":"sessionEnded","at":2.0,"topic":"counters.hon","reason":"ended","questions":1,"correct":0}"#
        + "\n")
    let mixed = HistoryFile.parse(Array(earlier.utf8) + started + ended, path: "h")
    #expect(mixed.warnings.isEmpty)
    #expect(mixed.entries.count == 2)
  }

  @Test func aTornLastLineIsDroppedWithAWarning() {
    let whole = HistoryFile.line(.answer(entry))
    let torn = whole + whole.prefix(20)
    let contents = HistoryFile.parse(torn, path: "/state/biki/history.jsonl")
    #expect(contents.entries == [entry])
    #expect(contents.intactLength == whole.count)
    #expect(
      contents.warnings == [
        "/state/biki/history.jsonl:2: dropped an unfinished last line (20 bytes), left by an interrupted write"
      ])
  }

  @Test func aDamagedLineIsSkippedAndTheRestKept() {
    let bytes =
      Array("{\"not\":\"an answer\"}\n\n".utf8) + HistoryFile.line(.answer(entry)) + Array("\u{FF}garbage\n".utf8)
    let contents = HistoryFile.parse(bytes, path: "h")
    #expect(contents.entries == [entry])
    #expect(contents.warnings.count == 2)
    #expect(contents.warnings[0].hasPrefix("h:1:"))
    #expect(contents.warnings[1].hasPrefix("h:4:"))
  }

  /// The live file: the one test that writes to disk, in a fresh temporary directory.
  @Test func theFileCutsATornTailBeforeAppending() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("biki-history-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("biki/history.jsonl").path
    let history = AnswerHistory.file(path: path)
    #expect(history.load().entries.isEmpty)
    try history.append(entry)
    // A kill in the middle of the next write leaves half a line.
    let handle = try #require(FileHandle(forWritingAtPath: path))
    handle.seekToEndOfFile()
    handle.write(Data(HistoryFile.line(.answer(entry)).prefix(30)))
    try handle.close()
    #expect(history.load().warnings.count == 1)

    let restarted = AnswerHistory.file(path: path)
    try restarted.append(entry)
    let reloaded = restarted.load()
    #expect(reloaded.entries == [entry, entry])
    #expect(reloaded.warnings.isEmpty)
  }

  @Test func statsCountPerTopicAndRankTheFormsMissed() {
    func answer(_ topic: String, _ expected: String, _ correct: Bool, skipped: Bool = false) -> HistoryEntry {
      HistoryEntry(
        Session.AnswerRecord(
          topicID: topic, seed: 0, skill: .kana, prompt: expected, expected: expected, given: correct ? expected : "x",
          isCorrect: correct, skipped: skipped, seconds: 2), at: 0)
    }
    let stats = HistoryStats.compute([
      answer("a", "はっぽん", false), answer("a", "はっぽん", false), answer("a", "はっぽん", true),
      answer("a", "いっぽん", true), answer("b", "ついたち", false, skipped: true),
    ])
    #expect(stats.topics.map(\.topicID) == ["a", "b"])
    #expect(stats.topics[0].answers == 4 && stats.topics[0].correct == 2)
    #expect(stats.topics[1].skipped == 1 && stats.topics[1].accuracy == 0)
    #expect(stats.total.accuracy == 0.4)
    #expect(stats.mostMissed.map(\.expected) == ["はっぽん", "ついたち"])
    #expect(stats.mostMissed[0].misses == 2 && stats.mostMissed[0].seen == 3)
    #expect(stats.mostMissed[1].recentWrongAnswers.isEmpty)
  }
}
