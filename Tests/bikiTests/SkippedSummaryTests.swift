import BikiTestSupport
import Foundation
import Testing

/// What `swift test` prints after its last line when tests were skipped, as README.md shows it.
@Suite struct SkippedSummaryTests {
  @Test func theSummaryIsTheOneTheReadmeShows() throws {
    let summary = SkippedTests.summary(["needs the reference FSRS: python3 -m pip install fsrs": 1])
    let readme = try String(contentsOf: BikiPackTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains("```text" + summary + "```"))
    #expect(
      SkippedTests.summary(["needs tmux": 2, "needs Chromium": 1])
        == "\nSkipped 3 tests here:\n  1 test: needs Chromium\n  2 tests: needs tmux\n"
        + "Install what each names and run swift test again to run them; .ci/run installs them all.\n")
  }
}
