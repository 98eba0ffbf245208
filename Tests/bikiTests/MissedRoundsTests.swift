import Foundation
import Testing

/// What a quiz missed, asked again in rounds until right, as a learner meets it: `biki quiz
/// --missed` in a terminal, and `biki serve` for an editor.
@Suite struct MissedRoundsTests {
  /// A home whose last quiz missed 六本 (ろっぽん): counters.hon in kana, seed 4, skipped.
  static func missedRoppon() throws -> [String: String] {
    let home = NSTemporaryDirectory() + "biki-missed-" + UUID().uuidString
    var environment = BikiPackTests.isolated(home)
    environment["XDG_STATE_HOME"] = home + "/state"
    environment["BIKI_INPUT"] = "ろくほん\nskip\n"
    let quiz = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --skill kana --seed 4 --mode questions=1",
      environment: environment)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    return environment
  }

  @Test func theTerminalAsksAgainInRoundsUntilRight() throws {
    var environment = try Self.missedRoppon()
    environment["BIKI_INPUT"] = "skip\nろっぽん\n"
    let again = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz --missed", environment: environment)
    #expect(again.status == 0, "\(again.standardError)")
    let output = again.standardOutput
    #expect(
      output.contains("Missed in counters.hon — kana: see the number, type its reading, 1 missed question, in rounds"))
    #expect(output.contains("[round 1: 1/1] 6本"), "\(output)")
    #expect(output.contains("[round 2: 1/1] 6本"), "\(output)")
    #expect(output.contains("Finished (all right at the first try, after 2 rounds)"), "\(output)")
    #expect(output.contains("  Rounds: 2"))

    // Its round 2 was right at once: nothing was missed in the drill's own last round, but the
    // drill as a whole missed 6本 in round 1, so it is what comes back next.
    environment["BIKI_INPUT"] = "ろっぽん\n"
    let next = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz --missed counters.hon", environment: environment)
    #expect(
      next.standardOutput.contains("Finished (all right at the first try, after 1 round)"), "\(next.standardOutput)")

    // --since 1: what was missed in the last day, whatever session it was in: 6本 again.
    environment["BIKI_INPUT"] = "ろっぽん\n"
    let lastDay = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz --missed --since 1", environment: environment)
    #expect(lastDay.standardOutput.contains("[round 1: 1/1] 6本"), "\(lastDay.standardOutput)")
    #expect(lastDay.standardOutput.contains("Finished (all right at the first try, after 1 round)"))

    // Nothing missed in the last session: said, and nothing asked.
    environment["BIKI_INPUT"] = ""
    let none = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz --missed", environment: environment)
    #expect(none.status == 69)
    #expect(none.standardError == "Nothing to ask again: nothing was missed in the last session.\n")
  }

  @Test func serveAsksAgainInRoundsUntilRight() throws {
    let environment = try Self.missedRoppon()
    let input =
      ServeRun.initialize
      + ServeRun.request(1, "biki/startSession", #"{"mode":{"kind":"missed"}}"#)
      + ServeRun.request(2, "biki/skip", #"{"sessionId":"s1"}"#)
      + ServeRun.request(3, "biki/answer", #"{"sessionId":"s1","answer":"ろっぽん"}"#)
      + ServeRun.shutdownAndExit
    let run = try ServeRun.run(input, home: environment["HOME"])
    let started = try #require(run.result(1), "\(run.messages)")
    #expect(started["topicId"] as? String == "missed" && started["skill"] as? String == "kana")
    #expect((started["question"] as? [String: Any])?["prompt"] as? String == "6本")
    let round = (started["progress"] as? [String: Any])?["round"] as? [String: Any]
    #expect(round?["number"] as? Int == 1 && round?["questions"] as? Int == 1 && round?["position"] as? Int == 1)
    let skipped = try #require(run.result(2))
    #expect(((skipped["progress"] as? [String: Any])?["round"] as? [String: Any])?["number"] as? Int == 2)
    let done = try #require(run.result(3))
    let summary = try #require(done["summary"] as? [String: Any])
    #expect(summary["endReason"] as? String == "allRight" && summary["rounds"] as? Int == 2)
  }

  @Test(arguments: [
    (["quiz", "--since", "3"], "Error: '--since' goes with '--missed'.\n"),
    (["quiz", "--missed", "--since", "0"], "Error: '--since' takes a number of days, more than 0 and at most 3650.\n"),
    (
      ["quiz", "--missed", "--mode", "infinite"],
      "Error: '--missed' sets its own questions; leave out '--mode' and '--all'.\n"
    ),
  ])
  func misusedOptionsAreUsageErrors(arguments: [String], message: String) throws {
    let result = try BikiProcess.run(
      arguments, environment: BikiPackTests.isolated(NSTemporaryDirectory() + UUID().uuidString))
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
  }
}
