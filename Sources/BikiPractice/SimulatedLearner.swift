import BikiCore
import BikiJapanese
import Foundation

/// A learner whose memory follows FSRS with parameters of its own, not the defaults: it forgets
/// new forms faster, gains less from each recall and forgets along a steeper curve. Each day it
/// meets a few new forms and reviews those a scheduler says are due, sometimes a day or two
/// late, at some hour of the day; whether it recalls is drawn from its own model's recall.
/// For tests and `biki-bench`: what a fit must find, and a history of any size.
package struct SimulatedLearner: Sendable {
  package static let parameters: [Double] = [
    1.2, 1.2931, 4.5, 8.2956, 7.5, 0.8334, 1.5, 0.05, 0.8, 0.3, 0.6, 1.0, 0.1, 0.4, 1.0,
    0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.5,
  ]

  package var newPerDay = 12
  package var forms = 1_200
  package var seed: UInt64 = 11
  /// Every review at the start of its day, so delays are whole days as Anki records them.
  package var wholeDays = false

  /// How often a review is late (by up to two days).
  package var lateness = 0.3

  package init(
    newPerDay: Int = 12, forms: Int = 1_200, seed: UInt64 = 11, wholeDays: Bool = false, lateness: Double = 0.3
  ) {
    self.lateness = lateness
    self.newPerDay = newPerDay
    self.forms = forms
    self.seed = seed
    self.wholeDays = wholeDays
  }

  package struct Outcome: Sendable {
    package var log: ReviewLog
    /// Per day: how many reviews were first reviews of the day of a form already learnt, and
    /// how many of those were recalled.
    package var dailyReturns: [(reviews: Int, recalled: Int)]
  }

  /// `days` of practice, each form scheduled by `scheduler` from what it believes of the form.
  package func practise(days: Int, scheduler: FSRS) -> Outcome {
    var random = SeededRandom(seed: seed)
    func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
    let truth = MemoryModel(Self.parameters)
    let believed = scheduler
    struct Form {
      var reviews: [ReviewLog.Review] = []
      var truth: MemoryModel.State
      var believed: FSRS.Memory
      var last: Double
      var due: Double
    }
    var known: [Form] = []
    var daily: [(reviews: Int, recalled: Int)] = []
    for day in 0..<days {
      var returns = (reviews: 0, recalled: 0)
      for index in known.indices where known[index].due <= Double(day) + 0.99 {
        // Some days the learner is late.
        let late = uniform() < lateness ? Double(Int(uniform() * 3)) : 0
        guard known[index].due + late <= Double(day) + 0.99 else { continue }
        let hour = uniform()
        let at = Double(day) + (wholeDays ? 0 : 0.25 + hour * 0.5)
        var form = known[index]
        let elapsed = at - form.last
        let days = PracticeDay.utc.days(from: form.last * 86_400, to: at * 86_400)
        let recall = truth.recall(elapsedDays: elapsed, stability: form.truth.stability)
        let recalled = uniform() < recall
        let grade: FSRS.Grade = recalled ? .good : .again
        returns.reviews += 1
        if recalled { returns.recalled += 1 }
        form.reviews.append(ReviewLog.Review(grade: grade, elapsedDays: elapsed, day: at, days: days))
        form.truth = truth.step(form.truth, grade, elapsedDays: elapsed, sameDay: days == 0)
        form.believed = believed.next(form.believed, grade, elapsedDays: elapsed, sameDay: days == 0)
        form.last = at
        form.due = at + Double(believed.interval(form.believed))
        known[index] = form
      }
      daily.append(returns)
      for _ in 0..<newPerDay where known.count < forms {
        let hour = uniform()
        let at = Double(day) + (wholeDays ? 0 : 0.2 + hour * 0.5)
        // Learnt on first sight most of the time, as a drill's first question often is.
        let grade: FSRS.Grade = uniform() < 0.7 ? .good : .again
        let truthState = truth.first(grade)
        let memory = believed.first(grade)
        known.append(
          Form(
            reviews: [ReviewLog.Review(grade: grade, elapsedDays: 0, day: at)], truth: truthState, believed: memory,
            last: at, due: at + Double(believed.interval(memory))))
      }
    }
    return Outcome(log: ReviewLog(sequences: known.map(\.reviews)), dailyReturns: daily)
  }
}

extension ReviewLog {
  /// The log as a history would hold it, oldest first, day 0 being `start` (seconds since 1970):
  /// each form a rule of its own (`sim/0`, `sim/1` …) in a topic `sim`, read as kana.
  package func historyEntries(start: Double) -> [HistoryEntry] {
    var entries: [HistoryEntry] = []
    for (form, reviews) in sequences.enumerated() {
      for review in reviews {
        let right = review.grade != .again
        let record = Session.AnswerRecord(
          topicID: "sim", seed: UInt64(form), skill: .kana, prompt: "form \(form)", expected: "かな",
          given: right ? "かな" : "まちがい", isCorrect: right, seconds: 3, forms: [ReadingForm(id: "sim/\(form)")])
        entries.append(HistoryEntry(record, at: start + review.day * 86_400))
      }
    }
    return entries.sorted { $0.at < $1.at }
  }
}
