import BikiCore

/// What the scheduler is fitted to: every form's reviews in order, and which of them are
/// predictions to learn from. A review at least a day after the one before is a prediction (a
/// test of memory at a known delay); a first review, or one the same day as the one before,
/// only moves the memory on, as FSRS's optimizer counts them.
package struct ReviewLog: Sendable, Equatable {
  package struct Review: Sendable, Equatable {
    package var grade: FSRS.Grade
    /// Days since the form's review before, to the second; 0 for its first.
    package var elapsedDays: Double
    /// Practice days (`PracticeDay`) since the form's review before: 0 for a review the same
    /// day, which only moves the memory on.
    package var days: Int
    /// When it was answered, in days since 1970: orders predictions in time.
    package var day: Double
    /// Where this prediction falls among all the log's predictions in time order; nil when it
    /// is not one.
    package var rank: Int?

    /// `days` by default: the whole days elapsed, as a log kept in whole days has it.
    package init(grade: FSRS.Grade, elapsedDays: Double, day: Double, days: Int? = nil) {
      self.grade = grade
      self.elapsedDays = elapsedDays
      self.day = day
      self.days = days ?? (elapsedDays.isFinite ? Int(min(max(elapsedDays, 0), 1e9).rounded(.down)) : 0)
    }

    var isSameDay: Bool { days == 0 }
  }

  /// One form's reviews, oldest first.
  package var sequences: [[Review]]
  /// How many predictions the log holds.
  package private(set) var predictions: Int

  /// Predictions past this many reviews of one form are not learnt from (FSRS's own limit on a
  /// training item's length), so a form drilled endlessly cannot make a fit slow.
  static let longestSequence = 256

  /// The log of reviews as given; each review's `rank` is worked out here.
  package init(sequences: [[Review]]) {
    var ranked: [(day: Double, sequence: Int, position: Int)] = []
    for (sequence, reviews) in sequences.enumerated() {
      for (position, review) in reviews.enumerated() where Self.isPrediction(review, at: position) {
        ranked.append((review.day, sequence, position))
      }
    }
    ranked.sort { ($0.day, $0.sequence, $0.position) < ($1.day, $1.sequence, $1.position) }
    var sequences = sequences
    for (rank, place) in ranked.enumerated() { sequences[place.sequence][place.position].rank = rank }
    self.sequences = sequences
    predictions = ranked.count
  }

  static func isPrediction(_ review: Review, at position: Int) -> Bool {
    position > 0 && position < longestSequence && !review.isSameDay
  }

  /// The log of a history: each question's first attempt reviews every form it exercises,
  /// right as `good` and wrong or skipped as `again`, as the summary schedules them; days are
  /// the learner's `practiceDay`s.
  package init(_ entries: [HistoryEntry], practiceDay: PracticeDay) {
    var index: [HistorySummary.MemoryKey: Int] = [:]
    var sequences: [[Review]] = []
    var last: [Double] = []
    for entry in entries where entry.isFirstAttempt && entry.at.isFinite && abs(entry.at) < 1e12 {
      let grade: FSRS.Grade = entry.isCorrect && !entry.skipped ? .good : .again
      for rule in Set(entry.forms.map(\.rule)).sorted() {
        let key = HistorySummary.MemoryKey(skill: entry.skill, rule: rule)
        let day = entry.at / 86_400
        if let at = index[key] {
          let days = practiceDay.days(from: last[at] * 86_400, to: entry.at)
          sequences[at].append(Review(grade: grade, elapsedDays: max(0, day - last[at]), day: day, days: days))
          last[at] = max(last[at], day)
        } else {
          index[key] = sequences.count
          sequences.append([Review(grade: grade, elapsedDays: 0, day: day, days: 0)])
          last.append(day)
        }
      }
    }
    self.init(sequences: sequences)
  }

  /// The log as it stood before the prediction ranked `cutoff`: each form's reviews up to its
  /// last prediction before it, so a fit on it sees nothing of what it is tested on.
  func before(rank cutoff: Int) -> ReviewLog {
    var kept: [[Review]] = []
    for reviews in sequences {
      guard let last = reviews.lastIndex(where: { ($0.rank ?? .max) < cutoff }) else { continue }
      kept.append(
        reviews[...last].map { review in
          var review = review
          review.rank = nil
          return review
        })
    }
    return ReviewLog(sequences: kept)
  }
}
