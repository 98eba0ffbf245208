import BikiCore
import BikiJapanese
import Testing

@testable import BikiPractice

/// What stats, the report and review mode call a form: judged by the memory the reviews built
/// (recall a week from now), never by recall right after a review, which is 100 % right or wrong.
@Suite struct FormStateTests {
  let day = 86_400.0
  let start = 1_800_000_000.0

  func answer(_ value: UInt128, _ counter: Counter, correct: Bool, at: Double) -> HistoryEntry {
    HistoryEntry(
      Session.AnswerRecord(
        topicID: "counters.hon", seed: 0, skill: .kana, prompt: "\(value)", expected: "", given: correct ? "" : "x",
        isCorrect: correct, seconds: 2,
        forms: ReadingForms.of(value, counter: counter)), at: at)
  }

  @Test func aLearnerWhoMissesEverythingSeesEverythingWeak() {
    var entries: [HistoryEntry] = []
    for round in 0..<3 {
      for value: UInt128 in [1, 3, 6, 8, 10] {
        entries.append(answer(value, .hon, correct: false, at: start + Double(round) * 60))
      }
    }
    let forms = HistorySummary(entries).stats(now: start + 200).forms
    #expect(!forms.isEmpty)
    #expect(forms.allSatisfy { $0.state == .weak }, "\(forms.map { ($0.rule, $0.state, $0.recallInAWeek) })")
    // Recall right now says nothing: it is 100 % a minute after a miss.
    #expect(forms.allSatisfy { $0.recall > 0.99 })
  }

  @Test func aLearnerWhoAnswersWellOverWeeksSeesItKnown() {
    let days: [Double] = [0, 1, 3, 7, 15, 30, 60]
    let entries = days.map { answer(8, .hon, correct: true, at: start + $0 * day) }
    let summary = HistorySummary(entries)
    let early = HistorySummary(Array(entries.prefix(1))).stats(now: start + 60).forms.first
    #expect(early?.state == .fading, "one right answer is not knowing it yet")
    let form = summary.stats(now: start + 61 * day).forms.first
    #expect(form?.state == .known, "\(String(describing: form))")
  }

  /// A missed 6本 is named 6本 ろっぽん even after 6杯, which follows the same rule, is met right
  /// after it; and in the report 杯, never met, is not a row of its own coloured by 本's misses.
  @Test func aFormIsNamedByItsMissAndARuleSharedIsNotPractice() {
    var entries = (0..<3).map { answer(6, .hon, correct: false, at: start + Double($0) * 60) }
    entries.append(answer(6, .hai, correct: true, at: start + 300))
    let summary = HistorySummary(entries)
    let form = summary.stats(now: start + 400).forms.first
    #expect(form?.rule == "final:6:ろっ+h→p")
    #expect(form?.label == "6本 ろっぽん", "\(String(describing: form))")
    #expect(summary.metForms == ["本/final:6", "杯/final:6"])
    let onlyHon = HistorySummary(Array(entries.prefix(3)))
    let heat = ProgressReport(summary: onlyHon, now: start + 400).heatMap()
    #expect(heat.contains("<tr><th>本</th>"))
    #expect(!heat.contains("<tr><th>杯</th>"), "\(heat)")
    // In 本's row the 6 is coloured; 8, also h→p but never met, is grey.
    #expect(heat.contains(#"data-form="本/final:6" style="#))
    #expect(heat.contains(#"<td class="none" data-form="本/final:8""#))
  }

  @Test(arguments: [
    (0.95, 4, 0, FormState.known), (0.8, 4, 0, .fading), (0.5, 4, 0, .weak), (0.95, 4, 2, .weak), (0.95, 5, 2, .known),
  ])
  func theStateIsRecallInAWeekAndHowOftenItWasMissed(
    _ recall: Double, _ reviews: Int, _ lapses: Int, _ state: FormState
  ) {
    #expect(FormState(recallInAWeek: recall, reviews: reviews, lapses: lapses) == state)
  }
}

typealias FormState = HistoryStats.FormState
