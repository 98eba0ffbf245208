/// Which of a plugin topic's seeds to make ahead for a client that asks for them one after
/// another (`biki/generate` with seeds 1, 2, 3 …, as a tool that renders its own quiz asks):
/// the next seeds, a window at a time, asked for before they are wanted, so each request finds
/// its question made and is answered without a thread or a round trip to the plugin. A client
/// that asks at random gets nothing made ahead, so the plugin never works for nothing.
struct Readahead: Sendable {
  /// How many seeds ahead are made; asked for again once half of them are used.
  static let window: UInt64 = 256
  /// How many of a session's next questions are made ahead: a learner takes seconds over each,
  /// so a few are enough, and few are wasted if the session ends.
  static let sessionQuestions = 16

  /// The seed that would continue the last request's run.
  private var expected: UInt64?
  /// Seeds below this were asked to be made.
  private var frontier: UInt64 = 0

  /// The seeds to make ahead after a request for `count` questions from `seed`, if any.
  mutating func after(seed: UInt64, count: UInt64) -> Range<UInt64>? {
    let (end, overflow) = seed.addingReportingOverflow(count)
    let inSequence = expected == seed
    expected = overflow ? nil : end
    guard !overflow, inSequence else {
      frontier = overflow ? 0 : end
      return nil
    }
    let (limit, tooFar) = end.addingReportingOverflow(Self.window)
    guard !tooFar, frontier <= end + Self.window / 2 else { return nil }
    let start = max(frontier, end)
    frontier = limit
    return start..<limit
  }
}
