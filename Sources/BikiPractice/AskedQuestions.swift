import BikiCore
import BikiJapanese

/// A question as the history remembers it: enough to make it again (its topic and seed) and to
/// tell whether what is made is the same question (its prompt).
package struct AskedQuestion: Hashable, Sendable {
  package var topicID: String
  package var seed: UInt64
  package var skill: Skill
  package var prompt: String
  package var forms: [ReadingForm]

  init(_ entry: HistoryEntry) {
    topicID = entry.topicID
    seed = entry.seed
    skill = entry.skill
    prompt = entry.prompt
    forms = entry.forms
  }

  struct Key: Hashable {
    var topicID: String
    var seed: UInt64
    var skill: Skill
  }

  var key: Key { Key(topicID: topicID, seed: seed, skill: skill) }
}

/// Which questions of a history to bring back: the ones missed, and the ones whose forms are due.
package enum AskedQuestions {
  /// Questions answered wrong (at any attempt) or skipped at or after `since` (seconds since
  /// 1970), each once, in the order they were first missed.
  package static func missed(_ entries: [HistoryEntry], since: Double) -> [AskedQuestion] {
    var seen = Set<AskedQuestion.Key>()
    var found: [AskedQuestion] = []
    for entry in entries where entry.at >= since && !entry.isCorrect {
      let question = AskedQuestion(entry)
      if seen.insert(question.key).inserted { found.append(question) }
    }
    return found
  }

  /// Questions whose latest answer was wrong or skipped, and questions last asked for a form
  /// that is due at `now`: what a learner would carry into another tool to review. Oldest first.
  package static func missedOrDue(_ entries: [HistoryEntry], summary: HistorySummary, now: Double) -> [AskedQuestion] {
    let due = Set(
      summary.recall(now: now).filter { $0.due <= now }.map { HistorySummary.MemoryKey(skill: $0.skill, rule: $0.rule) }
    )
    var latest: [AskedQuestion.Key: (question: AskedQuestion, missed: Bool, order: Int)] = [:]
    // The question each due form was last asked through.
    var lastForForm: [HistorySummary.MemoryKey: AskedQuestion.Key] = [:]
    for (order, entry) in entries.enumerated() {
      let question = AskedQuestion(entry)
      let first = latest[question.key]?.order ?? order
      // A later attempt at a question missed at first does not make it right.
      let missed = !entry.isCorrect || (!entry.isFirstAttempt && latest[question.key]?.missed == true)
      latest[question.key] = (question, missed, first)
      for form in entry.forms {
        lastForForm[HistorySummary.MemoryKey(skill: entry.skill, rule: form.rule)] = question.key
      }
    }
    let dueQuestions = Set(due.compactMap { lastForForm[$0] })
    return latest.values.filter { $0.missed || dueQuestions.contains($0.question.key) }.sorted { $0.order < $1.order }
      .map(\.question)
  }

  /// Each question made again from its topic and seed, kept only if it is the question that was
  /// asked (a topic since changed, gone, or asked with other options makes another); what could
  /// not be made, said in a few words each.
  package static func remade(_ asked: [AskedQuestion], generators: [String: QuestionGenerator]) -> (
    made: [(asked: AskedQuestion, question: Question)], unmade: [String]
  ) {
    var made: [(asked: AskedQuestion, question: Question)] = []
    var unmade: [String] = []
    for question in asked {
      guard let generator = generators[question.topicID] else {
        unmade.append("\(question.topicID) is not loaded")
        continue
      }
      guard let again = try? generator.question(seed: question.seed),
        again.prompt(for: question.skill) == question.prompt
      else {
        unmade.append("\(question.topicID) no longer asks “\(question.prompt)” from seed \(question.seed)")
        continue
      }
      made.append((question, again))
    }
    return (made, unmade)
  }
}

extension ReviewPlan {
  /// The questions given, in order, as a plan a `rounds` session asks.
  package static func again(_ questions: [AskedQuestion]) -> ReviewPlan {
    ReviewPlan(
      picks: questions.map { Pick(topicID: $0.topicID, index: $0.seed, rule: nil, reason: .missed) })
  }
}
