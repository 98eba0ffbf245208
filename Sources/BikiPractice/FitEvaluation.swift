import Foundation

/// How well a set of parameters predicts recall: the log loss (how surprised the model is by
/// each answer, averaged; lower is better) and RMSE(bins), the gap between predicted and actual
/// recall over groups of similar reviews (by delay, number of reviews and lapses), which is
/// what a learner feels as "it says 90 % but I remember 80 %". Both as FSRS's tools compute them.
package struct PredictionQuality: Sendable, Equatable {
  package var logLoss: Double
  package var rmseBins: Double
  package var predictions: Int
}

/// The default and the fitted parameters judged on predictions the fit did not see: the
/// predictions in time order cut in six, and each of the last five predicted by parameters
/// fitted to everything before it (a time-series split, as Anki's "Evaluate" and the
/// srs-benchmark judge them).
package struct FitEvaluation: Sendable, Equatable {
  package var defaults: PredictionQuality
  package var fitted: PredictionQuality

  static let splits = 5

  /// Nil when the log has too few predictions to split.
  package static func make(_ log: ReviewLog) -> FitEvaluation? {
    let segment = log.predictions / (splits + 1)
    guard segment > 0 else { return nil }
    let defaults = MemoryModel(FSRS.defaultParameters)
    var usual = Metrics()
    var fitted = Metrics()
    for split in 0..<splits {
      let start = (split + 1) * segment
      let end = split == splits - 1 ? log.predictions : (split + 2) * segment
      let model = MemoryModel(FSRSOptimizer.fit(log.before(rank: start)).parameters)
      for reviews in log.sequences {
        usual.add(reviews, model: defaults, ranks: start..<end, weight: { _ in 1 })
        fitted.add(reviews, model: model, ranks: start..<end, weight: { _ in 1 })
      }
    }
    guard let usualQuality = usual.quality, let fittedQuality = fitted.quality else { return nil }
    return FitEvaluation(defaults: usualQuality, fitted: fittedQuality)
  }
}

extension ReviewLog {
  /// How well `parameters` predict every prediction of the log, recent ones weighted more, as
  /// FSRS's `evaluate` weighs them; nil for a log with no predictions.
  package func quality(of parameters: [Double]) -> PredictionQuality? {
    var metrics = Metrics()
    let model = MemoryModel(parameters)
    let last = Double(max(predictions - 1, 1))
    for reviews in sequences {
      metrics.add(reviews, model: model, ranks: 0..<predictions) { 0.25 + 0.75 * pow(Double($0) / last, 3) }
    }
    return metrics.quality
  }
}

/// Log loss and RMSE(bins) gathered one prediction at a time.
struct Metrics {
  struct Bin: Hashable {
    var delay: Int
    var length: Int
    var lapses: Int
  }

  struct Sums {
    var predicted = 0.0
    var actual = 0.0
    var count = 0.0
    var weight = 0.0
  }

  var loss = 0.0
  var weight = 0.0
  var count = 0
  var bins: [Bin: Sums] = [:]

  mutating func add(
    _ reviews: [ReviewLog.Review], model: MemoryModel, ranks: Range<Int>, weight: (Int) -> Double
  ) {
    guard reviews.contains(where: { $0.rank.map(ranks.contains) ?? false }) else { return }
    var returns = 0
    var lapses = 0
    var predictions = model.predictions(reviews)[...]
    for (position, review) in reviews.enumerated() where position > 0 && !review.isSameDay {
      returns += 1
      defer { if review.grade == .again { lapses += 1 } }
      guard let rank = review.rank else { continue }
      let predicted = predictions.removeFirst().recall
      guard ranks.contains(rank) else { continue }
      let recalled = review.grade != .again
      let itemWeight = weight(rank)
      loss += MemoryModel.logLoss(predicted, recalled: recalled, weight: itemWeight).loss
      self.weight += itemWeight
      count += 1
      let bin = Bin(
        delay: Self.bin(Double(review.days), scale: 2.48 * 100, base: 3.62),
        length: Self.bin(Double(returns + 1), scale: 1.99, base: 1.89),
        lapses: lapses == 0 ? 0 : Self.bin(Double(lapses), scale: 1.65, base: 1.73))
      bins[bin, default: Sums()].predicted += predicted
      bins[bin, default: Sums()].actual += recalled ? 1 : 0
      bins[bin, default: Sums()].count += 1
      bins[bin, default: Sums()].weight += itemWeight
    }
  }

  /// FSRS's logarithmic bins: `scale · base^⌊log_base x⌋`, rounded.
  static func bin(_ value: Double, scale: Double, base: Double) -> Int {
    let power = pow(base, (log(value) / log(base)).rounded(.down))
    let scaled = (scale * power).rounded()
    return scaled.isFinite && abs(scaled) < 1e15 ? Int(scaled) : 0
  }

  var quality: PredictionQuality? {
    guard count > 0, weight > 0 else { return nil }
    var squares = 0.0
    var total = 0.0
    for sums in bins.values {
      let gap = sums.predicted / sums.count - sums.actual / sums.count
      squares += gap * gap * sums.weight
      total += sums.weight
    }
    return PredictionQuality(logLoss: loss / weight, rmseBins: (squares / total).squareRoot(), predictions: count)
  }
}
