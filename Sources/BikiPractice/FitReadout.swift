import BikiJSON
import Foundation

/// What `biki stats --evaluate` says of the scheduler: which parameters serve, from how many
/// answers, when they are refitted, and how well the defaults and a fit predict answers they
/// had not seen.
package struct FitReadout: Sendable {
  /// Answers and skips in the history.
  package var answers: Int
  /// Predictions the history holds: reviews of a form at least a day after the one before.
  package var predictions: Int
  /// The fit that schedules now; nil while the defaults do.
  package var serving: StoredFit?
  /// What a fit to the whole history would be now.
  package var fitNow: FittedParameters
  /// Nil when there is not enough to learn from.
  package var evaluation: FitEvaluation?
  package var nextRefit: (answers: Int, at: Double)?

  package static func make(_ history: AnswerHistory) -> (readout: FitReadout, warnings: [String]) {
    let (entries, warnings) = history.load()
    let (stored, warning) = history.storedFit()
    let (summary, _) = history.summary()
    let log = ReviewLog(entries, practiceDay: history.practiceDay)
    let fit = FSRSOptimizer.fit(log)
    let readout = FitReadout(
      answers: entries.count, predictions: log.predictions, serving: stored, fitNow: fit,
      evaluation: fit.extent == .defaults ? nil : FitEvaluation.make(log),
      nextRefit: SchedulerRefit.next(stored, summary: summary))
    return (readout, warnings + (warning.map { [$0] } ?? []))
  }

  package var json: JSON {
    func quality(_ quality: PredictionQuality) -> JSON {
      ["logLoss": .double(quality.logLoss), "rmseBins": .double(quality.rmseBins)]
    }
    let serving: JSON =
      self.serving.map { stored in
        [
          "extent": .string(stored.fit.extent.rawValue), "answers": .integer(Int64(stored.answers)),
          "predictions": .integer(Int64(stored.fit.predictions)), "fittedAt": .double(stored.at),
          "parameters": .array(stored.fit.parameters.map(JSON.double)),
        ]
      } ?? [
        "extent": .string(FittedParameters.Extent.defaults.rawValue),
        "parameters": .array(FSRS.defaultParameters.map(JSON.double)),
      ]
    var members: [(String, JSON)] = [
      ("answers", .integer(Int64(answers))), ("predictions", .integer(Int64(predictions))),
      ("enoughData", .bool(evaluation != nil)), ("serving", serving),
      ("fitNow", ["extent": .string(fitNow.extent.rawValue), "predictions": .integer(Int64(fitNow.predictions))]),
    ]
    if let evaluation {
      members.append(
        (
          "evaluation",
          [
            "predictions": .integer(Int64(evaluation.fitted.predictions)), "defaults": quality(evaluation.defaults),
            "fitted": quality(evaluation.fitted),
          ]
        ))
    } else {
      members.append(("evaluation", .null))
    }
    if let nextRefit {
      members.append(("nextRefit", ["afterAnswers": .integer(Int64(nextRefit.answers)), "at": .double(nextRefit.at)]))
    }
    return .object(pairs: members)
  }
}
