import BikiFiles
import BikiJSON
import BikiSync
import Foundation

/// The parameters a learner is scheduled with, as last fitted to their history, and when:
/// kept beside the history (`history.jsonl.parameters`) so every Biki process schedules alike.
package struct StoredFit: Sendable, Equatable {
  package var fit: FittedParameters
  /// Answers and skips the history held when it was fitted.
  package var answers: Int
  /// When, in seconds since 1970.
  package var at: Double

  package init(fit: FittedParameters, answers: Int, at: Double) {
    self.fit = fit
    self.answers = answers
    self.at = at
  }

  var json: JSON {
    [
      "version": 1, "parameters": .array(fit.parameters.map(JSON.double)), "extent": .string(fit.extent.rawValue),
      "predictions": .integer(Int64(fit.predictions)), "answers": .integer(Int64(answers)), "at": .double(at),
    ]
  }

  /// A stored fit read back; a reason when it is not one Biki could have written (a parameter
  /// missing, not a number, or outside FSRS's bounds), so it is refitted rather than used.
  static func read(_ bytes: [UInt8]) -> Result<StoredFit, FitFileError> {
    guard let json = try? JSONParser.value(bytes), json["version"]?.integerValue == 1 else {
      return .failure(FitFileError(reason: "it is not a version 1 parameters file"))
    }
    guard let values = json["parameters"]?.arrayValue, values.count == 21 else {
      return .failure(FitFileError(reason: "it does not hold 21 parameters"))
    }
    var parameters: [Double] = []
    for (index, value) in values.enumerated() {
      guard let number = value.numberValue, number.isFinite, FSRSOptimizer.bounds[index].contains(number) else {
        let bound = FSRSOptimizer.bounds[index]
        return .failure(
          FitFileError(
            reason: "w\(index) is \(value.serialized), not a number within \(bound.lowerBound)–\(bound.upperBound)"))
      }
      parameters.append(number)
    }
    guard let extent = json["extent"]?.stringValue.flatMap(FittedParameters.Extent.init),
      let predictions = json["predictions"]?.integerValue, predictions >= 0,
      let answers = json["answers"]?.integerValue, answers >= 0, let at = json["at"]?.numberValue, at.isFinite
    else { return .failure(FitFileError(reason: "its extent, predictions, answers or time is missing or wrong")) }
    return .success(
      StoredFit(
        fit: FittedParameters(parameters: parameters, extent: extent, predictions: Int(predictions)),
        answers: Int(answers),
        at: at))
  }
}

struct FitFileError: Error, Equatable, CustomStringConvertible {
  var reason: String
  var description: String { reason }
}

/// When a learner's parameters are fitted again, on their own: after every 500 new answers, or
/// 30 days after the last fit if anything was answered since (the first fit: after 500 answers,
/// or 30 days after the first). Run where nobody waits for it, never on the server's loop.
package enum SchedulerRefit {
  static let answersBetween = 500
  static let daysBetween = 30.0

  package static func isDue(_ stored: StoredFit?, summary: HistorySummary, now: Double) -> Bool {
    let answers = summary.answerCount
    guard let stored else {
      guard let firstDay = summary.days.keys.min() else { return answers >= answersBetween }
      return answers >= answersBetween || now - Double(firstDay) * 86_400 >= daysBetween * 86_400
    }
    let newAnswers = answers - stored.answers
    // Fewer answers than at the fit: the history was replaced; fit it afresh.
    if newAnswers < 0 { return true }
    return newAnswers >= answersBetween || (newAnswers > 0 && now - stored.at >= daysBetween * 86_400)
  }

  /// When the next refit falls due: after this many more answers, or at this time (seconds
  /// since 1970), whichever comes first; nil for a history with no answers yet.
  package static func next(_ stored: StoredFit?, summary: HistorySummary) -> (answers: Int, at: Double)? {
    guard let stored else {
      guard let firstDay = summary.days.keys.min() else { return nil }
      return (max(0, answersBetween - summary.answerCount), Double(firstDay) * 86_400 + daysBetween * 86_400)
    }
    // A history shorter than the one fitted (replaced, or a kept count that is not true) is
    // refitted at once.
    guard stored.answers <= summary.answerCount else { return (0, stored.at) }
    return (max(0, answersBetween - (summary.answerCount - stored.answers)), stored.at + daysBetween * 86_400)
  }

  /// Fits and keeps the parameters if a refit is due; the new fit, or nil when none was due or
  /// it could not be kept.
  @discardableResult
  package static func runIfDue(_ history: AnswerHistory, now: Double) -> StoredFit? {
    let (summary, _) = history.summary()
    guard isDue(history.storedFit().fit, summary: summary, now: now) else { return nil }
    let (entries, _) = history.load()
    let fitted = StoredFit(
      fit: FSRSOptimizer.fit(ReviewLog(entries, practiceDay: history.practiceDay)), answers: entries.count, at: now)
    guard (try? history.keepFit(fitted)) != nil else { return nil }
    return fitted
  }
}

extension HistorySummary {
  /// Answers and skips counted.
  package var answerCount: Int {
    topics.values.reduce(0) { $0 &+ $1.answers &+ $1.skipped }
  }
}

/// The file a history's fit is kept in.
struct FitFile {
  let path: String

  /// The fit kept there; a warning when one is there but cannot be used.
  func read() -> (fit: StoredFit?, warning: String?) {
    let bytes: [UInt8]
    do throws(FileError) {
      let descriptor = try RegularFile.open(path, flags: O_RDONLY, links: .refuse)
      defer { close(descriptor) }
      bytes = RegularFile.read(descriptor, at: 0, count: min(RegularFile.size(descriptor) ?? 0, 1 << 16))
    } catch {
      if error == .missing { return (nil, nil) }
      return (nil, "\(path): ignored (\(error.description)); FSRS's default parameters serve until the next fit")
    }
    switch StoredFit.read(bytes) {
    case .success(let fit): return (fit, nil)
    case .failure(let failure):
      return (nil, "\(path): ignored (\(failure.reason)); FSRS's default parameters serve until the next fit")
    }
  }

  func write(_ fit: StoredFit) throws(FitFileError) {
    do {
      try WholeFile.replace(path, with: Array(fit.json.serialized.utf8), mode: 0o600)
    } catch {
      throw FitFileError(reason: "cannot keep the scheduler's parameters in \(path): \(error)")
    }
  }
}

/// Refits on a thread of its own, one at a time: `biki quiz` starts one as the learner begins
/// to answer (and waits for it only after the session's summary), `biki serve` at start-up and
/// whenever a session ends.
package final class BackgroundRefit: Sendable {
  private let history: AnswerHistory
  private let wallClock: @Sendable () -> Double
  private let running = Locked(false)
  private let group = DispatchGroup()

  package init(_ history: AnswerHistory, wallClock: @Sendable @escaping () -> Double) {
    self.history = history
    self.wallClock = wallClock
  }

  /// Starts a refit if none is running; it fits only if one is due.
  package func start() {
    guard
      running.withLock({ running in
        defer { running = true }
        return !running
      })
    else { return }
    group.enter()
    Thread.detachNewThread { [self] in
      SchedulerRefit.runIfDue(history, now: wallClock())
      running.withLock { $0 = false }
      group.leave()
    }
  }

  /// Waits for the refit running, if any.
  package func wait() { group.wait() }
}
