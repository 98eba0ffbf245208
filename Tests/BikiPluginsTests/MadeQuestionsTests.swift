import BikiCore
import BikiJapanese
import Testing

@testable import BikiPlugins

/// A plugin topic's questions made ahead are kept, bounded: the oldest half goes when full;
/// failures are not kept.
@Suite struct MadeQuestionsTests {
  static func question(_ index: UInt64) -> Result<Question, GenerationError> {
    index % 7 == 0
      ? .failure(GenerationError(topicID: "p.t", reason: "question \(index) crashed"))
      : .success(
        Question(
          topicID: "p.t", seed: index, display: "\(index)", kanjiDisplay: "\(index)", reading: Reading("いち"),
          answer: Answer(value: 1)))
  }

  @Test func questionsAreKeptAndTheOldestHalfGoesWhenFull() {
    let made = MadeQuestions()
    #expect(made.missing([3, 5, 3, 7]) == [3, 5, 7])
    made.keep([3, 5, 7].map { ($0, Self.question($0)) })
    // A failure is not kept: the question is asked again when it is wanted again.
    #expect(made.missing([3, 5, 7, 9]) == [7, 9])
    #expect(made.find(7) == nil)
    #expect(made.find(5)?.display == "5")
    // Past the capacity, the oldest half goes.
    let many = (100..<UInt64(100 + 2 * MadeQuestions.capacity)).filter { $0 % 7 != 0 }.prefix(MadeQuestions.capacity)
    made.keep(many.map { ($0, Self.question($0)) })
    #expect(made.find(3) == nil && made.find(5) == nil)
    #expect(made.find(many.last ?? 0) != nil)
    #expect(made.missing(Array(many)).count <= MadeQuestions.capacity / 2 + 2)
  }
}
