import BikiCore
import BikiTestSupport
import Foundation
import Testing

@testable import BikiPractice

@Suite struct MemoryModelTests {
  /// Random review runs with every grade, same-day reviews and long gaps.
  static func randomRuns(count: Int, seed: UInt64) -> [[ReviewLog.Review]] {
    var random = SeededRandom(seed: seed)
    var runs: [[ReviewLog.Review]] = []
    for _ in 0..<count {
      var day = 0.0
      var run: [ReviewLog.Review] = []
      for position in 0..<Int(2 + random.next() % 12) {
        let grade = FSRS.Grade(rawValue: Int(1 + random.next() % 4)) ?? .good
        let gaps = [0.0, 0.3, 1, 2, 3.5, 7, 15, 40, 120]
        let gap = position == 0 ? 0 : gaps[Int(random.next() % UInt64(gaps.count))]
        day += gap
        run.append(ReviewLog.Review(grade: grade, elapsedDays: gap, day: day))
      }
      runs.append(run)
    }
    return runs
  }

  /// The model's steps are FSRS's: the same memory after every review of random runs.
  @Test func stepsAreTheSchedulers() {
    let fsrs = FSRS()
    let model = MemoryModel(FSRS.defaultParameters)
    for run in Self.randomRuns(count: 300, seed: 3) {
      var memory = fsrs.first(run[0].grade)
      var state = model.first(run[0].grade)
      for review in run.dropFirst() {
        memory = fsrs.next(memory, review.grade, elapsedDays: review.elapsedDays)
        state = model.step(state, review.grade, elapsedDays: review.elapsedDays)
        #expect(abs(memory.stability - state.stability) <= 1e-9 * max(1, memory.stability))
        #expect(abs(memory.difficulty - state.difficulty) <= 1e-9)
      }
    }
  }

  /// The derivative worked by hand matches finite differences for every parameter, on
  /// parameters away from the defaults (so no bound holds exactly).
  @Test func derivativeMatchesFiniteDifferences() {
    let parameters = SimulatedLearner.parameters
    let log = ReviewLog(sequences: Self.randomRuns(count: 40, seed: 9))
    func loss(_ w: [Double]) -> Double {
      var ignored = [Double](repeating: 0, count: 21)
      return log.sequences.reduce(0) {
        $0 + MemoryModel(w).lossAndGradient($1[...], weight: { 1 + Double($0 % 3) }, gradient: &ignored)
      }
    }
    var gradient = [Double](repeating: 0, count: 21)
    for run in log.sequences {
      _ = MemoryModel(parameters).lossAndGradient(run[...], weight: { 1 + Double($0 % 3) }, gradient: &gradient)
    }
    for i in 0..<21 {
      let step = 1e-6 * max(1, abs(parameters[i]))
      var up = parameters
      var down = parameters
      up[i] += step
      down[i] -= step
      let numeric = (loss(up) - loss(down)) / (2 * step)
      #expect(
        abs(numeric - gradient[i]) <= 1e-4 * max(1, abs(numeric)),
        "w\(i): by hand \(gradient[i]), numerically \(numeric)")
    }
  }
}

@Suite struct FSRSOptimizerTests {
  static func returningLog(predictions: Int) -> ReviewLog {
    // Forms reviewed on day 0 and again on day 2 (a first return each), then day 6 and on.
    var runs: [[ReviewLog.Review]] = []
    var made = 0
    var form = 0
    while made < predictions {
      var run = [ReviewLog.Review(grade: .good, elapsedDays: 0, day: Double(form) * 0.01)]
      for (gap, day) in [(2.0, 2.0), (4, 6), (9, 15)] where made < predictions {
        let grade: FSRS.Grade = (form + Int(day)) % 5 == 0 ? .again : .good
        run.append(ReviewLog.Review(grade: grade, elapsedDays: gap, day: day + Double(form) * 0.01))
        made += 1
      }
      runs.append(run)
      form += 1
    }
    return ReviewLog(sequences: runs)
  }

  /// FSRS's thresholds: defaults below 8 predictions, the first stabilities alone below 64,
  /// every parameter above.
  @Test func howFarAFitGoesDependsOnHowMuchThereIsToLearnFrom() {
    let none = FSRSOptimizer.fit(ReviewLog(sequences: []))
    #expect(none.extent == .defaults && none.parameters == FSRS.defaultParameters && none.predictions == 0)
    #expect(FSRSOptimizer.fit(Self.returningLog(predictions: 7)).extent == .defaults)
    let few = FSRSOptimizer.fit(Self.returningLog(predictions: 60))
    #expect(few.extent == .initialStabilities)
    #expect(few.parameters[4...] == FSRS.defaultParameters[4...])
    #expect(few.parameters[0..<4] != FSRS.defaultParameters[0..<4])
    let many = FSRSOptimizer.fit(Self.returningLog(predictions: 300))
    #expect(many.extent == .full && many.predictions == 300)
    #expect(many.parameters[4...] != FSRS.defaultParameters[4...])
  }

  /// The first stabilities rise with the grade and are filled in for grades never given
  /// (Biki grades only again and good), from FSRS's relations between them.
  @Test func firstStabilitiesAreOrderedAndFilledIn() {
    let returns = FirstReturns([(.again, 1, false), (.good, 3, true)])
    let filled = returns.smoothed([1: 0.5, 3: 4.0])
    #expect(filled[0] == 0.5 && filled[2] == 4.0)
    // ln S₂ = 0.41·ln S₁ + 0.59·ln S₃; ln S₃ = 0.46·ln S₂ + 0.54·ln S₄.
    let hard: Double = 0.41 * log(0.5) + 0.59 * log(4.0)
    let good: Double = 0.46 * log(filled[1]) + 0.54 * log(filled[3])
    #expect(abs(log(filled[1]) - hard) < 1e-9)
    #expect(abs(log(filled[2]) - good) < 1e-9)
    // A lapse remembered longer than a recall is not believed: the better-attested one wins.
    let crossed = FirstReturns([(.again, 1, false), (.again, 1, true), (.good, 3, true)]).smoothed([1: 5, 3: 2])
    #expect(abs(crossed[0] - 5) < 1e-9 && abs(crossed[2] - 5) < 1e-9)
  }

  /// A learner unlike FSRS's defaults, 120 days: the fitted parameters predict the answers
  /// they did not see far better (RMSE(bins) down at least 30 %, log loss at least 3 %), and
  /// the same history fits to the same parameters.
  @Test func aFitLearnsTheLearner() throws {
    let outcome = SimulatedLearner().practise(days: 120, scheduler: FSRS())
    let evaluation = try #require(FitEvaluation.make(outcome.log))
    #expect(evaluation.fitted.rmseBins <= 0.7 * evaluation.defaults.rmseBins, "\(evaluation)")
    #expect(evaluation.fitted.logLoss <= 0.97 * evaluation.defaults.logLoss, "\(evaluation)")
    let fit = FSRSOptimizer.fit(outcome.log)
    #expect(fit.extent == .full)
    #expect(FSRSOptimizer.fit(outcome.log) == fit)
  }

  /// Scheduled by parameters fitted to its first 120 days, the learner's true retention (the
  /// share of forms recalled when they come back, each form's first review of a day) over 90
  /// days stays within 3 points of the 90 % asked for, and nearer it than with the defaults.
  @Test func scheduledByItsFitTheLearnerRetainsWhatWasAskedFor() {
    let learner = SimulatedLearner(lateness: 0)
    let fit = FSRSOptimizer.fit(learner.practise(days: 120, scheduler: FSRS()).log)
    func retention(_ scheduler: FSRS) -> Double {
      let returns = SimulatedLearner(seed: 12, lateness: 0).practise(days: 90, scheduler: scheduler).dailyReturns
      let reviews = returns.reduce(0) { $0 + $1.reviews }
      return Double(returns.reduce(0) { $0 + $1.recalled }) / Double(max(reviews, 1))
    }
    let fitted = retention(FSRS(parameters: fit.parameters))
    #expect(abs(fitted - 0.9) <= 0.03, "true retention \(fitted)")
    let usual = retention(FSRS())
    #expect(abs(fitted - 0.9) < abs(usual - 0.9), "true retention \(fitted) fitted, \(usual) with the defaults")
  }

  static let hasReference = PythonModules.available("fsrs_rs_python")

  /// The same learner's log, in whole days, fitted by FSRS's own optimizer (fsrs-rs, through
  /// PyPI's fsrs-rs-python): by the reference's own measure, Biki's parameters predict within
  /// 1 % of the log loss of the reference's, and Biki measures its parameters as the
  /// reference does.
  @Test(.needs(hasReference, "needs FSRS's optimizer: python3 -m pip install fsrs-rs-python"))
  func fitsAsWellAsFSRSsOwnOptimizer() throws {
    let log = SimulatedLearner(wholeDays: true).practise(days: 120, scheduler: FSRS()).log
    let fit = FSRSOptimizer.fit(log)
    #expect(fit.extent == .full)
    var items: [(rank: Int, reviews: [[Int]])] = []
    for reviews in log.sequences {
      for (position, review) in reviews.enumerated() {
        guard let rank = review.rank else { continue }
        items.append((rank, reviews[...position].map { [$0.grade.rawValue, Int($0.elapsedDays)] }))
      }
    }
    let input = try JSONSerialization.data(withJSONObject: [
      "items": items.sorted { $0.rank < $1.rank }.map(\.reviews), "biki": fit.parameters,
    ])
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", repository.appendingPathComponent("Tests/clients/fsrs_fit_reference.py").path]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)

    struct Quality: Decodable { var logLoss: Double, rmseBins: Double }
    struct Reference: Decodable { var parameters: [Double], reference: Quality, biki: Quality, defaults: Quality }
    let reference = try JSONDecoder().decode(Reference.self, from: output)
    #expect(reference.biki.logLoss <= 1.01 * reference.reference.logLoss, "\(reference)\nBiki: \(fit.parameters)")
    #expect(reference.biki.logLoss < reference.defaults.logLoss)
    let own = try #require(log.quality(of: fit.parameters))
    #expect(abs(own.logLoss - reference.biki.logLoss) < 1e-4)
    #expect(abs(own.rmseBins - reference.biki.rmseBins) < 1e-4)
  }
}
