import BikiCore
import BikiSync

/// A plugin's questions: made by its worker (or library), checked, and kept once made
/// (`MadeQuestions`), so a question asked again, or made ahead, is served without asking the
/// plugin. The source owns its caching and its read-ahead; callers only ask.
struct PluginQuestions: QuestionSource {
  let topic: Topic
  let spaceSize: UInt64
  /// The plugin's seconds a question lately, nil before it has made any.
  let pace: @Sendable () -> Double?
  /// Asks the plugin for the questions at these indices, checking each.
  let make: @Sendable ([UInt64]) -> [Result<Question, GenerationError>]
  let made = MadeQuestions()
  /// Questions the plugin could not make, with why, met by any caller. A question is a pure
  /// function of its index, so one that crashed or was refused fails again: it is not asked for
  /// again by anyone (a crash costs a worker, and three in a row quarantine the plugin, so the
  /// same question asked by read-ahead and then by the learner must not count twice). Emptied
  /// when full. Its lock is held while the plugin is asked, so two callers wanting the same
  /// question (read-ahead and a learner) ask once: the plugin's worker answers one call at a
  /// time anyway, and `questionAtHand` never takes this lock, so the message loop never waits.
  let failed = Locked<[UInt64: GenerationError]>([:])
  static let failedKept = 1_024

  init(
    topic: Topic, spaceSize: UInt64, pace: @Sendable @escaping () -> Double?,
    make: @Sendable @escaping ([UInt64]) -> [Result<Question, GenerationError>]
  ) {
    self.topic = topic
    self.spaceSize = spaceSize
    self.pace = pace
    self.make = make
  }

  func question(at index: UInt64) throws(GenerationError) -> Question { try questions(at: [index])[0].get() }

  /// What is made already is served from the store, and what failed before fails again; the
  /// rest is asked for in one call and kept.
  func questions(at indices: [UInt64]) -> [Result<Question, GenerationError>] {
    failed.withLock { failed in
      let missing = made.missing(indices).filter { failed[$0] == nil }
      var fetched: [UInt64: Result<Question, GenerationError>] = [:]
      if !missing.isEmpty {
        let results = make(missing)
        made.keep(Array(zip(missing, results)))
        fetched = Dictionary(zip(missing, results), uniquingKeysWith: { first, _ in first })
      }
      let answered = indices.map { index in
        // One made by another request may have been forgotten since (the store is bounded): made again.
        fetched[index] ?? made.find(index).map { .success($0) } ?? failed[index].map { .failure($0) }
          ?? make([index])[0]
      }
      let failures = zip(indices, answered).compactMap { index, result in
        if case .failure(let error) = result { (index, error) } else { nil }
      }
      if failed.count + failures.count > Self.failedKept { failed.removeAll(keepingCapacity: true) }
      for (index, error) in failures { failed[index] = error }
      return answered
    }
  }

  /// Only what was made already: anything else runs the plugin's code.
  func questionAtHand(_ index: UInt64) -> Result<Question, GenerationError>? { made.find(index).map { .success($0) } }

  /// Makes ahead when the question half way there is not made already (then the rest are, or
  /// are being made), one run at a time, and only for a plugin quick enough that it costs
  /// nothing (one taking more than a few milliseconds a question is asked only for what is
  /// wanted). The pace is read in the work, off the loop: a worker busy with a question holds
  /// it until the question is done.
  func readAhead(_ indices: [UInt64], chunk: Int) -> (@Sendable () -> Void)? {
    guard !indices.isEmpty, made.find(indices[indices.count / 2]) == nil else { return nil }
    let chunk = max(1, chunk)
    return { [self] in
      guard (pace() ?? 0) < PluginTopics.quickQuestion, made.beginMakingAhead() else { return }
      defer { made.endMakingAhead() }
      for start in stride(from: 0, to: indices.count, by: chunk) {
        _ = questions(at: Array(indices[start..<min(start + chunk, indices.count)]))
      }
    }
  }
}
