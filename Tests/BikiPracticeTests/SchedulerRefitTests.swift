import BikiCore
import BikiSync
import Foundation
import Testing

@testable import BikiPractice

@Suite struct SchedulerRefitTests {
  static let day = 86_400.0
  /// 2026-01-01, the simulated learner's first day.
  static let start = 1_767_225_600.0

  static func summary(answers: Int, from first: Double = start) -> HistorySummary {
    var summary = HistorySummary()
    for index in 0..<answers {
      summary.add(
        HistoryEntry(
          Session.AnswerRecord(
            topicID: "t", seed: UInt64(index), skill: .kana, given: "x", isCorrect: true, seconds: 1),
          at: first + Double(index)))
    }
    return summary
  }

  static func stored(answers: Int, at: Double) -> StoredFit {
    StoredFit(
      fit: FittedParameters(parameters: FSRS.defaultParameters, extent: .full, predictions: 100), answers: answers,
      at: at)
  }

  /// After every 500 new answers, or 30 days with anything new; the first fit after 500
  /// answers or 30 days after the first.
  @Test func aRefitFallsDueAfter500AnswersOr30Days() {
    let start = Self.start
    #expect(!SchedulerRefit.isDue(nil, summary: HistorySummary(), now: start))
    #expect(!SchedulerRefit.isDue(nil, summary: Self.summary(answers: 499), now: start + 29 * Self.day))
    #expect(SchedulerRefit.isDue(nil, summary: Self.summary(answers: 500), now: start))
    #expect(SchedulerRefit.isDue(nil, summary: Self.summary(answers: 3), now: start + 30 * Self.day))

    let fitted = Self.stored(answers: 600, at: start + 10 * Self.day)
    #expect(!SchedulerRefit.isDue(fitted, summary: Self.summary(answers: 1_099), now: start + 39 * Self.day))
    #expect(SchedulerRefit.isDue(fitted, summary: Self.summary(answers: 1_100), now: start + 11 * Self.day))
    #expect(SchedulerRefit.isDue(fitted, summary: Self.summary(answers: 601), now: start + 40 * Self.day))
    // Nothing new in 30 days: the fit would be the same.
    #expect(!SchedulerRefit.isDue(fitted, summary: Self.summary(answers: 600), now: start + 400 * Self.day))
    // A shorter history than the fit saw has been replaced: fitted afresh.
    #expect(SchedulerRefit.isDue(fitted, summary: Self.summary(answers: 20), now: start + 11 * Self.day))
    let next = SchedulerRefit.next(fitted, summary: Self.summary(answers: 700))
    #expect(next?.answers == 400 && next?.at == start + 40 * Self.day)
    // A kept count past any history's (a hostile file) asks for a refit, and traps nothing.
    let forged = Self.stored(answers: .max, at: start)
    #expect(SchedulerRefit.next(forged, summary: Self.summary(answers: 3))?.answers == 0)
    #expect(SchedulerRefit.isDue(forged, summary: Self.summary(answers: 3), now: start))
  }

  /// A due refit fits the history and keeps the fit; the summary schedules with it from then
  /// on, and nothing is refitted until it is due again.
  @Test func aRefitIsKeptAndSchedulesTheSummary() throws {
    let log = SimulatedLearner().practise(days: 120, scheduler: FSRS()).log
    let entries = log.historyEntries(start: Self.start)
    let fit = Locked<StoredFit?>(nil)
    let history = AnswerHistory.memory(lines: Locked(entries.map(HistoryLine.answer)), fit: fit)
    let now = Self.start + 121 * Self.day
    let made = try #require(SchedulerRefit.runIfDue(history, now: now))
    #expect(
      made.fit == FSRSOptimizer.fit(ReviewLog(entries, practiceDay: .utc)) && made.answers == entries.count
        && made.at == now)
    #expect(made.fit.extent == .full)
    #expect(fit.withLock { $0 } == made)
    #expect(history.summary().summary.scheduler.parameters == made.fit.parameters)
    #expect(SchedulerRefit.runIfDue(history, now: now + Self.day) == nil)
  }

  /// What is kept beside the history is read back only if Biki could have written it; anything
  /// else is named and the defaults serve.
  @Test(arguments: [
    (#"{"version":1}"#, "it does not hold 21 parameters"),
    ("not json", "it is not a version 1 parameters file"),
    (
      #"{"version":1,"parameters":[0.2,1.2,2.3,8.2,6.4,0.8,3.0,9,1.8,0.1,0.7,1.4,0.06,0.26,1.6,0.6,1.8,0.5,0.09,0.06,0.15],"extent":"fitted","predictions":9,"answers":9,"at":1}"#,
      "w7 is 9, not a number within 0.001–0.75"
    ),
    (
      #"{"version":1,"parameters":[0.2,1.2,2.3,8.2,6.4,0.8,3.0,0.001,1.8,0.1,0.7,1.4,0.06,0.26,1.6,0.6,1.8,0.5,0.09,0.06,0.15],"extent":"guessed","predictions":9,"answers":9,"at":1}"#,
      "its extent, predictions, answers or time is missing or wrong"
    ),
  ])
  func aDamagedParametersFileIsNamedAndTheDefaultsServe(text: String, reason: String) throws {
    let directory = NSTemporaryDirectory() + "biki-fit-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/history.jsonl"
    try text.write(toFile: path + ".parameters", atomically: true, encoding: .utf8)
    let history = AnswerHistory.file(path: path)
    let (fit, warning) = history.storedFit()
    #expect(fit == nil)
    #expect(
      warning == "\(path).parameters: ignored (\(reason)); FSRS's default parameters serve until the next fit")
    #expect(history.summary().warnings == [try #require(warning)])
    #expect(history.summary().summary.scheduler.parameters == FSRS.defaultParameters)
  }

  /// The summary kept beside a history file is made afresh when the parameters change, so
  /// every form's memory is the fitted scheduler's.
  @Test func aKeptSummaryIsRemadeWithNewParameters() throws {
    let directory = NSTemporaryDirectory() + "biki-fit-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/history.jsonl"
    let history = AnswerHistory.file(path: path)
    let log = SimulatedLearner(forms: 200).practise(days: 60, scheduler: FSRS()).log
    for entry in log.historyEntries(start: Self.start) { try history.append(entry) }
    let before = history.summary().summary
    #expect(before.scheduler.parameters == FSRS.defaultParameters)
    let made = try #require(SchedulerRefit.runIfDue(history, now: Self.start + 61 * Self.day))
    #expect(made.fit.extent == .full)
    let after = history.summary().summary
    #expect(after.scheduler.parameters == made.fit.parameters)
    #expect(after == HistorySummary(history.load().entries, parameters: made.fit.parameters).withBookkeeping(of: after))
    #expect(after.recall(now: Self.start + 61 * Self.day) != before.recall(now: Self.start + 61 * Self.day))
    #expect(history.storedFit().fit == made)
  }
}

extension HistorySummary {
  /// This summary with `other`'s record of which history bytes it covers, to compare figures.
  func withBookkeeping(of other: HistorySummary) -> HistorySummary {
    var copy = self
    copy.coveredBytes = other.coveredBytes
    copy.lines = other.lines
    copy.historyHash = other.historyHash
    return copy
  }
}
