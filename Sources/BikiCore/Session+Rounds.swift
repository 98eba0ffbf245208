extension Session {
  /// Questions asked in rounds until each is answered right at the first try (`Mode.rounds`):
  /// the first round asks every one; each round after asks again those the round before missed
  /// (answered wrong at least once, or skipped). A round with nothing missed ends the session.
  package struct Rounds: Hashable, Sendable {
    /// The round being asked, from 1.
    package private(set) var number = 1
    /// How many questions this round asks.
    package private(set) var size: Int
    /// Question indices this round has still to ask, in order.
    private var queue: [UInt64]
    /// Those this round has missed so far.
    private var missed: [UInt64] = []
    /// The index of the question being asked.
    private var asking: UInt64?

    init(questions: Int) {
      queue = (0..<UInt64(max(questions, 0))).reversed()
      size = queue.count
    }

    /// Where the question being asked falls in its round, from 1.
    package var position: Int { size - queue.count }

    /// The next question's index: the rest of this round, then the next round's first; nil
    /// when the last round missed nothing.
    mutating func next() -> UInt64? {
      if queue.isEmpty {
        guard !missed.isEmpty else { return nil }
        number += 1
        queue = missed.reversed()
        size = queue.count
        missed = []
      }
      asking = queue.popLast()
      return asking
    }

    /// The question asked is closed; a miss brings it back next round.
    mutating func close(missed wasMissed: Bool) {
      if wasMissed, let asking { missed.append(asking) }
      asking = nil
    }
  }
}
