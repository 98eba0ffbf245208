import BikiCore
import BikiSync

/// A plugin topic's questions already made and checked, by index. A question is a pure function
/// of its index, so one made ahead (for the seeds a session or a client will ask next) is the
/// question asked later: it is served from here without a round trip to the plugin's worker.
/// Only questions are kept here; `PluginQuestions` keeps the failures, so that a question that
/// crashed is not asked again.
final class MadeQuestions: Sendable {
  /// At most this many are kept; past it, the oldest half goes. About a megabyte of questions.
  static let capacity = 2_048

  private struct Store {
    /// Whether questions are being made ahead: one run at a time, so runs queued while one
    /// works do not each walk the same seeds (that two callers never ask the plugin for one
    /// question is `PluginQuestions.failed`'s lock's job).
    var makingAhead = false
    var byIndex: [UInt64: Question] = [:]
    /// Indices in the order they were made, for forgetting the oldest.
    var order: [UInt64] = []
  }

  private let store = Locked(Store())

  /// True, and making ahead is now this caller's, unless another is at it.
  func beginMakingAhead() -> Bool {
    store.withLock { store in
      guard !store.makingAhead else { return false }
      store.makingAhead = true
      return true
    }
  }

  func endMakingAhead() { store.withLock { $0.makingAhead = false } }

  /// The question at `index`, if made.
  func find(_ index: UInt64) -> Question? {
    store.withLock { $0.byIndex[index] }
  }

  /// Which of `indices` are not made yet, each once, in order.
  func missing(_ indices: [UInt64]) -> [UInt64] {
    store.withLock { store in
      var seen = Set<UInt64>()
      return indices.filter { store.byIndex[$0] == nil && seen.insert($0).inserted }
    }
  }

  func keep(_ made: [(UInt64, Result<Question, GenerationError>)]) {
    store.withLock { store in
      for case (let index, .success(let question)) in made
      where store.byIndex.updateValue(question, forKey: index) == nil {
        store.order.append(index)
      }
      guard store.order.count > Self.capacity else { return }
      let forgotten = store.order.count - Self.capacity / 2
      for index in store.order[..<forgotten] { store.byIndex[index] = nil }
      store.order.removeFirst(forgotten)
    }
  }
}
