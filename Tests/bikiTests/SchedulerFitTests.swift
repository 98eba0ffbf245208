import BikiCore
import BikiPractice
import Foundation
import Testing

/// The scheduler fitted to a learner, as they meet it: `biki stats --evaluate` before and after,
/// and the refit `biki quiz` makes on its own once 500 answers are in.
@Suite struct SchedulerFitTests {
  /// A learner's home with a history of 120 simulated days, about 4,000 answers.
  static func practisedHome() throws -> (home: String, environment: [String: String]) {
    let home = NSTemporaryDirectory() + "biki-fit-" + UUID().uuidString
    var environment = BikiPackTests.isolated(home)
    environment["XDG_STATE_HOME"] = home + "/state"
    try FileManager.default.createDirectory(atPath: home + "/state/biki", withIntermediateDirectories: true)
    let log = SimulatedLearner().practise(days: 120, scheduler: FSRS()).log
    var bytes: [UInt8] = []
    for entry in log.historyEntries(start: 1_767_225_600) { bytes += HistoryFile.line(.answer(entry)) }
    try Data(bytes).write(to: URL(fileURLWithPath: home + "/state/biki/history.jsonl"))
    return (home, environment)
  }

  struct Readout: Decodable {
    struct Quality: Decodable { var logLoss: Double, rmseBins: Double }
    struct Evaluation: Decodable { var predictions: Int, defaults: Quality, fitted: Quality }
    struct Serving: Decodable { var extent: String, parameters: [Double], answers: Int? }
    struct Next: Decodable { var afterAnswers: Int, at: Double }
    var answers: Int
    var predictions: Int
    var enoughData: Bool
    var serving: Serving
    var evaluation: Evaluation?
    var nextRefit: Next?
  }

  @Test func withNoHistoryThereIsNotEnoughDataYet() throws {
    let home = NSTemporaryDirectory() + "biki-fit-" + UUID().uuidString
    var environment = BikiPackTests.isolated(home)
    environment["XDG_STATE_HOME"] = home + "/state"
    let text = try BikiProcess.run(["stats", "--evaluate"], environment: environment)
    #expect(text.status == 0, "\(text.standardError)")
    #expect(
      text.standardOutput.hasPrefix(
        "Scheduling with FSRS's default parameters: not fitted to your answers yet.\n\nNot enough data yet to fit or judge a fit: 0 predictions in 0 answers.\n"
      ), "\(text.standardOutput)")
    let json = try BikiProcess.run(["stats", "--evaluate", "--json"], environment: environment)
    let readout = try JSONDecoder().decode(Readout.self, from: Data(json.standardOutput.utf8))
    #expect(!readout.enoughData && readout.evaluation == nil && readout.serving.extent == "defaults")
    #expect(readout.serving.parameters == FSRS.defaultParameters)
  }

  /// The evaluation before any refit, then a one-question quiz: the refit it makes while the
  /// learner answers is kept, and from then on schedules the learner.
  @Test func aQuizRefitsAndStatsSayWhatServes() throws {
    let (home, environment) = try Self.practisedHome()
    let before = try BikiProcess.run(["stats", "--evaluate", "--json"], environment: environment)
    #expect(before.status == 0, "\(before.standardError)")
    let readout = try JSONDecoder().decode(Readout.self, from: Data(before.standardOutput.utf8))
    #expect(readout.enoughData && readout.serving.extent == "defaults")
    #expect(readout.nextRefit?.afterAnswers == 0)
    let evaluation = try #require(readout.evaluation)
    #expect(evaluation.fitted.rmseBins < 0.7 * evaluation.defaults.rmseBins, "\(evaluation)")
    #expect(evaluation.fitted.logLoss < 0.97 * evaluation.defaults.logLoss, "\(evaluation)")

    let text = try BikiProcess.run(["stats", "--evaluate"], environment: environment)
    #expect(text.standardOutput.contains("\n            log loss   RMSE(bins)\n  defaults  "), "\(text.standardOutput)")
    #expect(text.standardOutput.contains("Log loss: how surprised the scheduler is"))

    var quizEnvironment = environment
    quizEnvironment["BIKI_INPUT"] = "skip\n"
    let quiz = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --seed 4 --mode questions=1",
      environment: quizEnvironment)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    #expect(FileManager.default.fileExists(atPath: home + "/state/biki/history.jsonl.parameters"))

    let after = try BikiProcess.run(["stats", "--evaluate", "--json"], environment: environment)
    let fitted = try JSONDecoder().decode(Readout.self, from: Data(after.standardOutput.utf8))
    #expect(fitted.serving.extent == "fitted" && fitted.serving.parameters != FSRS.defaultParameters)
    // Fitted as the quiz began, from the answers before it; the quiz's own answer counts
    // towards the next.
    #expect(fitted.serving.answers == readout.answers)
    #expect(fitted.nextRefit?.afterAnswers == 499)
    let afterText = try BikiProcess.run(["stats", "--evaluate"], environment: environment)
    #expect(afterText.standardOutput.hasPrefix("Scheduling with parameters fitted to your answers: fitted "))
  }

  @Test(arguments: [
    (["stats", "--json"], "Error: --json goes with --evaluate.\n"),
    (
      ["stats", "--evaluate", "counters.hon"],
      "Error: --evaluate judges the scheduler over your whole history; give it without a topic or --html.\n"
    ),
  ])
  func misusedOptionsAreUsageErrors(arguments: [String], message: String) throws {
    let result = try BikiProcess.run(
      arguments, environment: BikiPackTests.isolated(NSTemporaryDirectory() + UUID().uuidString))
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
  }
}
