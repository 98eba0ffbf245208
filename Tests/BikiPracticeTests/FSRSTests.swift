import BikiTestSupport
import Foundation
import Testing

@testable import BikiPractice

@Suite struct FSRSTests {
  let fsrs = FSRS()

  /// Values worked by hand from the FSRS-6 formulas with the default parameters.
  @Test func aFirstReviewUsesTheGradesOwnParameters() {
    #expect(fsrs.first(.again) == FSRS.Memory(stability: 0.212, difficulty: 6.4133))
    #expect(fsrs.first(.good).stability == 2.3065)
    // D₀(3) = w₄ − e^(2·w₅) + 1 = 6.4133 − e^1.6668 + 1 ≈ 2.1168; D₀(4) would be below 1: clamped.
    #expect(abs(fsrs.first(.good).difficulty - (6.4133 - exp(2 * 0.8334) + 1)) < 1e-12)
    #expect(fsrs.first(.easy).difficulty == 1)
    // At 90% retention the interval is the stability, rounded: 2.3065 days → 2.
    #expect(fsrs.interval(fsrs.first(.good)) == 2)
    #expect(fsrs.interval(FSRS.Memory(stability: 0.001, difficulty: 5)) == 1)
  }

  /// Memory read back from a damaged summary never traps: any stability gives an interval in range.
  @Test(arguments: [1e300, .infinity, .nan, -5, 0])
  func anyStabilityGivesAnIntervalInRange(stability: Double) {
    let days = fsrs.interval(FSRS.Memory(stability: stability, difficulty: 5))
    #expect((1...fsrs.maximumInterval).contains(days))
  }

  @Test func recallFallsToNinetyPercentAfterTheStability() {
    let memory = FSRS.Memory(stability: 10, difficulty: 5)
    #expect(abs(fsrs.retrievability(memory, elapsedDays: 10) - 0.9) < 1e-12)
    #expect(fsrs.retrievability(memory, elapsedDays: 0) == 1)
    #expect(fsrs.retrievability(memory, elapsedDays: 100) < 0.9)
  }

  static let hasReference = PythonModules.available("fsrs")

  /// 1,000 random review logs scheduled by the reference implementation (PyPI `fsrs`): every
  /// stability, difficulty and interval the same, to within 1e-6.
  @Test(.needs(hasReference, "needs the reference FSRS: python3 -m pip install fsrs"))
  func matchesTheReferenceImplementation() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", repository.appendingPathComponent("Tests/clients/fsrs_reference.py").path, "1000", "7",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)

    struct Review: Decodable {
      var grade: Int, days: Int, stability: Double, difficulty: Double, interval: Int
    }
    struct Reference: Decodable {
      var defaultParameters: [Double]
      var logs: [[Review]]
    }
    let reference = try JSONDecoder().decode(Reference.self, from: data)
    #expect(reference.defaultParameters == FSRS.defaultParameters)
    #expect(reference.logs.count == 1000)
    var worst = 0.0
    var reviews = 0
    for log in reference.logs {
      var memory: FSRS.Memory?
      for review in log {
        let grade = try #require(FSRS.Grade(rawValue: review.grade))
        let next = memory.map { fsrs.next($0, grade, elapsedDays: Double(review.days)) } ?? fsrs.first(grade)
        // Relative beyond one day of stability, absolute below.
        worst = max(worst, abs(next.stability - review.stability) / max(1, abs(review.stability)))
        worst = max(worst, abs(next.difficulty - review.difficulty))
        #expect(fsrs.interval(next) == review.interval, "review \(reviews): \(next) against \(review)")
        memory = next
        reviews += 1
      }
    }
    #expect(worst <= 1e-6, "largest difference \(worst) over \(reviews) reviews")
    #expect(reviews > 5000)
  }
}
