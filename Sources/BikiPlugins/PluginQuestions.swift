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
  /// Questions read-ahead found the plugin could not make: read-ahead does not ask for them
  /// again (a crash costs a worker, and crashes in a row quarantine the plugin); a learner who
  /// needs one asks for it alone. Emptied when full.
  let failedAhead = Locked<Set<UInt64>>([])
  static let failedAheadKept = 1_024

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

  /// What is made already is served from the store; the rest is asked for in one call and kept.
  func questions(at indices: [UInt64]) -> [Result<Question, GenerationError>] {
    let missing = made.missing(indices)
    var fetched: [UInt64: Result<Question, GenerationError>] = [:]
    if !missing.isEmpty {
      let results = make(missing)
      made.keep(Array(zip(missing, results)))
      fetched = Dictionary(zip(missing, results), uniquingKeysWith: { first, _ in first })
    }
    // One made by another request may have been forgotten since (the store is bounded): made again.
    return indices.map { index in fetched[index] ?? made.find(index).map { .success($0) } ?? make([index])[0] }
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
      let wanted = failedAhead.withLock { failed in indices.filter { !failed.contains($0) } }
      for start in stride(from: 0, to: wanted.count, by: chunk) {
        let part = Array(wanted[start..<min(start + chunk, wanted.count)])
        let failed = zip(part, questions(at: part)).compactMap { index, result in
          if case .failure = result { index } else { nil }
        }
        guard !failed.isEmpty else { continue }
        failedAhead.withLock { kept in
          if kept.count + failed.count > Self.failedAheadKept { kept.removeAll(keepingCapacity: true) }
          kept.formUnion(failed)
        }
      }
    }
  }
}
