import Foundation

/// FSRS-6's memory model as a function of its 21 parameters, for fitting them: the recall it
/// predicts for each review of a form, the log loss of those predictions, and that loss's
/// derivative by every parameter.
///
/// The derivative is worked out by hand in reverse (from the last review of a form back to its
/// first), so a fit costs a few dozen arithmetic operations per review rather than one pass per
/// parameter. `MemoryModelTests` holds it to finite differences, and the forward pass to `FSRS`.
/// Stability is kept within 0.001–36,500 days and difficulty within 1–10, as FSRS's optimizer
/// keeps them; where a bound holds, the derivative through it is zero.
struct MemoryModel {
  let w: [Double]
  private let decay: Double
  private let factor: Double
  /// d factor / d decay, for the derivative by w₂₀.
  private let factorByDecay: Double
  /// The first difficulty of an easy review, unclamped: what difficulty reverts towards.
  private let revertTarget: Double

  static let stabilityRange = 0.001...36_500.0
  static let difficultyRange = 1.0...10.0
  /// Predictions are kept this far from 0 and 1 for the loss, as FSRS's optimizer keeps them.
  static let probabilityFloor = 1e-7

  init(_ parameters: [Double]) {
    w = parameters
    decay = -parameters[20]
    let scaled = exp(log(0.9) / decay)
    factor = scaled - 1
    factorByDecay = scaled * (-log(0.9) / (decay * decay))
    revertTarget = parameters[4] - exp(3 * parameters[5]) + 1
  }

  struct State {
    var stability: Double
    var difficulty: Double
  }

  func recall(elapsedDays t: Double, stability s: Double) -> Double {
    pow(1 + factor * max(0, t) / s, decay)
  }

  func first(_ grade: FSRS.Grade) -> State {
    State(
      stability: Self.clamp(w[grade.rawValue - 1], Self.stabilityRange),
      difficulty: Self.clamp(w[4] - exp(w[5] * Double(grade.rawValue - 1)) + 1, Self.difficultyRange))
  }

  /// The state after a review `t` days after the one that left `state`, before clamping;
  /// `sameDay` by default when less than a day passed.
  /// `knownRecall`: the recall at `t`, when the caller has worked it out already.
  func stepUnclamped(
    _ state: State, _ grade: FSRS.Grade, elapsedDays t: Double, sameDay: Bool? = nil, knownRecall: Double? = nil
  ) -> State {
    let s = state.stability
    let d = state.difficulty
    let g = Double(grade.rawValue)
    let stability: Double
    if sameDay ?? (t < 1) {
      let increase = exp(w[17] * (g - 3 + w[18])) * pow(s, -w[19])
      stability = s * (grade == .again ? increase : max(increase, 1))
    } else {
      let r = knownRecall ?? recall(elapsedDays: t, stability: s)
      if grade == .again {
        let longTerm = w[11] * pow(d, -w[12]) * (pow(s + 1, w[13]) - 1) * exp((1 - r) * w[14])
        stability = min(longTerm, s / exp(w[17] * w[18]))
      } else {
        stability = s * (1 + successGrowth(s: s, d: d, r: r, grade: grade))
      }
    }
    let damped = d + (10 - d) * (-w[6] * (g - 3)) / 9
    return State(stability: stability, difficulty: w[7] * revertTarget + (1 - w[7]) * damped)
  }

  func step(_ state: State, _ grade: FSRS.Grade, elapsedDays t: Double, sameDay: Bool? = nil) -> State {
    let next = stepUnclamped(state, grade, elapsedDays: t, sameDay: sameDay)
    return State(
      stability: Self.clamp(next.stability, Self.stabilityRange),
      difficulty: Self.clamp(next.difficulty, Self.difficultyRange))
  }

  /// The factor stability grows by after a recall, less one.
  private func successGrowth(s: Double, d: Double, r: Double, grade: FSRS.Grade) -> Double {
    exp(w[8]) * (11 - d) * pow(s, -w[9]) * (exp((1 - r) * w[10]) - 1) * bonus(grade)
  }

  private func bonus(_ grade: FSRS.Grade) -> Double {
    grade == .hard ? w[15] : grade == .easy ? w[16] : 1
  }

  static func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double {
    min(max(value, range.lowerBound), range.upperBound)
  }

  /// The recall predicted for each prediction of `reviews`, with whether it was recalled.
  func predictions(_ reviews: [ReviewLog.Review]) -> [(rank: Int, recall: Double, recalled: Bool)] {
    guard let firstReview = reviews.first else { return [] }
    var state = first(firstReview.grade)
    var found: [(rank: Int, recall: Double, recalled: Bool)] = []
    for review in reviews.dropFirst() {
      if let rank = review.rank {
        found.append(
          (rank, recall(elapsedDays: review.elapsedDays, stability: state.stability), review.grade != .again))
      }
      state = step(state, review.grade, elapsedDays: review.elapsedDays, sameDay: review.isSameDay)
    }
    return found
  }

  /// What the backward pass needs of each review's step: the state after it, whether a bound
  /// held it, and the loss's own derivative by the recall it predicted.
  private struct Step {
    var state: State
    var heldStability: Bool
    var heldDifficulty: Bool
    var lossByRecall: Double
    /// The recall the review before predicted for this one (1 for the first).
    var recall: Double
  }

  /// The weighted log loss of one form's predictions, summed, with its derivative by each
  /// parameter added to `gradient`. `weight` gives each prediction's weight by its rank.
  func lossAndGradient(
    _ reviews: ArraySlice<ReviewLog.Review>, weight: (Int) -> Double, gradient: inout [Double]
  ) -> Double {
    guard let firstReview = reviews.first, reviews.count > 1 else { return 0 }
    let grade = firstReview.grade.rawValue
    // Forward: every state, and whether a bound held it.
    let start = first(firstReview.grade)
    var steps = [
      Step(
        state: start, heldStability: w[grade - 1] != start.stability,
        heldDifficulty: w[4] - exp(w[5] * Double(grade - 1)) + 1 != start.difficulty, lossByRecall: 0, recall: 1)
    ]
    steps.reserveCapacity(reviews.count)
    var loss = 0.0
    for review in reviews.dropFirst() {
      let before = steps[steps.count - 1].state
      var slope = 0.0
      let r = recall(elapsedDays: review.elapsedDays, stability: before.stability)
      if let rank = review.rank {
        let (term, byRecall) = Self.logLoss(r, recalled: review.grade != .again, weight: weight(rank))
        loss += term
        slope = byRecall
      }
      let raw = stepUnclamped(
        before, review.grade, elapsedDays: review.elapsedDays, sameDay: review.isSameDay, knownRecall: r)
      let next = State(
        stability: Self.clamp(raw.stability, Self.stabilityRange),
        difficulty: Self.clamp(raw.difficulty, Self.difficultyRange))
      steps.append(
        Step(
          state: next, heldStability: raw.stability != next.stability,
          heldDifficulty: raw.difficulty != next.difficulty,
          lossByRecall: slope, recall: r))
    }

    // Backward: the loss's derivative by each state, from the last review to the first.
    var byStability = 0.0
    var byDifficulty = 0.0
    for index in stride(from: steps.count - 1, to: 0, by: -1) {
      let step = steps[index]
      if step.heldStability { byStability = 0 }
      if step.heldDifficulty { byDifficulty = 0 }
      let back = stepBackward(
        steps[index - 1].state, reviews[reviews.startIndex + index], byStability: byStability,
        byDifficulty: byDifficulty, byRecall: step.lossByRecall, recall: step.recall, gradient: &gradient)
      byStability = back.stability
      byDifficulty = back.difficulty
    }
    if !steps[0].heldStability { gradient[grade - 1] += byStability }
    if !steps[0].heldDifficulty {
      gradient[4] += byDifficulty
      gradient[5] += byDifficulty * -Double(grade - 1) * exp(w[5] * Double(grade - 1))
    }
    return loss
  }

  /// The weighted log loss of predicting `r`, and its derivative by `r`.
  static func logLoss(_ r: Double, recalled: Bool, weight: Double) -> (loss: Double, byRecall: Double) {
    let p = clamp(r, probabilityFloor...(1 - probabilityFloor))
    let held = p != r
    if recalled { return (-weight * log(p), held ? 0 : -weight / p) }
    return (-weight * log(1 - p), held ? 0 : weight / (1 - p))
  }

  /// Carries the derivatives by the state after `review` back to the state before it, adding
  /// the derivatives by the parameters the step used. `byRecall` is the loss's own derivative by
  /// this review's predicted recall.
  private func stepBackward(
    _ state: State, _ review: ReviewLog.Review, byStability gS: Double, byDifficulty gD: Double,
    byRecall: Double, recall r: Double, gradient g: inout [Double]
  ) -> State {
    let s = state.stability
    let d = state.difficulty
    let t = review.elapsedDays
    let grade = review.grade
    let rating = Double(grade.rawValue)
    var backS = 0.0
    var backD = 0.0
    var gR = byRecall

    if review.isSameDay {
      let increase = exp(w[17] * (rating - 3 + w[18])) * pow(s, -w[19])
      if grade != .again && increase < 1 {
        backS += gS
      } else {
        let out = s * increase
        backS += gS * increase * (1 - w[19])
        g[17] += gS * out * (rating - 3 + w[18])
        g[18] += gS * out * w[17]
        g[19] += gS * out * -log(s)
      }
    } else if grade == .again {
      let fading = exp((1 - r) * w[14])
      let longTerm = w[11] * pow(d, -w[12]) * (pow(s + 1, w[13]) - 1) * fading
      let floor = s / exp(w[17] * w[18])
      if longTerm < floor {
        g[11] += gS * longTerm / w[11]
        g[12] += gS * longTerm * -log(d)
        backD += gS * longTerm * -w[12] / d
        let scale = w[11] * pow(d, -w[12]) * fading
        g[13] += gS * scale * pow(s + 1, w[13]) * log(s + 1)
        backS += gS * scale * w[13] * pow(s + 1, w[13] - 1)
        g[14] += gS * longTerm * (1 - r)
        gR += gS * longTerm * -w[14]
      } else {
        backS += gS / exp(w[17] * w[18])
        g[17] += gS * -w[18] * floor
        g[18] += gS * -w[17] * floor
      }
    } else {
      let surprise = exp((1 - r) * w[10])
      let core = exp(w[8]) * (11 - d) * pow(s, -w[9])
      let growth = core * (surprise - 1) * bonus(grade)
      g[8] += gS * s * growth
      backD += gS * -s * growth / (11 - d)
      g[9] += gS * s * growth * -log(s)
      g[10] += gS * s * core * bonus(grade) * surprise * (1 - r)
      gR += gS * s * core * bonus(grade) * surprise * -w[10]
      if grade == .hard { g[15] += gS * s * core * (surprise - 1) }
      if grade == .easy { g[16] += gS * s * core * (surprise - 1) }
      backS += gS * (1 + growth * (1 - w[9]))
    }

    if gR != 0, t > 0 {
      let base = 1 + factor * t / s
      backS += gR * r * decay / base * (-factor * t / (s * s))
      let byDecay = r * (log(base) + decay / base * (t / s) * factorByDecay)
      g[20] -= gR * byDecay
    }

    let change = -w[6] * (rating - 3)
    let damped = d + (10 - d) * change / 9
    backD += gD * (1 - w[7]) * (1 - change / 9)
    g[6] += gD * (1 - w[7]) * (10 - d) / 9 * -(rating - 3)
    g[7] += gD * (revertTarget - damped)
    g[4] += gD * w[7]
    g[5] += gD * w[7] * -3 * exp(3 * w[5])
    return State(stability: backS, difficulty: backD)
  }
}
