import BikiCore
import BikiJapanese

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
    /// The rule, and where the learner last missed it, or met it while never missed
    /// (`本/final:8`).
    package var rule: String
    package var example: String
    /// The example as the learner reads it: 8本 はっぽん.
    package var label: String { SoundChangeNote.example(forID: example) ?? example }
    package var memory: FSRS.Memory
    /// The probability of recall now: right after any review, right or wrong, it is 100 %, so
    /// it says when to review, not how well a form is known (see `state`).
    package var recall: Double
    /// When it is due for review, in seconds since 1970.
    package var due: Double
    package var reviews: Int
    package var lapses: Int
    /// The probability of recall a week from now, by the memory the reviews built: what a
    /// learner can count on, and what `state` is judged by.
    package var recallInAWeek: Double

    /// How well the form is known: the one definition stats, the report, the editors and
    /// review mode all use.
    package var state: FormState { FormState(recallInAWeek: recallInAWeek, reviews: reviews, lapses: lapses) }
  }

  /// How well a form is known, from the scheduler's memory, not from recall right now.
  package enum FormState: String, Sendable, CaseIterable {
    /// Likely forgotten within a week, or missed in at least half its reviews.
    case weak
    /// Likely remembered a week from now, but not surely.
    case fading
    /// Remembered a week from now with at least 90 % likelihood.
    case known

    static let knownRecall = 0.9
    static let fadingRecall = 0.7

    init(recallInAWeek: Double, reviews: Int, lapses: Int) {
      if lapses * 2 >= reviews || recallInAWeek < Self.fadingRecall {
        self = .weak
      } else {
        self = recallInAWeek < Self.knownRecall ? .fading : .known
      }
    }
  }

  package var topics: [TopicStats]
  package var mostMissed: [MissedForm]
  package var total: TopicStats
  /// Forms, weakest first (by recall a week from now).
  package var forms: [FormRecall] = []

  static let mostMissedLimit = 10

  /// Stats over `entries`, only those of `topicID` when given.
  package static func compute(_ entries: [HistoryEntry], topicID: String? = nil, now: Double = 0) -> HistoryStats {
    HistorySummary(entries).stats(topicID: topicID, now: now)
  }
}
