import BikiPractice
import Foundation

/// How long fitting a learner's scheduler takes: a simulated learner's 100,000 answers (about a
/// year of an hour a day), fitted as a refit does, off the message loop.
struct FitBench {
  static let target = 2.0

  func run() -> [String] {
    let learner = SimulatedLearner(newPerDay: 20, forms: 8_000, seed: 5)
    let log = learner.practise(days: 500, scheduler: FSRS()).log
    let answers = log.sequences.reduce(0) { $0 + $1.count }
    let started = Date()
    let fit = FSRSOptimizer.fit(log)
    let seconds = Date().timeIntervalSince(started)
    let quality = log.quality(of: fit.parameters).map { String(format: "log loss %.4f", $0.logLoss) } ?? "-"
    return [
      "fit.fsrs: \(String(format: "%.2f", seconds)) s for \(answers) answers (\(fit.predictions) predictions, \(fit.extent.rawValue); \(quality))  (target < \(Int(Self.target)) s: \(seconds < Self.target ? "met" : "NOT met"))"
    ]
  }
}
