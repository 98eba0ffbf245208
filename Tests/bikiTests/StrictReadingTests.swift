import Foundation
import Testing

/// Readings Biki accepts but marks uncommon (じっぽん for 10本, where the usual reading is
/// じゅっぽん): right by default, with the usual reading named; refused when strict.
@Suite struct StrictReadingTests {
  /// Seed 1 on counters.hon asks 10本 first.
  func quiz(_ extra: [String], input: String) throws -> BikiProcess.Result {
    let home = NSTemporaryDirectory() + "biki-strict-" + UUID().uuidString
    var environment = BikiPackTests.isolated(home)
    environment["BIKI_INPUT"] = input
    return try BikiProcess.run(
      [],
      viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --skill kana --seed 1 --mode questions=1 "
        + extra.joined(separator: " "), environment: environment)
  }

  @Test func theTerminalAcceptsAnUncommonReadingNamingTheUsualOneAndRefusesItWhenStrict() throws {
    let relaxed = try quiz([], input: "じっぽん\n")
    #expect(relaxed.standardOutput.contains("✓ Accepted, though uncommon: the usual reading is じゅっぽん\n"))
    #expect(relaxed.standardOutput.contains("Correct: 1 (1 on the first try)"), "\(relaxed.standardOutput)")

    let strict = try quiz(["--strict"], input: "じっぽん\nじゅっぽん\n")
    #expect(
      strict.standardOutput.contains(
        "✗ Not quite. じっぽん is uncommon, and this quiz is strict: the usual reading is じゅっぽん. Try again"),
      "\(strict.standardOutput)")
    #expect(strict.standardOutput.contains("Correct: 1 (0 on the first try)   Wrong attempts: 1"))
  }

  @Test func serveAcceptsItMarkedUncommonAndRefusesItInAStrictSession() throws {
    let input =
      ServeRun.initialize
      + ServeRun.request(
        1, "biki/startSession",
        #"{"topicId":"counters.hon","skill":"kana","seed":1,"mode":{"kind":"questionLimit","limit":1}}"#)
      + ServeRun.request(2, "biki/answer", #"{"sessionId":"s1","answer":"じっぽん"}"#)
      + ServeRun.request(
        3, "biki/startSession",
        #"{"topicId":"counters.hon","skill":"kana","seed":1,"strict":true,"mode":{"kind":"questionLimit","limit":1}}"#)
      + ServeRun.request(4, "biki/answer", #"{"sessionId":"s2","answer":"じっぽん"}"#)
      + ServeRun.request(5, "biki/startSession", #"{"topicId":"counters.hon","strict":"yes"}"#)
      + ServeRun.shutdownAndExit
    let run = try ServeRun.run(input)
    let relaxed = try #require(run.result(2), "\(run.messages)")
    #expect(relaxed["verdict"] as? String == "correct")
    #expect(relaxed["standard"] as? String == "じゅっぽん" && relaxed["uncommon"] as? Bool == true)
    let strict = try #require(run.result(4))
    #expect(strict["verdict"] as? String == "incorrect")
    #expect(
      strict["hint"] as? String == "じっぽん is uncommon, and this quiz is strict: the usual reading is じゅっぽん.")
    #expect(run.errorCode(5) == -32602)
  }
}
