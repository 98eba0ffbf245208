import Foundation

/// Each form's first return: the first review at least a day after its first, by the grade of
/// that first review and the whole days between. Whole groups that are rare or far out are set
/// aside (with every review of their forms) as FSRS's optimizer sets them aside, since a handful
/// of forms at one odd delay would otherwise pull the first stabilities about.
struct Outliers {
  /// The log without the forms set aside.
  let kept: ReviewLog
  /// The first returns the first stabilities are fitted to.
  let firstReturns: [(grade: FSRS.Grade, days: Int, recalled: Bool)]

  init(_ log: ReviewLog) {
    typealias Return = (grade: FSRS.Grade, days: Int, recalled: Bool, sequence: Int)
    var returns: [Return] = []
    for (sequence, reviews) in log.sequences.enumerated() {
      guard let first = reviews.first,
        let back = reviews.indices.dropFirst().first(where: { !reviews[$0].isSameDay })
      else { continue }
      let days = reviews[back].days
      returns.append((first.grade, days, reviews[back].grade != .again, sequence))
    }
    var setAside = Set<Int>()
    var kept: [Return] = []
    for grade in FSRS.Grade.allCases {
      let byDays = Dictionary(grouping: returns.filter { $0.grade == grade }, by: \.days)
      let total = byDays.values.reduce(0) { $0 + $1.count }
      // Largest groups first (the longer delay first among equals); set aside from the smallest
      // up until at least 20 returns, or 5 %, are set aside.
      let ranked = byDays.sorted { a, b in
        a.value.count != b.value.count ? a.value.count > b.value.count : a.key > b.key
      }
      var removed = 0
      for (days, group) in ranked.reversed() {
        if removed + group.count >= max(20, total / 20) {
          if group.count >= 6 && days <= (grade == .easy ? 365 : 100) {
            kept += group
          } else {
            setAside.formUnion(group.map(\.sequence))
          }
        } else {
          removed += group.count
          setAside.formUnion(group.map(\.sequence))
        }
      }
    }
    self.kept = ReviewLog(
      sequences: log.sequences.indices.filter { !setAside.contains($0) }.map { index in
        log.sequences[index].map { review in
          var review = review
          review.rank = nil
          return review
        }
      })
    firstReturns = kept.sorted { ($0.sequence) < ($1.sequence) }.map { ($0.grade, $0.days, $0.recalled) }
  }
}

/// The first stabilities fitted to first returns: for each grade, the stability whose
/// forgetting curve best fits the share recalled at each delay, pulled a little towards the
/// default; then ordered and filled in for grades never given, as FSRS's optimizer does.
struct FirstReturns {
  struct Delay {
    var days: Double
    var recalled: Double
    var count: Double
  }

  let byGrade: [Int: [Delay]]
  var count: Int

  init(_ returns: [(grade: FSRS.Grade, days: Int, recalled: Bool)]) {
    var grouped: [Int: [Int: (recalled: Int, count: Int)]] = [:]
    for item in returns {
      var group = grouped[item.grade.rawValue, default: [:]][item.days, default: (0, 0)]
      group.count += 1
      if item.recalled { group.recalled += 1 }
      grouped[item.grade.rawValue, default: [:]][item.days] = group
    }
    byGrade = grouped.mapValues { delays in
      delays.sorted { $0.key < $1.key }.map {
        Delay(
          days: Double($0.key), recalled: Double($0.value.recalled) / Double($0.value.count),
          count: Double($0.value.count))
      }
    }
    count = returns.count
  }

  /// The four first stabilities; nil when no first return was kept.
  func stabilities(averageRecall: Double) -> [Double]? {
    guard !byGrade.isEmpty else { return nil }
    var found: [Int: Double] = [:]
    for (grade, delays) in byGrade {
      found[grade] = search(delays, averageRecall: averageRecall, usual: FSRS.defaultParameters[grade - 1])
    }
    return smoothed(found)
  }

  /// Ternary search for the stability of least loss, on FSRS's default forgetting curve.
  private func search(_ delays: [Delay], averageRecall: Double, usual: Double) -> Double {
    let decay = -FSRS.defaultParameters[20]
    let factor = pow(0.9, 1 / decay) - 1
    func loss(_ stability: Double) -> Double {
      var sum = abs(stability - usual) / 16
      for delay in delays {
        // A share from a few returns is pulled towards the overall recall.
        let recalled = (delay.recalled * delay.count + averageRecall) / (delay.count + 1)
        let predicted = pow(1 + factor * delay.days / stability, decay)
        sum -= (recalled * log(predicted) + (1 - recalled) * log(1 - predicted)) * delay.count
      }
      return sum
    }
    var low = MemoryModel.stabilityRange.lowerBound
    var high = 100.0
    var best = usual
    var rounds = 0
    while high - low > Double.ulpOfOne && rounds < 1000 {
      rounds += 1
      let third = (high - low) / 3
      if loss(low + third) < loss(high - third) { high -= third } else { low += third }
      best = (low + high) / 2
    }
    return best
  }

  /// Fitted first stabilities made to rise with the grade, and filled in for grades with no
  /// first returns from FSRS's relations between them. Keys are grades 1–4; only grades with
  /// first returns count.
  func smoothed(_ stabilities: [Int: Double]) -> [Double] {
    var known = stabilities.filter { byGrade[$0.key] != nil }
    let counts = byGrade.mapValues { $0.reduce(0) { $0 + $1.count } }
    for (small, big) in [(1, 2), (2, 3), (3, 4), (1, 3), (2, 4), (1, 4)] {
      guard let low = known[small], let high = known[big], low > high else { continue }
      if counts[small, default: 0] > counts[big, default: 0] { known[big] = low } else { known[small] = high }
    }
    let filled: [Double]
    if known.count == 1, let (grade, value) = known.first {
      let scale = value / FSRS.defaultParameters[grade - 1]
      filled = FSRS.defaultParameters[0..<4].map { $0 * scale }.sorted()
    } else {
      filled = Self.fill(known)
    }
    return filled.map { MemoryModel.clamp($0, 0.001...100) }
  }

  /// FSRS relates the first stabilities in logarithms: ln S₂ = 0.41·ln S₁ + 0.59·ln S₃, and
  /// ln S₃ = 0.46·ln S₂ + 0.54·ln S₄. Two or three known give the rest; four need nothing.
  static func fill(_ known: [Int: Double]) -> [Double] {
    let a = 0.41
    let b = 0.54
    // Each relation as coefficients of ln S₁…ln S₄ summing to zero.
    let relations: [[Double]] = [[-a, 1, -(1 - a), 0], [0, -(1 - b), 1, -b]]
    var logs = (1...4).map { known[$0].map { log($0) } }
    let unknown = (0..<4).filter { logs[$0] == nil }
    func rest(_ relation: [Double]) -> Double {
      -(0..<4).reduce(0.0) { sum, i in sum + (logs[i].map { relation[i] * $0 } ?? 0) }
    }
    switch unknown.count {
    case 1:
      let i = unknown[0]
      let relation = relations[i < 2 ? 0 : 1]
      logs[i] = rest(relation) / relation[i]
    case 2:
      let (i, j) = (unknown[0], unknown[1])
      let (p, q) = (relations[0], relations[1])
      let determinant = p[i] * q[j] - p[j] * q[i]
      let (u, v) = (rest(p), rest(q))
      logs[i] = (u * q[j] - p[j] * v) / determinant
      logs[j] = (p[i] * v - u * q[i]) / determinant
    default: break
    }
    return logs.enumerated().map { index, value in value.map(exp) ?? FSRS.defaultParameters[index] }
  }
}
