import BikiCore
import BikiJapanese
import Synchronization

/// A topic's questions standing in for a plugin's in tests: never at hand unless made and kept,
/// so a server makes them off its loop as it would a plugin's.
package struct StandInPluginQuestions: QuestionSource {
  /// What the stand-in plugin made, kept when `keeps`, and how many questions it made in all.
  package final class Store: Sendable {
    let made = Mutex<[UInt64: Result<Question, GenerationError>]>([:])
    let count = Mutex(0)
    package init() {}
    package var questionsMade: Int { count.withLock { $0 } }
  }

  let inner: QuestionGenerator
  /// Whether what it makes is kept and served at hand afterwards, as a plugin's store does.
  let keeps: Bool
  /// Whether it makes questions ahead when asked, as a quick plugin does.
  let makesAhead: Bool
  package let store: Store

  package init(_ inner: QuestionGenerator, keeps: Bool = false, makesAhead: Bool = false, store: Store = Store()) {
    self.inner = inner
    self.keeps = keeps
    self.makesAhead = makesAhead
    self.store = store
  }

  package var topic: Topic { inner.topic }
  package var spaceSize: UInt64 { inner.spaceSize }

  package func question(at index: UInt64) throws(GenerationError) -> Question {
    try questions(at: [index])[0].get()
  }

  package func questions(at indices: [UInt64]) -> [Result<Question, GenerationError>] {
    indices.map { index in
      if keeps, let found = store.made.withLock({ $0[index] }) { return found }
      store.count.withLock { $0 += 1 }
      let result = Result { () throws(GenerationError) in try inner.question(seed: index) }
      if keeps { store.made.withLock { $0[index] = result } }
      return result
    }
  }

  package func questionAtHand(_ index: UInt64) -> Result<Question, GenerationError>? {
    keeps ? store.made.withLock { $0[index] } : nil
  }

  package func forms(at index: UInt64) -> [ReadingForm]? { inner.forms(seed: index) }

  package func readAhead(_ indices: [UInt64], chunk: Int) -> (@Sendable () -> Void)? {
    // As a plugin's source does: not when the question half way there is made already.
    guard makesAhead, !indices.isEmpty, questionAtHand(indices[indices.count / 2]) == nil else { return nil }
    return { _ = questions(at: indices) }
  }
}
