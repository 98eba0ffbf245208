import BikiCore
import BikiTestSupport
import Foundation
import Testing

/// `biki stats` shows what the history says, whatever was done to the summary kept beside it
/// or to the history's early lines: the real binary, on real files.
@Suite struct HistoryTamperTests {
  /// A home with a three-question quiz in its history: 8 (wrong, then skipped), 1本, 7本.
  func practisedHome() throws -> (environment: [String: String], history: String) {
    let home = NSTemporaryDirectory() + "biki-tamper-" + UUID().uuidString
    var environment = BikiPackTests.isolated(home)
    environment["XDG_STATE_HOME"] = home + "/state"
    environment["BIKI_INPUT"] = "8\nskip\n1\n7本\n"
    let quiz = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --seed 4 --mode questions=3",
      environment: environment)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    return (environment, home + "/state/biki/history.jsonl")
  }

  func stats(_ environment: [String: String]) throws -> String {
    let result = try BikiProcess.run(["stats"], environment: environment)
    #expect(result.status == 0, "\(result.standardError)")
    return result.standardOutput
  }

  @Test func anInflatedFigureInTheSummaryIsNeverShown() throws {
    let (environment, history) = try practisedHome()
    let truth = try stats(environment)
    #expect(truth.contains("counters.hon\t4\t2\t1\t1\t50%"), "\(truth)")
    let summaryPath = history + ".summary"
    let kept = try String(contentsOfFile: summaryPath, encoding: .utf8)
    #expect(kept.contains(#""correct":2"#))
    try kept.replacingOccurrences(of: #""correct":2"#, with: #""correct":902"#).write(
      toFile: summaryPath, atomically: false, encoding: .utf8)
    #expect(try stats(environment) == truth)
    #expect(try String(contentsOfFile: summaryPath, encoding: .utf8) == kept, "the true summary is written back")
  }

  /// A topic's figure raised and the summary's checksum made again to match: its days still
  /// count 2 right answers, so the summary cannot be true and is made afresh.
  @Test func aRaisedFigureWithItsChecksumMadeAgainIsNeverShown() throws {
    let (environment, history) = try practisedHome()
    let truth = try stats(environment)
    let summaryPath = history + ".summary"
    let kept = try String(contentsOfFile: summaryPath, encoding: .utf8)
    let prefix = #"{"checksum":""#
    let middle = #"","summary":"#
    #expect(kept.hasPrefix(prefix) && kept.hasSuffix("}"))
    let body = String(kept.dropFirst(prefix.count + 16 + middle.count).dropLast())
    let topic = #"{"topic":"counters.hon","answers":3,"correct":2"#
    #expect(body.contains(topic), "\(body)")
    let raised = body.replacingOccurrences(of: topic, with: #"{"topic":"counters.hon","answers":3,"correct":3"#)
    let forged = prefix + Fingerprint.text(StreamFingerprint.of(Array(raised.utf8))) + middle + raised + "}"
    try forged.write(toFile: summaryPath, atomically: false, encoding: .utf8)
    #expect(try stats(environment) == truth)
    #expect(try String(contentsOfFile: summaryPath, encoding: .utf8) == kept, "the true summary is written back")
  }

  @Test func anEarlyEditOfTheSameLengthInTheHistoryIsCounted() throws {
    let (environment, history) = try practisedHome()
    #expect(try stats(environment).contains("counters.hon\t4\t2\t1\t1\t50%"))
    // Append a long tail of practice so the first answer lies far before the summary's end.
    let tail = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --seed 9 --mode questions=40",
      environment: environment.merging(["BIKI_INPUT": String(repeating: "skip\n", count: 40)]) { $1 })
    #expect(tail.status == 0, "\(tail.standardError)")
    #expect(try stats(environment).contains("counters.hon\t44\t2\t1\t41\t"))
    // The first answer (8, wrong) turned right, every byte after it where it was.
    var text = try String(contentsOfFile: history, encoding: .utf8)
    let wrong = try #require(text.range(of: #""correct":false"#))
    text.replaceSubrange(wrong, with: #""correct":true "#)
    try text.write(toFile: history, atomically: false, encoding: .utf8)
    #expect(try stats(environment).contains("counters.hon\t44\t3\t0\t41\t"))
  }
}
