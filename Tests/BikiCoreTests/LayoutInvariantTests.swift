import BikiJapanese
import Testing

@testable import BikiCore

/// Speed that rests on a type's shape (docs/performance.md, "Invariants"): each is checked here,
/// so a change that undoes one fails with the reason instead of quietly costing time.
@Suite struct LayoutInvariantTests {
  /// A ninth stored field made the optimizer copy and destroy every Question it built (numbers
  /// questions 7 % slower): Question.swift keeps the practice fields in one.
  @Test func aQuestionHasAtMostEightStoredFields() {
    let question = Question(
      topicID: "t", seed: 1, display: "8本", kanjiDisplay: "八本", reading: Reading("はっぽん"),
      answer: Answer(value: 8, postfix: "本"))
    let fields = Mirror(reflecting: question).children.count
    #expect(
      fields <= 8,
      "Question has \(fields) stored fields; keep new ones in its PracticeFields (see the comment on `practice`)")
  }

  /// A counter is copied once per question: its fields live in one shared box, so a copy is one
  /// retain instead of a dozen (Counter.swift, `storage`).
  @Test func aCounterIsOneReference() {
    #expect(
      MemoryLayout<Counter>.size == MemoryLayout<AnyObject>.size,
      "Counter is \(MemoryLayout<Counter>.size) bytes; keep its fields in its Storage box (see the comment on `storage`)"
    )
  }
}
