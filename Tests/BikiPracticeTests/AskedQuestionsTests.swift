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
