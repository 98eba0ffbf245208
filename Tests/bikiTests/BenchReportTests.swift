import BikiTestSupport
import Foundation
import Testing

/// What docs/performance.md says of every `biki-bench` report, as a run shows it.
@Suite struct BenchReportTests {
  @Test func aReportIsStampedWithTheCommitAndCPUAndGivesMediansWithTheirSpread() throws {
    let result = try BikiProcess.run(["--filter", "readings.phrases", "--seconds", "0.05"], program: "biki-bench")
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    let stamp = try #require(lines.first)
    #expect(
      stamp.wholeMatch(of: /biki-bench at ([0-9a-f]{7,}(\+changes)?|an unknown commit) on .+, [0-9]+ CPUs/) != nil,
      "\(stamp)")
    let figure = try #require(lines.first { $0.hasPrefix("readings.phrases:") })
    #expect(
      figure.wholeMatch(of: /readings\.phrases: [0-9]+ phrases\/s median \([0-9]+–[0-9]+\)  \[.*; [0-9]+ batches; .*\]/)
        != nil, "\(figure)")
  }

  /// The start-up hashing figures set keying against what a cache miss costs, packs and each
  /// sample plugin, in one run.
  @Test func startUpHashingIsMeasuredAgainstWhatTheCacheSaves() throws {
    let result = try BikiProcess.run(["--filter", "startup.hashing"], program: "biki-bench")
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    for name in ["packs", "libbiki-calendar.so", "libbiki-prices.so"] {
      let figure = try #require(lines.first { $0.hasPrefix("startup.hashing.\(name): ") }, "\(result.standardOutput)")
      #expect(figure.contains(" ms to key ") && figure.contains("(target: keying < "), "\(figure)")
    }
  }

  /// The listening figures: audio made ahead, through the editors' `biki say`, and made on
  /// asking, each a p95 against its target, in one run, where Open JTalk can speak (the debug
  /// build's bench measures the same path).
  @Test(.needs(SpeechTests.openJTalkUsable, SpeechTests.needsOpenJTalk))
  func speechIsTimedFromThePromptToThePlayer() throws {
    let result = try BikiProcess.run(["--filter", "speech"], program: "biki-bench")
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n")
    for (name, target) in [
      ("ahead", "(target ≤ 50 ms: "), ("say", "(target ≤ 50 ms: "), ("asking", "(target ≤ 300 ms: "),
    ] {
      let figure = try #require(lines.first { $0.hasPrefix("speech.\(name): p95 ") }, "\(result.standardOutput)")
      #expect(figure.contains(" ms ") && figure.contains(target), "\(figure)")
    }
  }
}
