import BikiCore
import BikiSync
import Dispatch
import Glibc
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
  /// asks for it once, and nobody asks again, so one question cannot crash the worker into
  /// quarantine however many callers want it.
  @Test func aQuestionThatFailedIsNotAskedForAgain() throws {
    let (source, asked) = Self.source(pace: nil)
    let first = try #require(source.readAhead([13, 14, 15], chunk: 1))
    first()
    // Half way there (14) is still not made, so read-ahead runs again, and asks for nothing.
    let again = try #require(source.readAhead([13, 14, 15], chunk: 1))
    again()
    #expect(asked.withLock { $0 } == [13, 14, 15])
    // A learner who needs it is told why it failed, without asking the plugin.
    #expect(source.questionAtHand(14) == nil)
    #expect(throws: GenerationError.self) { try source.question(at: 14) }
    #expect(asked.withLock { $0 } == [13, 14, 15])
  }

  /// What a learner's question met is remembered for read-ahead too.
  @Test func aFailureALearnerMetIsNotAskedAheadAgain() throws {
    let (source, asked) = Self.source(pace: nil)
    #expect(throws: GenerationError.self) { try source.question(at: 21) }
    let work = try #require(source.readAhead([20, 21, 22], chunk: 1))
    work()
    #expect(asked.withLock { $0 } == [21, 20, 22])
  }

  /// Two callers wanting one question at once (a learner and read-ahead, on two threads) ask
  /// the plugin for it once.
  @Test func twoCallersAtOnceAskOnce() {
    let asked = Locked<[UInt64]>([])
    let topic = Topic(id: "p.t", title: "T", category: .number, skills: [.reading])
    let make: @Sendable ([UInt64]) -> [Result<Question, GenerationError>] = { indices in
      asked.withLock { $0 += indices }
      usleep(20_000)  // long enough for the other caller to arrive meanwhile
      return indices.map(MadeQuestionsTests.question)
    }
    let source = PluginQuestions(topic: topic, spaceSize: 100, pace: { nil }, make: make)
    DispatchQueue.concurrentPerform(iterations: 2) { _ in _ = source.questions(at: [28]) }
    #expect(asked.withLock { $0 } == [28])
  }
}
