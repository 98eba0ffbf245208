import Foundation
import Testing

extension Trait where Self == ConditionTrait {
  /// Runs the test only where what it `needs` is at hand (`met`); where it is not, the test is
  /// skipped as `.enabled(if:)` skips it, and counted for the list printed after the last
  /// line of `swift test`, so a skip is not lost in the middle of the log.
  public static func needs(_ met: @autoclosure @escaping @Sendable () -> Bool, _ what: String) -> Self {
    .enabled(if: SkippedTests.note(met(), what), Comment(rawValue: what))
  }
}

/// The tests skipped in this run for what the machine lacks, said once more when the run ends.
/// The one piece of process-wide state in the tests: the test library gives no hook at the end
/// of a run, so the list is printed by an exit handler, after its summary line.
public enum SkippedTests {
  private static let skipped = NSLock()
  nonisolated(unsafe) private static var reasons: [String: Int] = [:]

  /// `met`, and when it is false, one more test skipped for `what`.
  static func note(_ met: Bool, _ what: String) -> Bool {
    guard !met else { return true }
    skipped.lock()
    defer { skipped.unlock() }
    if reasons.isEmpty { atexit { SkippedTests.report() } }
    reasons[what, default: 0] += 1
    return false
  }

  private static func report() {
    FileHandle.standardError.write(Data(summary(reasons).utf8))
  }

  /// What is printed at the end: how many tests were skipped, for each reason.
  public static func summary(_ reasons: [String: Int]) -> String {
    let lines = reasons.sorted { $0.key < $1.key }.map { what, count in
      "  \(count) \(count == 1 ? "test" : "tests"): \(what)"
    }
    let total = reasons.values.reduce(0, +)
    return "\nSkipped \(total) \(total == 1 ? "test" : "tests") here:\n" + lines.joined(separator: "\n")
      + "\nInstall what each names and run swift test again to run them; .ci/run installs them all.\n"
  }
}

/// Tools from PyPI that tests compare against (the reference FSRS, pyopenjtalk-plus).
public enum PythonModules {
  /// Whether `python3` can import `module`, or CI requires it (`BIKI_REQUIRE_CLIENTS=1`, where a
  /// missing module must fail the test rather than skip it).
  public static func available(_ module: String) -> Bool {
    let imported =
      (try? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(module)"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
      }()) ?? false
    return imported || ProcessInfo.processInfo.environment["BIKI_REQUIRE_CLIENTS"] == "1"
  }
}
