import Foundation

/// The Free Spaced Repetition Scheduler, version 6 (FSRS-6), with its published default
/// parameters: how well a learner remembers something (its stability, in days, and its
/// difficulty, 1–10), how that changes with each review, and when to review it next.
///
/// Written from the algorithm's published formulas (the FSRS-6 description in the
/// open-spaced-repetition project, "The Algorithm" on its wiki); `Tests/clients/fsrs_reference.py`
/// checks it against the reference implementation on PyPI (`fsrs`). Biki schedules reviews with
/// no learning steps: every review after the first is a review proper.
package struct FSRS: Sendable, Equatable {
  /// w₀…w₂₀. w₀–w₃: the first stability for each grade; w₄, w₅: the first difficulty; w₆, w₇:
  /// how difficulty moves and reverts; w₈–w₁₀: stability after a recall; w₁₁–w₁₄: after a lapse;
  /// w₁₅, w₁₆: the hard penalty and easy bonus; w₁₇–w₁₉: reviews on the same day; w₂₀: decay.
  package static let defaultParameters: [Double] = [
    0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614, 0.2629, 1.6483,
    0.6014, 1.8729,
    0.5425, 0.0912, 0.0658, 0.1542,
  ]

  var parameters: [Double]
  /// The probability of recall a review is scheduled for.
  var desiredRetention: Double
  var maximumInterval: Int

  package init(
    parameters: [Double] = FSRS.defaultParameters, desiredRetention: Double = 0.9, maximumInterval: Int = 36_500
  ) {
    self.parameters = parameters.count == 21 ? parameters : FSRS.defaultParameters
    self.desiredRetention = desiredRetention
    self.maximumInterval = maximumInterval
  }

  package enum Grade: Int, Sendable, CaseIterable {
    case again = 1
    case hard, good, easy
  }

  /// What is remembered of one thing.
  package struct Memory: Equatable, Sendable {
    /// Days until recall falls to 90%.
    package var stability: Double
    /// 1 (easy) to 10 (hard).
    package var difficulty: Double
  }

  static let minimumStability = 0.001

  private var w: [Double] { parameters }
  private var decay: Double { -w[20] }
  /// Chosen so that recall is 90% after `stability` days.
  private var factor: Double { pow(0.9, 1 / decay) - 1 }

  /// The probability of recall `elapsedDays` after the last review.
  func retrievability(_ memory: Memory, elapsedDays: Double) -> Double {
    pow(1 + factor * max(0, elapsedDays) / memory.stability, decay)
  }

  /// Memory after the first review.
  func first(_ grade: Grade) -> Memory {
    Memory(
      stability: max(w[grade.rawValue - 1], Self.minimumStability),
      difficulty: clampDifficulty(initialDifficulty(grade)))
  }

  /// Memory after a review `elapsedDays` after the one before. `sameDay`: whether it was on the
  /// same practice day (`PracticeDay`); by default, less than a day apart.
  func next(_ memory: Memory, _ grade: Grade, elapsedDays: Double, sameDay: Bool? = nil) -> Memory {
    let stability: Double
    if sameDay ?? (elapsedDays < 1) {
      stability = sameDayStability(memory.stability, grade)
    } else {
      let recall = retrievability(memory, elapsedDays: elapsedDays)
      stability =
        grade == .again
        ? lapseStability(memory, recall: recall) : recallStability(memory, recall: recall, grade: grade)
    }
    return Memory(
      stability: max(stability, Self.minimumStability), difficulty: nextDifficulty(memory.difficulty, grade))
  }

  /// Whole days until recall is expected to fall to `desiredRetention`: at least 1, at most
  /// `maximumInterval`.
  func interval(_ memory: Memory) -> Int {
    let days = (memory.stability / factor) * (pow(desiredRetention, 1 / decay) - 1)
    // Checked before converting: a stability read from a damaged summary may be any size.
    guard days.isFinite, days < Double(maximumInterval) else { return days.isNaN ? 1 : maximumInterval }
    return max(Int(days.rounded(.toNearestOrEven)), 1)
  }

  private func initialDifficulty(_ grade: Grade) -> Double {
    w[4] - exp(w[5] * Double(grade.rawValue - 1)) + 1
  }

  private func clampDifficulty(_ difficulty: Double) -> Double { min(max(difficulty, 1), 10) }

  private func nextDifficulty(_ difficulty: Double, _ grade: Grade) -> Double {
    let change = -w[6] * Double(grade.rawValue - 3)
    // Linear damping: the harder it already is, the less it can grow.
    let damped = difficulty + (10 - difficulty) * change / 9
    // Mean reversion towards the first difficulty of an easy review.
    return clampDifficulty(w[7] * initialDifficulty(.easy) + (1 - w[7]) * damped)
  }

  private func recallStability(_ memory: Memory, recall: Double, grade: Grade) -> Double {
    let hardPenalty = grade == .hard ? w[15] : 1
    let easyBonus = grade == .easy ? w[16] : 1
    return memory.stability
      * (1 + exp(w[8]) * (11 - memory.difficulty) * pow(memory.stability, -w[9]) * (exp((1 - recall) * w[10]) - 1)
        * hardPenalty * easyBonus)
  }

  private func lapseStability(_ memory: Memory, recall: Double) -> Double {
    let longTerm =
      w[11] * pow(memory.difficulty, -w[12]) * (pow(memory.stability + 1, w[13]) - 1) * exp((1 - recall) * w[14])
    let shortTerm = memory.stability / exp(w[17] * w[18])
    return min(longTerm, shortTerm)
  }

  private func sameDayStability(_ stability: Double, _ grade: Grade) -> Double {
    var increase = exp(w[17] * (Double(grade.rawValue) - 3 + w[18])) * pow(stability, -w[19])
    if grade != .again { increase = max(increase, 1) }
    return stability * increase
  }
}
