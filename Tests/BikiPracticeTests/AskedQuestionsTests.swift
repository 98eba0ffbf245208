import BikiCore
import BikiJapanese
import Testing

@testable import BikiPractice

@Suite struct AskedQuestionsTests {
  static func entry(
    seed: UInt64, at day: Double, correct: Bool, first: Bool = true, skipped: Bool = false, form: String? = nil
  ) -> HistoryEntry {
    HistoryEntry(
      Session.AnswerRecord(
        topicID: "t", seed: seed, skill: .kana, prompt: "q\(seed)", given: "a", isCorrect: correct, skipped: skipped,
        seconds: 1, isFirstAttempt: first, forms: form.map { [ReadingForm(id: $0)] } ?? []),
      at: day * 86_400)
  }

  /// Missed: wrong at first or skipped, and not answered right since at a first attempt. Due:
  /// asked last for a form due now. Each question once, in the order first asked.
  @Test func whatWasMissedOrIsDueComesBack() {
    let entries = [
      Self.entry(seed: 1, at: 0, correct: false),
      Self.entry(seed: 1, at: 0, correct: true, first: false),  // right at the second try: still missed
      Self.entry(seed: 2, at: 0, correct: false, skipped: true),
      Self.entry(seed: 2, at: 5, correct: true),  // right later at a first attempt: no longer missed
      Self.entry(seed: 3, at: 0, correct: true, form: "本/final:8"),  // known, and due by day 60
      Self.entry(seed: 4, at: 59, correct: true, form: "本/final:6"),  // just reviewed: not due
      Self.entry(seed: 5, at: 1, correct: false, skipped: true),
    ]
    let summary = HistorySummary(entries)
    let found = AskedQuestions.missedOrDue(entries, summary: summary, now: 60 * 86_400).map(\.seed)
    #expect(found == [1, 3, 5])
    #expect(AskedQuestions.missed(entries, since: 0).map(\.seed) == [1, 2, 5])
    #expect(AskedQuestions.missed(entries, since: 86_400).map(\.seed) == [5])
  }
}

/// The true-retention counts the report's table is made from.
@Suite struct ReturnsTests {
  @Test func returnsAreCountedOnLaterDaysYoungOrMature() throws {
    let day = 86_400.0
    // Noon each day (UTC practice days begin at 4 a.m.).
    func at(_ n: Double) -> Double { n * day + 12 * 3_600 }
    let entries = [
      AskedQuestionsTests.entry(seed: 1, at: 0, correct: true, form: "本/final:8"),
      // The same day: one sitting, no return.
      AskedQuestionsTests.entry(seed: 2, at: 0.1, correct: true, form: "本/final:8"),
      AskedQuestionsTests.entry(seed: 1, at: 3, correct: true, form: "本/final:8"),
      AskedQuestionsTests.entry(seed: 1, at: 9, correct: false, form: "本/final:8"),
    ].enumerated().map { index, entry in
      var entry = entry
      entry.at = at([0, 0.1, 3, 9][index])
      return entry
    }
    let summary = HistorySummary(entries)
    #expect(summary.returns[3] == HistorySummary.Returns(youngPassed: 1))
    #expect(summary.returns[9] == HistorySummary.Returns(youngFailed: 1))
    #expect(summary.returns.count == 2)

    // A form with a long interval returns mature.
    var long = HistorySummary()
    long.add(AskedQuestionsTests.entry(seed: 1, at: 0, correct: true, form: "杯/final:3"))
    for review in 1...6 {
      long.add(AskedQuestionsTests.entry(seed: 1, at: Double(review * review * 20), correct: true, form: "杯/final:3"))
    }
    let mature = long.returns.values.reduce(0) { $0 + $1.maturePassed }
    #expect(mature >= 1, "\(long.returns)")
    // Kept beside the history (as if it covered 7 lines) and read back whole.
    long.lines = 7
    long.coveredBytes = 700
    let stored = try #require(HistorySummary(stored: long.stored))
    #expect(stored.returns == long.returns)
  }
}
