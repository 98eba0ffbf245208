import BikiCore
import BikiJapanese

/// A review session's questions: the forms due for review first (the longest overdue first),
/// then the weak ones (lowest recall first), then forms never practised, each asked through a
/// question that exercises it, from any topic that has it. A pure function of the summary, the
/// topics, the time and the seed, so a review replays from its seed and the history.
package struct ReviewPlan: Sendable {
  package enum Reason: String, Sendable {
    case due, weak, new
    /// No form left to review: more questions from the topics, to fill the session.
    case more
    /// Missed before, and asked again until right.
    case missed
  }

  package struct Pick: Sendable {
    var topicID: String
    package var index: UInt64
    package var rule: String?
    package var reason: Reason
  }

  package var picks: [Pick]

  /// How many questions of each topic are looked at to find which forms it exercises.
  static let scanLimit: UInt64 = 240
  package static func make(
    summary: HistorySummary, skill: Skill, generators: [QuestionGenerator], now: Double, seed: UInt64, count: Int
  ) -> ReviewPlan {
    // Where each rule can be asked: the first question found for it, topics in the order given.
    var places: [String: (topicID: String, index: UInt64)] = [:]
    var ruleOrder: [String] = []
    var others: [(topicID: String, index: UInt64)] = []
    for generator in generators where generator.topic.skills.contains(skill) {
      // Every question once, whatever the topic favours: this looks for a place to ask each form.
      var order = QuestionOrder(count: generator.spaceSize, seed: seed)
      for _ in 0..<min(scanLimit, generator.spaceSize) {
        let index = order.next()
        var placed = false
        for form in generator.forms(seed: index) where places[form.rule] == nil {
          places[form.rule] = (generator.topic.id, index)
          ruleOrder.append(form.rule)
          placed = true
        }
        if !placed { others.append((generator.topic.id, index)) }
      }
    }
    let recall = Dictionary(
      summary.recall(now: now, skill: skill).map { ($0.rule, $0) }, uniquingKeysWith: { first, _ in first })
    let due = ruleOrder.compactMap { rule in recall[rule].flatMap { $0.due <= now ? (rule, $0.due) : nil } }.sorted {
      ($0.1, $0.0) < ($1.1, $1.0)
    }
    .map(\.0)
    let dueSet = Set(due)
    // Weak as stats call it (`FormState`): what the learner is shown as weak comes next; a
    // fading form waits until it is due.
    let weak = ruleOrder.compactMap { rule -> (String, Double)? in
      guard !dueSet.contains(rule), let known = recall[rule], known.state == .weak else { return nil }
      return (rule, known.recallInAWeek)
    }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
    let new = ruleOrder.filter { recall[$0] == nil }

    var picks: [Pick] = []
    for (rules, reason) in [(due, Reason.due), (weak, .weak), (new, .new)] {
      for rule in rules where picks.count < count {
        guard let place = places[rule] else { continue }
        picks.append(Pick(topicID: place.topicID, index: place.index, rule: rule, reason: reason))
      }
    }
    for place in others where picks.count < count {
      picks.append(Pick(topicID: place.topicID, index: place.index, rule: nil, reason: .more))
    }
    return ReviewPlan(picks: picks)
  }

  /// The plan as a generator: its questions in plan order, each from its own topic and keeping
  /// that topic's seed.
  package func generator(topic: Topic, generators: [QuestionGenerator]) -> QuestionGenerator? {
    guard !picks.isEmpty else { return nil }
    let byID = Dictionary(generators.map { ($0.topic.id, $0) }, uniquingKeysWith: { first, _ in first })
    return QuestionGenerator(PlannedQuestions(topic: topic, picks: picks, sources: byID))
  }
}

/// A review's questions: its picks in plan order, each made by its own topic's source, at once
/// when that source can give it at once.
private struct PlannedQuestions: QuestionSource {
  let topic: Topic
  let picks: [ReviewPlan.Pick]
  let sources: [String: QuestionGenerator]

  var spaceSize: UInt64 { UInt64(picks.count) }
  var isPlanned: Bool { true }

  private func pick(_ index: UInt64) -> ReviewPlan.Pick { picks[Int(index % UInt64(picks.count))] }

  private func source(_ pick: ReviewPlan.Pick) throws(GenerationError) -> QuestionGenerator {
    guard let source = sources[pick.topicID] else {
      throw GenerationError(topicID: pick.topicID, reason: "the topic is no longer loaded")
    }
    return source
  }

  func question(at index: UInt64) throws(GenerationError) -> Question {
    let pick = pick(index)
    return try source(pick).question(seed: pick.index)
  }

  func questionAtHand(_ index: UInt64) -> Result<Question, GenerationError>? {
    let pick = pick(index)
    do {
      return try source(pick).questionAtHand(seed: pick.index)
    } catch {
      return .failure(error)
    }
  }

  func forms(at index: UInt64) -> [ReadingForm]? {
    let pick = pick(index)
    return sources[pick.topicID]?.forms(seed: pick.index) ?? []
  }
}
