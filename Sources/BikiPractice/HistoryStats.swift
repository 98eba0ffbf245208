import BikiCore

/// Accuracy over the answer history: per topic, and the forms missed most often, so a learner
/// sees which readings to drill.
package struct HistoryStats: Equatable, Sendable {
  package struct TopicStats: Equatable, Sendable {
    package var topicID: String
    /// Answers given (each attempt counts), skips apart.
    package var answers: Int
    package var correct: Int
    package var skipped: Int
    package var averageSeconds: Double

    /// Correct answers over answers and skips; nil before any.
    package var accuracy: Double? { answers + skipped == 0 ? nil : Double(correct) / Double(answers + skipped) }
  }

  /// One answer form (`8本`, `はっぽん`) in one topic and skill.
  package struct MissedForm: Equatable, Sendable {
    package var topicID: String
    package var skill: Skill
    package var question: String
    package var expected: String
    /// Wrong answers and skips.
    package var misses: Int
    /// Every time it was answered or skipped.
    package var seen: Int
    /// The wrong answers given, most recent last (at most five).
    package var recentWrongAnswers: [String]
  }

  /// How well one form is remembered, by FSRS, for one skill.
  package struct FormRecall: Equatable, Sendable {
    package var skill: Skill
    /// The rule, and where the learner last met it (`本/final:8`).
    package var rule: String
    package var example: String
    package var memory: FSRS.Memory
    /// The probability of recall now.
    package var recall: Double
    /// When it is due for review, in seconds since 1970.
    package var due: Double
    package var reviews: Int
    package var lapses: Int
  }

  package var topics: [TopicStats]
  package var mostMissed: [MissedForm]
  package var total: TopicStats
  /// Forms by recall, weakest first.
  package var forms: [FormRecall] = []

  package static let mostMissedLimit = 10

  /// Stats over `entries`, only those of `topicID` when given.
  package static func compute(_ entries: [HistoryEntry], topicID: String? = nil, now: Double = 0) -> HistoryStats {
    HistorySummary(entries).stats(topicID: topicID, now: now)
  }
}
