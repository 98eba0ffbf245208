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
    let chosen = topicID.map { id in entries.filter { $0.topicID == id } } ?? entries
    var order: [String] = []
    var byTopic: [String: [HistoryEntry]] = [:]
    for entry in chosen {
      if byTopic[entry.topicID] == nil { order.append(entry.topicID) }
      byTopic[entry.topicID, default: []].append(entry)
    }
    let topics = order.sorted().map { summarize($0, byTopic[$0]!) }

    struct FormKey: Hashable {
      var topicID: String
      var skill: Skill
      var expected: String
    }
    var forms: [FormKey: MissedForm] = [:]
    for entry in chosen {
      let key = FormKey(topicID: entry.topicID, skill: entry.skill, expected: entry.expected)
      var form = forms[key] ?? MissedForm(topicID: entry.topicID, skill: entry.skill, question: entry.question, expected: entry.expected, misses: 0, seen: 0, recentWrongAnswers: [])
      form.seen += 1
      if !entry.isCorrect {
        form.misses += 1
        if !entry.skipped { form.recentWrongAnswers = Array((form.recentWrongAnswers + [entry.given]).suffix(5)) }
      }
      forms[key] = form
    }
    let mostMissed = forms.values.filter { $0.misses > 0 }
      .sorted { a, b in
        a.misses != b.misses ? a.misses > b.misses : (a.topicID, a.expected, a.skill.rawValue) < (b.topicID, b.expected, b.skill.rawValue)
      }
      .prefix(mostMissedLimit)
    return HistoryStats(topics: topics, mostMissed: Array(mostMissed), total: summarize(topicID ?? "", chosen))
  }

  private static func summarize(_ topicID: String, _ entries: [HistoryEntry]) -> TopicStats {
    let answers = entries.filter { !$0.skipped }
    return TopicStats(
      topicID: topicID, answers: answers.count, correct: answers.filter(\.isCorrect).count, skipped: entries.count - answers.count,
      averageSeconds: answers.isEmpty ? 0 : answers.reduce(0) { $0 + $1.seconds } / Double(answers.count))
  }
}
