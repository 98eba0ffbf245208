import BikiCore
import Foundation
import Testing

@testable import BikiPractice

@Suite struct HistorySummaryTests {
  func entry(_ topic: String, _ expected: String, correct: Bool, skipped: Bool = false, seconds: Double = 2)
    -> HistoryEntry
  {
    HistoryEntry(
      Session.AnswerRecord(
        topicID: topic, seed: 1, skill: .kana, prompt: expected, expected: expected, given: correct ? expected : "x",
        isCorrect: correct,
        skipped: skipped, seconds: seconds), at: 1)
  }

  /// A fresh directory with a history file in it, removed afterwards.
  func withHistory(_ body: (String, AnswerHistory) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("biki-summary-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("biki/history.jsonl").path
    try body(path, AnswerHistory.file(path: path))
  }

  @Test func theSummaryKeepsUpWithTheHistoryAndAgreesWithAFullCount() throws {
    try withHistory { path, history in
      var written: [HistoryEntry] = []
      for round in 0..<3 {
        for index in 0..<50 {
          let item = entry(
            index % 3 == 0 ? "counters.hon" : "dates.days", "f\(index % 7)", correct: (index + round) % 4 != 0,
            skipped: index % 11 == 0)
          try history.append(item)
          written.append(item)
        }
        try history.record(.started(topicID: "counters.hon", skill: .kana, mode: .infinite, seed: 1), at: 1)
        let (summary, warnings) = history.summary()
        #expect(warnings.isEmpty)
        #expect(summary.stats() == HistoryStats.compute(written))
        #expect(summary.stats(topicID: "dates.days") == HistoryStats.compute(written, topicID: "dates.days"))
      }
      #expect(FileManager.default.fileExists(atPath: path + ".summary"))
    }
  }

  /// Once kept, only the lines past it are read: a summary whose checksum holds, whose figures
  /// could be true, and whose history bytes are the ones it saw is believed.
  @Test func onlyNewLinesAreRead() throws {
    try withHistory { path, history in
      try history.append(entry("counters.hon", "a", correct: true, seconds: 2))
      var kept = history.summary().summary
      // Change a kept figure the history would not give (and that is still possible): if it is
      // read back, the history's first line was not re-read.
      kept.topics["counters.hon"]?.seconds = 40
      try Data(kept.stored).write(to: URL(fileURLWithPath: path + ".summary"))
      try history.append(entry("counters.hon", "a", correct: true, seconds: 2))
      #expect(history.summary().summary.stats().total.averageSeconds == 21)
    }
  }

  /// A figure edited in the kept file (a checksum that no longer matches), or one that cannot be
  /// true of the history (a consistent checksum over "900 right of 3"), is never shown.
  @Test func anEditedOrImpossibleSummaryIsMadeAfresh() throws {
    try withHistory { path, history in
      for index in 0..<3 { try history.append(entry("counters.hon", "a", correct: index == 0)) }
      let truth = history.summary().summary
      let summaryPath = path + ".summary"
      let text = try String(contentsOfFile: summaryPath, encoding: .utf8)
      #expect(text.contains(#""correct":1"#))
      try text.replacingOccurrences(of: #""correct":1"#, with: #""correct":901"#).write(
        toFile: summaryPath, atomically: true, encoding: .utf8)
      #expect(history.summary().summary.stats().total.correct == 1)

      var impossible = truth
      impossible.topics["counters.hon"]?.correct = 900
      #expect(!impossible.isConsistent)
      try Data(impossible.stored).write(to: URL(fileURLWithPath: summaryPath))
      #expect(history.summary().summary == truth)
      // And the file is replaced by the true one.
      #expect(HistorySummary(stored: [UInt8](try Data(contentsOf: URL(fileURLWithPath: summaryPath)))) == truth)
    }
  }

  /// Every covered byte counts, not only the last few: an early edit of the same length (a
  /// wrong answer turned right in the first line of a long history) makes the summary afresh.
  @Test func anEarlyEditOfTheSameLengthIsNoticed() throws {
    try withHistory { path, history in
      try history.append(entry("counters.hon", "first", correct: false))
      for index in 0..<200 { try history.append(entry("dates.days", "f\(index)", correct: true)) }
      #expect(history.summary().summary.stats(topicID: "counters.hon").total.correct == 0)
      var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      let before = bytes.count
      let text = String(decoding: bytes, as: UTF8.self)
      let firstLine = try #require(text.split(separator: "\n").first)
      #expect(firstLine.contains(#""correct":false"#))
      // `false` to `true ` keeps every offset; the line stays valid JSON.
      let edited = firstLine.replacingOccurrences(of: #""correct":false"#, with: #""correct":true "#)
      bytes.replaceSubrange(0..<firstLine.utf8.count, with: Array(edited.utf8))
      #expect(bytes.count == before)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      #expect(history.summary().summary.stats(topicID: "counters.hon").total.correct == 1)
    }
  }

  /// Summaries Biki makes are consistent, whatever the history says (negative or endless times).
  @Test func summariesMadeFromOddLinesAreConsistent() {
    var summary = HistorySummary()
    for seconds in [-5, .infinity, .nan, 1e300, 3] {
      summary.add(entry("counters.hon", "a", correct: true, seconds: seconds))
    }
    summary.lines = 5
    summary.coveredBytes = 500
    #expect(summary.isConsistent)
    #expect(summary.stats().total.averageSeconds == (86_400.0 + 3) / 5)
  }

  @Test func aSummaryThatDoesNotMatchTheHistoryIsMadeAfresh() throws {
    try withHistory { path, history in
      for _ in 0..<3 { try history.append(entry("counters.hon", "a", correct: false)) }
      _ = history.summary()
      // The history is replaced by a shorter one with different bytes.
      try Data(HistoryFile.line(.answer(entry("dates.days", "b", correct: true)))).write(to: URL(fileURLWithPath: path))
      #expect(history.summary().summary.stats().topics.map(\.topicID) == ["dates.days"])
      // A damaged summary is ignored too.
      try Data("{not json".utf8).write(to: URL(fileURLWithPath: path + ".summary"))
      #expect(history.summary().summary.stats().total.answers == 1)
    }
  }

  @Test func tornAndDamagedLinesAreReportedWithTheirLineNumbers() throws {
    try withHistory { path, history in
      try history.append(entry("counters.hon", "a", correct: true))
      _ = history.summary()
      let handle = try #require(FileHandle(forWritingAtPath: path))
      handle.seekToEndOfFile()
      handle.write(
        Data("garbage\n".utf8) + Data(HistoryFile.line(.answer(entry("counters.hon", "a", correct: true))))
          + Data("{\"at\":".utf8))
      try handle.close()
      let (summary, warnings) = history.summary()
      #expect(summary.stats().total.answers == 2)
      #expect(warnings == [HistoryFile.damaged(path, line: 2), HistoryFile.torn(path, line: 4, bytes: 6)])
    }
  }

  @Test func trackedFormsStayBoundedAndKeepTheMissedOnes() {
    var summary = HistorySummary()
    summary.add(entry("numbers.chou", "missed", correct: false))
    for index in 0..<(HistorySummary.formLimit + 10) { summary.add(entry("numbers.chou", "n\(index)", correct: true)) }
    #expect(summary.forms.count <= HistorySummary.formLimit)
    #expect(summary.stats().mostMissed.map(\.expected) == ["missed"])
    #expect(summary.stats().total.answers == HistorySummary.formLimit + 11)
  }
}
