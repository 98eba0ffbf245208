import BikiCore
import Foundation

/// Parameters fitted to one learner's reviews, and how far the fit went.
package struct FittedParameters: Sendable, Equatable {
  package enum Extent: String, Sendable {
    /// Too few predictions to learn from: FSRS's defaults.
    case defaults
    /// Enough to place the first stabilities, from how well forms were recalled the first
    /// time they came back; every other parameter is the default.
    case initialStabilities = "stabilities only"
    /// Every parameter fitted.
    case full = "fitted"
  }

  package var parameters: [Double]
  package var extent: Extent
  /// Predictions the fit learnt from (after setting aside outliers).
  package var predictions: Int

  package init(parameters: [Double], extent: Extent, predictions: Int) {
    self.parameters = parameters
    self.extent = extent
    self.predictions = predictions
  }
}

/// Fits FSRS's parameters to a review log as FSRS's own optimizer (fsrs-rs) does, so a learner's
/// parameters are what Anki would fit to the same reviews:
///
/// - below 8 predictions the defaults serve;
/// - below 64 (or when every prediction is a form's first return) only the first stabilities
///   are fitted, each by a one-dimensional search on how well forms were recalled at each
///   delay after their first review;
/// - above that every parameter is fitted by Adam on the log loss, 5 passes in batches of 512
///   predictions with a cosine-annealed step from 0.04, recent predictions weighted up to four
///   times the oldest, and a pull towards the starting parameters in units of how much they
///   vary between Anki users.
///
/// A pure function of the log: batches are shuffled by a fixed seed, so the same history always
/// gives the same parameters.
package enum FSRSOptimizer {
  static let fewestPredictions = 8
  static let fewestForFullFit = 64
  static let epochs = 5
  static let batchSize = 512
  static let learningRate = 0.04
  static let shuffleSeed: UInt64 = 2023
  /// How strongly parameters are pulled towards where the fit started.
  static let pull = 1.0
  /// How much each parameter varies between learners (FSRS's figures): the pull's units.
  static let spread: [Double] = [
    6.43, 9.66, 17.58, 27.85, 0.57, 0.28, 0.6, 0.12, 0.39, 0.18, 0.33, 0.3, 0.09, 0.16, 0.57, 0.25, 1.03, 0.31, 0.32,
    0.14, 0.27,
  ]

  package static func fit(_ log: ReviewLog) -> FittedParameters {
    let outliers = Outliers(log)
    let training = outliers.kept
    guard training.predictions >= fewestPredictions else {
      return FittedParameters(parameters: FSRS.defaultParameters, extent: .defaults, predictions: training.predictions)
    }
    let firstReturns = FirstReturns(outliers.firstReturns)
    guard let stabilities = firstReturns.stabilities(averageRecall: training.averageRecall) else {
      return FittedParameters(parameters: FSRS.defaultParameters, extent: .defaults, predictions: training.predictions)
    }
    let start = stabilities + FSRS.defaultParameters[4...]
    guard training.predictions >= fewestForFullFit, training.predictions > firstReturns.count else {
      return FittedParameters(parameters: start, extent: .initialStabilities, predictions: training.predictions)
    }
    var trained = train(training, from: start)
    trained.replaceSubrange(
      0..<4, with: firstReturns.smoothed(Dictionary(uniqueKeysWithValues: (1...4).map { ($0, trained[$0 - 1]) })))
    return FittedParameters(parameters: trained, extent: .full, predictions: training.predictions)
  }

  /// Adam on the weighted log loss, clipped to FSRS's bounds after every step.
  static func train(_ log: ReviewLog, from start: [Double]) -> [Double] {
    let total = log.predictions
    let weights = (0..<total).map { rank in
      0.25 + 0.75 * pow(Double(rank) / Double(max(total - 1, 1)), 3)
    }
    let (batches, batchOf) = Batch.make(log.sequences, size: batchSize)
    var schedule = CosineSchedule(steps: Double((total / batchSize + 1) * epochs), start: learningRate)
    var adam = Adam()
    var parameters = start
    var random = SeededRandom(seed: shuffleSeed)
    var order = Array(batches.indices)
    for _ in 0..<epochs {
      random.shuffle(&order)
      for index in order {
        let batch = batches[index]
        let model = MemoryModel(parameters)
        var gradient = [Double](repeating: 0, count: 21)
        for form in batch.forms {
          _ = model.lossAndGradient(
            log.sequences[form.sequence][...form.through], weight: { batchOf[$0] == index ? weights[$0] : 0 },
            gradient: &gradient)
        }
        let scale = pull * Double(batch.predictions) / Double(total)
        for i in 0..<21 {
          gradient[i] += 2 * (parameters[i] - start[i]) / (spread[i] * spread[i]) * scale
        }
        adam.step(&parameters, gradient: gradient, rate: schedule.next())
        clip(&parameters)
      }
    }
    return parameters
  }

  /// FSRS's bounds on each parameter (one relearning step, short-term memory on).
  static let bounds: [ClosedRange<Double>] = [
    0.001...100, 0.001...100, 0.001...100, 0.001...100, 1...10, 0.001...4, 0.001...4, 0.001...0.75, 0...4.5,
    0...0.8, 0.001...3.5, 0.001...5, 0.001...0.25, 0.001...0.9, 0...4, 0...1, 1...6, 0...2, 0...2, 0.01...0.8,
    0.1...0.8,
  ]

  static func clip(_ parameters: inout [Double]) {
    for i in 0..<21 { parameters[i] = MemoryModel.clamp(parameters[i], bounds[i]) }
  }

  /// Predictions in batches of `size`, as FSRS's optimizer batches them: ordered by how many
  /// reviews come before them (the shortest histories first), then in time. Each batch lists
  /// the forms it draws on and how far into each it reaches.
  struct Batch {
    var forms: [(sequence: Int, through: Int)]
    var predictions: Int

    /// The batches, and for each prediction (by rank) the batch it is in.
    static func make(_ sequences: [[ReviewLog.Review]], size: Int) -> (batches: [Batch], batchOf: [Int]) {
      var items: [(position: Int, rank: Int, sequence: Int)] = []
      for (sequence, reviews) in sequences.enumerated() {
        for (position, review) in reviews.enumerated() {
          if let rank = review.rank { items.append((position, rank, sequence)) }
        }
      }
      items.sort { ($0.position, $0.rank) < ($1.position, $1.rank) }
      var batchOf = [Int](repeating: 0, count: items.count)
      var batches: [Batch] = []
      var start = 0
      while start < items.count {
        let chunk = items[start..<min(start + size, items.count)]
        var reach: [Int: Int] = [:]
        for item in chunk {
          reach[item.sequence] = max(reach[item.sequence] ?? 0, item.position)
          batchOf[item.rank] = batches.count
        }
        batches.append(
          Batch(forms: reach.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, predictions: chunk.count))
        start += size
      }
      return (batches, batchOf)
    }
  }

  struct Adam {
    var first = [Double](repeating: 0, count: 21)
    var second = [Double](repeating: 0, count: 21)
    var steps = 0.0

    mutating func step(_ parameters: inout [Double], gradient: [Double], rate: Double) {
      steps += 1
      for i in 0..<21 {
        first[i] = 0.9 * first[i] + 0.1 * gradient[i]
        second[i] = 0.999 * second[i] + 0.001 * gradient[i] * gradient[i]
        let mean = first[i] / (1 - pow(0.9, steps))
        let variance = second[i] / (1 - pow(0.999, steps))
        parameters[i] -= rate * mean / (variance.squareRoot() + 1e-8)
      }
    }
  }

  /// A step size falling from `start` to 0 along half a cosine over `steps` steps.
  struct CosineSchedule {
    let steps: Double
    let start: Double
    var taken = 0.0

    mutating func next() -> Double {
      defer { taken += 1 }
      return start * (1 + cos(Double.pi * min(taken, steps) / steps)) / 2
    }
  }
}

extension SeededRandom {
  /// Fisher–Yates with this generator, written out so the order never depends on the
  /// standard library's own shuffle.
  mutating func shuffle(_ items: inout [Int]) {
    guard items.count > 1 else { return }
    for i in stride(from: items.count - 1, to: 0, by: -1) {
      items.swapAt(i, Int(next() % UInt64(i + 1)))
    }
  }
}

extension ReviewLog {
  /// The share of predictions that were recalled.
  var averageRecall: Double {
    var recalled = 0
    for reviews in sequences { recalled += reviews.count { $0.rank != nil && $0.grade != .again } }
    return predictions == 0 ? 0 : Double(recalled) / Double(predictions)
  }
}
