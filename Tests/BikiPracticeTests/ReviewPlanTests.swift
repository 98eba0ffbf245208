import BikiCore
import BikiJapanese
import BikiTestSupport
import Testing

@testable import BikiPractice

@Suite struct ReviewPlanTests {
  let day = 86_400.0
  let hon = try! NumberPhraseGenerator(range: 1...10, phrasing: .counted(.hon))
    .generator(for: Topic(id: "counters.hon", title: "本", category: .counter, skills: [.kana]))

  func answer(_ value: UInt128, _ counter: Counter, correct: Bool, at: Double) -> HistoryEntry {
    HistoryEntry(
      Session.AnswerRecord(
        topicID: "counters.x", seed: 0, skill: .kana, prompt: "\(value)", expected: "", given: "", isCorrect: correct,
        seconds: 1,
        forms: ReadingForms.of(value, counter: counter)), at: at)
  }

  @Test func dueFirstThenWeakThenNew() throws {
    let start = 1_800_000_000.0
    // 8杯 missed two days ago: its rule (shared with 8本) is due. 3本 missed just now: weak.
    // 1本 answered right a minute ago: neither due nor weak.
    let summary = HistorySummary([
      answer(8, .hai, correct: false, at: start), answer(3, .hon, correct: false, at: start + 2 * day),
      answer(1, .hon, correct: true, at: start + 2 * day - 60),
    ])
    let plan = ReviewPlan.make(
      summary: summary, skill: .kana, generators: [hon], now: start + 2 * day, seed: 9, count: 4)
    #expect(plan.picks.map(\.reason) == [.due, .weak, .new, .new])
    #expect(plan.picks[0].rule == "final:8:はっ+h→p")
    #expect(plan.picks[1].rule == "final:3:さん+h→b")
    // Each pick is a question that exercises its form: 8本 for the rule 8杯 was missed in.
    let generator = try #require(
      plan.generator(
        topic: Topic(id: "review", title: "Review", category: .counter, skills: [.kana]), generators: [hon]))
    let first = try generator.question(seed: 0)
    #expect(first.display == "8本")
    #expect(first.topicID == "counters.hon")
    #expect(first.seed == plan.picks[0].index)  // the topic's own seed, so the history can replay it
    #expect(Set(plan.picks.compactMap(\.rule)).count == 4)
  }

  @Test func aPlanIsAPureFunctionOfItsInputs() {
    let summary = HistorySummary([answer(6, .hon, correct: false, at: 0)])
    let one = ReviewPlan.make(summary: summary, skill: .kana, generators: [hon], now: 10 * day, seed: 5, count: 6)
    let two = ReviewPlan.make(summary: summary, skill: .kana, generators: [hon], now: 10 * day, seed: 5, count: 6)
    #expect(one.picks.map(\.index) == two.picks.map(\.index))
    #expect(one.picks.first?.reason == .due)
  }

  @Test func aSessionAsksThePlanInOrder() throws {
    let summary = HistorySummary([answer(8, .hon, correct: false, at: 0)])
    let plan = ReviewPlan.make(summary: summary, skill: .kana, generators: [hon], now: 5 * day, seed: 1, count: 3)
    let generator = try #require(
      plan.generator(
        topic: Topic(id: "review", title: "Review", category: .counter, skills: [.kana]), generators: [hon]))
    var (runner, _) = try SessionRunner.start(
      generator: generator, skill: .kana, mode: .questionLimit(3), seed: 1,
      dependencies: Session.Dependencies(now: { 0 }))
    var shown: [String] = []
    while let question = runner.state.current {
      shown.append(question.display)
      _ = runner.send(.skipRequested)
    }
    #expect(shown.first == "8本")
    #expect(shown.count == 3)
  }
}
