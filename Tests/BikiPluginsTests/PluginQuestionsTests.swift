import BikiCore
import BikiSync
import Testing

@testable import BikiPlugins

/// A plugin's question source owns its store and its read-ahead: what it made is at hand and
/// is not asked for again; it makes ahead only for a quick plugin, and not when it is ahead.
@Suite struct PluginQuestionsTests {
  /// A source whose stand-in plugin counts the questions it was asked for, at `pace` seconds a
  /// question.
  static func source(pace: Double?) -> (PluginQuestions, Locked<[UInt64]>) {
    let asked = Locked<[UInt64]>([])
    let topic = Topic(id: "p.t", title: "T", category: .number, skills: [.reading])
    let make: @Sendable ([UInt64]) -> [Result<Question, GenerationError>] = { indices in
      asked.withLock { $0 += indices }
      return indices.map(MadeQuestionsTests.question)
    }
    let source = PluginQuestions(topic: topic, spaceSize: 100, pace: { pace }, make: make)
    return (source, asked)
  }

  @Test func whatWasMadeIsAtHandAndNotAskedForAgain() {
    let (source, asked) = Self.source(pace: nil)
    #expect(source.questionAtHand(1) == nil)
    #expect(asked.withLock { $0 }.isEmpty, "asking what is at hand runs no plugin code")
    _ = source.questions(at: [1, 2, 3])
    #expect(source.questionAtHand(2) != nil)
    _ = source.questions(at: [2, 3, 4])
    #expect(asked.withLock { $0 } == [1, 2, 3, 4])
  }

  @Test func aQuickPluginIsReadAheadOnceAndASlowOneNever() throws {
    let (quick, asked) = Self.source(pace: 0.0001)
    let work = try #require(quick.readAhead([10, 11, 12, 13], chunk: 2))
    work()
    #expect(asked.withLock { $0 } == [10, 11, 12, 13])
    #expect(quick.questionAtHand(12) != nil)
    // Ahead already: the question half way there is made.
    #expect(quick.readAhead([10, 11, 12, 13], chunk: 2) == nil)

    let (slow, slowAsked) = Self.source(pace: 0.5)
    slow.readAhead([10, 11, 12, 13], chunk: 2)?()
    #expect(slowAsked.withLock { $0 }.isEmpty)
  }

  /// Question 14 crashes (every seventh does, in `MadeQuestionsTests.question`): read-ahead
  /// asks for it once, and never again, so it cannot crash the worker into quarantine.
  @Test func readAheadDoesNotAskAgainForAQuestionThatFailed() throws {
    let (source, asked) = Self.source(pace: nil)
    let first = try #require(source.readAhead([13, 14, 15], chunk: 1))
    first()
    // Half way there (14) is still not made, so read-ahead runs again, and asks for nothing.
    let again = try #require(source.readAhead([13, 14, 15], chunk: 1))
    again()
    #expect(asked.withLock { $0 } == [13, 14, 15])
    // A learner who needs it asks for it alone.
    #expect(source.questionAtHand(14) == nil)
    #expect(throws: GenerationError.self) { try source.question(at: 14) }
  }
}
