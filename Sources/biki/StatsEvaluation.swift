import BikiCLI
import BikiPractice
import Foundation

/// `biki stats --evaluate [--json]`: which parameters schedule the learner's reviews, and how
/// well FSRS's defaults and parameters fitted to the learner predict answers they had not seen.
enum StatsEvaluation {
  static func run(history: AnswerHistory, now: Double, json: Bool) -> CommandOutcome {
    let (readout, warnings) = FitReadout.make(history)
    var outcome = CommandOutcome(standardError: warnings.map { TerminalText.safe("Warning: \($0)") })
    if json {
      outcome.standardOutput = [readout.json.serialized]
      return outcome
    }
    outcome.standardOutput = lines(readout, now: now)
    return outcome
  }

  static func lines(_ readout: FitReadout, now: Double) -> [String] {
    var lines: [String] = []
    if let stored = readout.serving {
      let extent =
        switch stored.fit.extent {
        case .full: "parameters fitted to your answers"
        case .initialStabilities: "first stabilities fitted to your answers, the rest FSRS's defaults"
        case .defaults: "FSRS's default parameters (too few answers to fit when last tried)"
        }
      lines.append(
        "Scheduling with \(extent): fitted \(ProgressReport.date(stored.at)) from \(stored.answers) answers (\(stored.fit.predictions) predictions)."
      )
    } else {
      lines.append("Scheduling with FSRS's default parameters: not fitted to your answers yet.")
    }
    if let next = readout.nextRefit {
      let when = next.at <= now ? "now, as you next practise" : "by \(ProgressReport.date(next.at))"
      lines.append("Next refit: after \(next.answers) more answers, or \(when).")
    }
    lines.append("")
    guard let evaluation = readout.evaluation else {
      lines.append(
        "Not enough data yet to fit or judge a fit: \(readout.predictions) \(readout.predictions == 1 ? "prediction" : "predictions") in \(readout.answers) answers."
      )
      lines.append(
        "A prediction is a form met again at least a day after you last answered it. Biki fits the first stabilities from \(8) predictions and every parameter from 64."
      )
      return lines
    }
    lines.append(
      "How well each predicts your answers it had not seen (\(evaluation.fitted.predictions) predictions; each fit made only from answers before them):"
    )
    lines.append("            log loss   RMSE(bins)")
    for (name, quality) in [("defaults", evaluation.defaults), ("fitted", evaluation.fitted)] {
      lines.append(
        "  \(name.padding(toLength: 8, withPad: " ", startingAt: 0))  \(String(format: "%.4f", quality.logLoss))     \(String(format: "%.2f%%", quality.rmseBins * 100))"
      )
    }
    lines.append("")
    lines.append("Log loss: how surprised the scheduler is by each of your answers, on average. Lower is better.")
    lines.append(
      "RMSE(bins): how far the recall it predicts is from the recall you showed, over groups of like reviews. Lower is better."
    )
    return lines
  }
}
