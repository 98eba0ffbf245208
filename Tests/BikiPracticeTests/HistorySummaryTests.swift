import BikiCore
import Foundation
import Testing

@testable import BikiPractice

@Suite struct HistorySummaryTests {
  func entry(_ topic: String, _ expected: String, correct: Bool, skipped: Bool = false, seconds: Double = 2) -> HistoryEntry {
    HistoryEntry(
      Session.AnswerRecord(topicID: topic, seed: 1, skill: .kana, prompt: expected, expected: expected, given: correct ? expected : "x", isCorrect: correct,
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
          let item = entry(index % 3 == 0 ? "counters.hon" : "dates.days", "f\(index % 7)", correct: (index + round) % 4 != 0, skipped: index % 11 == 0)
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

  /// Once kept, only the lines past it are read: a summary that says it covers the history is
  /// believed as long as the bytes it ends on match.
  @Test func onlyNewLinesAreRead() throws {
    try withHistory { path, history in
      try history.append(entry("counters.hon", "a", correct: true))
      _ = history.summary()
      // Change the kept totals by hand: if they are read back, the history was not re-read.
      let summaryPath = path + ".summary"
      let text = try String(contentsOfFile: summaryPath, encoding: .utf8).replacingOccurrences(of: #""answers":1"#, with: #""answers":41"#)
      try text.write(toFile: summaryPath, atomically: true, encoding: .utf8)
      try history.append(entry("counters.hon", "a", correct: true))
      #expect(history.summary().summary.stats().total.answers == 42)
    }
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
      handle.write(Data("garbage\n".utf8) + Data(HistoryFile.line(.answer(entry("counters.hon", "a", correct: true)))) + Data("{\"at\":".utf8))
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
