import Foundation
import Testing

/// `.ci/bench-check` fails when a speed trick stops paying: `biki-bench --filter tricks` holds
/// each trick to its floor in the baseline, and a trick without one fails too. The ratios a
/// debug build measures mean nothing, so these floors are set out of reach or trivially met.
@Suite struct BenchTricksTests {
  func runTricks(baseline: String) throws -> BikiProcess.Result {
    let file = NSTemporaryDirectory() + "biki-baseline-" + UUID().uuidString
    try baseline.write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    var environment = ProcessInfo.processInfo.environment
    environment["BIKI_BENCH_BASELINE"] = file
    return try BikiProcess.run(
      ["--filter", "tricks", "--seconds", "0.01"], program: "biki-bench", environment: environment)
  }

  @Test func aTrickBelowItsFloorFailsTheRunNamingItself() throws {
    let result = try runTricks(baseline: "tricks.escape-scan 1000\ntricks.written-question 0.0001\n")
    #expect(result.status == 1)
    #expect(result.standardOutput.contains("tricks.escape-scan:"))
    #expect(result.standardOutput.contains("(floor ≥ 1000.00×: NOT met: the trick no longer pays)"))
    #expect(result.standardOutput.contains("(floor ≥ 0.00×: met)"))
  }

  @Test func everyTrickAtOrAboveItsFloorPasses() throws {
    let result = try runTricks(
      baseline: "# trivially met\ntricks.escape-scan 0.0001\ntricks.written-question 0.0001 # too\n")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(!result.standardOutput.contains("NOT met"))
  }

  @Test func aTrickWithoutAFloorFails() throws {
    let result = try runTricks(baseline: "tricks.escape-scan 0.0001\n")
    #expect(result.status == 1)
    #expect(result.standardOutput.contains("tricks.written-question:"))
    #expect(result.standardOutput.contains("NO floor recorded"))
  }

  @Test func aBaselineThatCannotBeReadIsNamed() throws {
    var environment = ProcessInfo.processInfo.environment
    environment["BIKI_BENCH_BASELINE"] = "/nonexistent/bench-baseline"
    let result = try BikiProcess.run(
      ["--filter", "tricks", "--seconds", "0.01"], program: "biki-bench", environment: environment)
    #expect(result.status == 66)
    #expect(result.standardError.contains("cannot read the baseline '/nonexistent/bench-baseline'"))
  }

  /// The committed baseline has a floor for every trick the bench times.
  @Test func theCommittedBaselineCoversEveryTrick() throws {
    let committed = try String(
      contentsOf: BikiPackTests.repository.appendingPathComponent(".ci/bench-baseline"), encoding: .utf8)
    let result = try runTricks(baseline: committed)
    #expect(result.standardOutput.contains("tricks.escape-scan:"))
    #expect(result.standardOutput.contains("tricks.written-question:"))
    #expect(!result.standardOutput.contains("NO floor recorded"), "\(result.standardOutput)")
  }
}
