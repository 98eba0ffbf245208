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

  package var topics: [TopicStats]
  package var mostMissed: [MissedForm]
  package var total: TopicStats

  package static let mostMissedLimit = 10

  /// Stats over `entries`, only those of `topicID` when given.
  package static func compute(_ entries: [HistoryEntry], topicID: String? = nil) -> HistoryStats {
    HistorySummary(entries).stats(topicID: topicID)
  }
}
