import BikiCore
import BikiJapanese
import BikiPractice
import Foundation

/// Does review mode teach faster? A simulated learner drills one topic, 20 questions a day, in
/// one of two ways: the topic's own no-repeat order, or review sessions planned from the
/// learner's history. It stops when every form the topic exercises would be recalled with
/// probability at least 0.9 the next day; the figure is how many questions that took.
///
/// The learner (hidden from Biki, which sees only answers):
/// - each rule r (what a form's memory is keyed by) has a strength s_r in days, and is recalled
///   after Δt days with probability 0.9^(Δt / s_r): at Δt = s_r recall is 90%;
/// - the learner already knows most forms (s = 365 days) but five start weak (s = 0.02 days);
/// - a question is answered right when every rule it exercises is recalled (questions with no
///   form always are);
/// - practice raises strength either way: a rule recalled triples it; one not recalled is shown
///   the answer and comes away with half as much again, and at least 0.2 days.
struct LearnerBench {
  let generator: QuestionGenerator
  static let perDay = 20
  static let learners = 100
  static let dayLimit = 400

  enum Way { case inOrder, review }

  func run() -> [String] {
    var inOrder: [Int] = []
    var review: [Int] = []
    var agreement = Agreement()
    for learner in 0..<Self.learners {
      inOrder.append(questionsToLearn(way: .inOrder, seed: UInt64(learner), agreement: &agreement))
      review.append(questionsToLearn(way: .review, seed: UInt64(learner), agreement: &agreement))
    }
    func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
    let ratio = Double(median(review)) / Double(median(inOrder))
    func share(_ part: Int, _ whole: Int) -> String {
      whole == 0 ? "-" : "\(Int((Double(part) / Double(whole) * 100).rounded()))%"
    }
    return [
      "learner.\(generator.topic.id): no-repeat order \(median(inOrder)) questions, review \(median(review)) questions (median of \(Self.learners) learners; review/order \(String(format: "%.2f", ratio)), target ≤ 0.5: \(ratio <= 0.5 ? "met" : "NOT met"))  [means \(inOrder.reduce(0, +) / inOrder.count) and \(review.reduce(0, +) / review.count)]",
      "learner.\(generator.topic.id).stats: after the first day, stats call \(share(agreement.weakShownWeak, agreement.weakMet)) of the truly weak forms met weak and \(share(agreement.knownShownWeak, agreement.knownMet)) of the truly known ones; review mode's weak picks are stats' weak forms in \(share(agreement.plansAgreeing, agreement.plans)) of plans  [\(agreement.weakMet) weak and \(agreement.knownMet) known forms met]",
    ]
  }

  /// What stats said of the forms a simulated learner met on their first day, against the
  /// learner's hidden truth, and whether review mode's weak picks were the forms stats call weak.
  struct Agreement {
    var weakMet = 0, weakShownWeak = 0, knownMet = 0, knownShownWeak = 0
    var plans = 0, plansAgreeing = 0
  }

  /// The rules the topic's questions exercise, in a stable order.
  var rules: [String] {
    var found: [String] = []
    for index in 0..<generator.spaceSize {
      for form in generator.forms(seed: index) where !found.contains(form.rule) { found.append(form.rule) }
    }
    return found
  }

  func questionsToLearn(way: Way, seed: UInt64, agreement: inout Agreement) -> Int {
    var random = SeededRandom(seed: seed &* 7919 &+ 11)
    let rules = self.rules
    // Five weak rules, chosen by the learner's seed; the rest known.
    var weak = Set<String>()
    var pool = rules
    while weak.count < min(5, rules.count) { weak.insert(pool.remove(at: Int(random.next() % UInt64(pool.count)))) }
    var strength = Dictionary(uniqueKeysWithValues: rules.map { ($0, weak.contains($0) ? 0.02 : 365.0) })
    var lastPractice = Dictionary(uniqueKeysWithValues: rules.map { ($0, -1000.0) })
    func recall(_ rule: String, at day: Double) -> Double {
      pow(0.9, max(0, day - lastPractice[rule, default: -1000]) / strength[rule, default: 365])
    }

    var summary = HistorySummary()
    var order = generator.order(seed: seed)
    var asked = 0
    let start = 1_800_000_000.0
    for day in 0..<Self.dayLimit {
      let today = Double(day)
      let indices: [UInt64]
      switch way {
      case .inOrder: indices = (0..<Self.perDay).map { _ in order.next() }
      case .review:
        let plan = ReviewPlan.make(
          summary: summary, skill: .kana, generators: [generator], now: start + today * 86_400,
          seed: seed &+ UInt64(day), count: Self.perDay)
        indices = plan.picks.map(\.index)
      }
      for (offset, index) in indices.enumerated() {
        guard let question = try? generator.questionWithForms(seed: index) else { continue }
        let now = today + Double(offset) * 30 / 86_400
        let exercised = Set(question.forms.map(\.rule))
        var right = true
        for rule in exercised.sorted() {
          let recalled = Double(random.next() % 1_000_000) / 1_000_000 < recall(rule, at: now)
          let known = strength[rule, default: 365]
          strength[rule] = recalled ? known * 3 : max(known * 1.5, 0.2)
          lastPractice[rule] = now
          if !recalled { right = false }
        }
        summary.add(
          HistoryEntry(
            Session.AnswerRecord(
              topicID: generator.topic.id, seed: index, skill: .kana, prompt: question.display,
              expected: question.reading.standard, given: right ? question.reading.standard : "", isCorrect: right,
              seconds: 30,
              forms: question.forms), at: start + now * 86_400))
        asked += 1
      }
      if day == 0 {
        // The first day's forms as stats show them, against the learner's truth (weak forms
        // start at s = 0.02 days and need practice; the rest are known).
        let shown = summary.stats(now: start + 86_400).forms
        for form in shown {
          if weak.contains(form.rule) {
            agreement.weakMet += 1
            if form.state == .weak { agreement.weakShownWeak += 1 }
          } else {
            agreement.knownMet += 1
            if form.state == .weak { agreement.knownShownWeak += 1 }
          }
        }
        if way == .review {
          let plan = ReviewPlan.make(
            summary: summary, skill: .kana, generators: [generator], now: start + 86_400, seed: seed, count: Self.perDay
          )
          let picked = Set(plan.picks.filter { $0.reason == .weak }.compactMap(\.rule))
          let dueNow = Set(shown.filter { $0.due <= start + 86_400 }.map(\.rule))
          let weakShown = Set(shown.filter { $0.state == .weak }.map(\.rule)).subtracting(dueNow)
          agreement.plans += 1
          // Every pick of a weak form is a form stats show weak; all of them, room permitting.
          if picked.isSubset(of: weakShown) && (picked == weakShown || plan.picks.count == Self.perDay) {
            agreement.plansAgreeing += 1
          }
        }
      }
      if rules.allSatisfy({ recall($0, at: today + 1) >= 0.9 }) { return asked }
    }
    return asked
  }
}
