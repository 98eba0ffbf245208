import BikiTestSupport
import Foundation
import Testing

/// `biki-pack lint`'s named plugin checks, as clap-validator's users meet its tests: a list of
/// what each proves, a way to run some, a JSON report per check, and a crash or hang in one
/// check that fails that check while the others still run.
@Suite struct PluginCheckListTests {
  func lint(_ arguments: [String]) throws -> BikiProcess.Result {
    let home = NSTemporaryDirectory() + "biki-checks-" + UUID().uuidString
    return try BikiProcess.run(["lint"] + arguments, program: "biki-pack", environment: BikiPackTests.isolated(home))
  }

  /// Each check of a `--format json` report, by name: its status, and the rest of its members.
  func checks(_ result: BikiProcess.Result) throws -> [String: [String: Any]] {
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
      "\(result.standardOutput)")
    let file = try #require((root["files"] as? [[String: Any]])?.first)
    let list = try #require(file["checks"] as? [[String: Any]], "\(file)")
    return Dictionary(uniqueKeysWithValues: list.compactMap { check in (check["name"] as? String).map { ($0, check) } })
  }

  @Test func theListNamesEachCheckWithWhatItProves() throws {
    let listed = try lint(["--list-checks"])
    #expect(listed.status == 0)
    let lines = listed.standardOutput.split(separator: "\n")
    #expect(lines.count >= 40, "\(listed.standardOutput)")
    let names = lines.map { String($0.split(separator: " ").first ?? "") }
    #expect(Set(names).count == names.count)
    #expect(
      names.allSatisfy {
        $0.range(of: #"^(load|describe|generate|count|writer)\.[a-z-]+$"#, options: .regularExpression) != nil
      })
    #expect(lines.allSatisfy { $0.split(separator: " ", omittingEmptySubsequences: true).count > 3 })

    let json = try lint(["--list-checks", "--format", "json"])
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: String]])
    #expect(entries.map { $0["name"] ?? "" } == names)
  }

  /// docs/plugin-abi.md lists the checks as `--list-checks` prints them.
  @Test func theDocsListTheChecksAsTheListPrintsThem() throws {
    let listed = try lint(["--list-checks"]).standardOutput
    let docs = try String(
      contentsOf: PluginFixtures.repository.appendingPathComponent("docs/plugin-abi.md"), encoding: .utf8)
    let block = docs.components(separatedBy: "<!-- biki-pack lint --list-checks -->\n```\n").dropFirst().first?
      .components(separatedBy: "```").first
    #expect(block == listed, "regenerate the block in docs/plugin-abi.md with biki-pack lint --list-checks")
  }

  @Test func checkAndSkipChooseWhichRun() throws {
    let calendar = try PluginFixtures.calendar()
    let chosen = try checks(try lint([calendar, "--format", "json", "--check", "^generate\\.(kana|answer)$"]))
    #expect(chosen["generate.kana"]?["status"] as? String == "passed")
    #expect(chosen["generate.answer"]?["status"] as? String == "passed")
    #expect(chosen["load.library"]?["status"] as? String == "skipped")
    #expect(chosen["load.library"]?["reason"] as? String == "not selected by --check")

    let left = try checks(try lint([calendar, "--format", "json", "--skip", "^generate\\.", "--skip", "count"]))
    #expect(left["load.library"]?["status"] as? String == "passed")
    #expect(left["generate.kana"]?["reason"] as? String == "left out by --skip ^generate\\.")
    #expect(left["count.stable"]?["reason"] as? String == "left out by --skip count")

    let text = try lint([calendar, "--check", "kana"])
    #expect(text.status == 0)
    #expect(
      text.standardOutput.contains(
        ": note: of \(chosen.count) checks, 1 passed, \(chosen.count - 1) skipped, \(chosen.count - 1) not selected;"),
      "\(text.standardOutput)")

    let none = try lint([calendar, "--check", "no-such-check"])
    #expect(none.status == 64)
    #expect(
      none.standardError.contains("No plugin check is left to run by --check and --skip"), "\(none.standardError)")

    let invalid = try lint([calendar, "--check", "generate.("])
    #expect(invalid.status == 64)
    #expect(invalid.standardError.contains("'generate.(' is not a regular expression."), "\(invalid.standardError)")
  }

  /// A plugin that crashes on every question: the checks that ask questions crash, naming the
  /// signal, and the checks before and beside them still run and pass.
  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func aCrashFailsItsChecksAndTheOthersStillRun() throws {
    let result = try lint([try PluginFixtures.misbehaving("SEGFAULT"), "--format", "json"])
    #expect(result.status == 1)
    let found = try checks(result)
    #expect(found["generate.no-crash"]?["status"] as? String == "crashed")
    #expect(found["generate.no-crash"]?["signal"] as? Int == 11)
    #expect(found["generate.no-crash"]?["rules"] as? [String] == ["plugin-crash"])
    #expect(found["generate.kana"]?["status"] as? String == "crashed")
    for name in ["load.library", "load.entry", "describe.json", "describe.stable", "generate.unknown-topic"] {
      #expect(found[name]?["status"] as? String == "passed", "\(name): \(found[name] ?? [:])")
    }
  }

  /// A plugin that hangs on one question: that check fails on the time limit, and every other
  /// check still runs.
  @Test func aHangFailsItsCheckAndTheOthersStillRun() throws {
    let result = try lint([try PluginFixtures.misbehaving("HANG_ON_SEED=3"), "--format", "json"])
    #expect(result.status == 1)
    let found = try checks(result)
    #expect(found["generate.time-limit"]?["status"] as? String == "failed")
    #expect(found["generate.time-limit"]?["rules"] as? [String] == ["plugin-timeout"])
    #expect(found["generate.kana"]?["status"] as? String == "passed")
    #expect(found["generate.unknown-topic"]?["status"] as? String == "passed")
    #expect(found.values.filter { $0["status"] as? String == "failed" }.count == 1, "\(found)")
  }

  /// `--in-process` runs every check in lint's own process; what needs a second load says so.
  @Test func inProcessRunsTheChecksHere() throws {
    let result = try lint([try PluginFixtures.calendar(), "--format", "json", "--in-process"])
    #expect(result.status == 0, "\(result.standardOutput)")
    let found = try checks(result)
    #expect(found["generate.readings"]?["status"] as? String == "passed")
    #expect(found["describe.stable"]?["status"] as? String == "skipped")
    #expect(found["describe.stable"]?["reason"] as? String == "needs a second load, which --in-process cannot make")
  }

  /// Each check the earlier single pass did not make fails on the misbehaviour it is for, by
  /// name and rule, in a run of that check alone.
  @Test(
    .disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)),
    arguments: [
      ("SEED_NOT_MODULO", "generate.seed-modulo", "failed", "plugin-seed-modulo"),
      ("ORDER_DEPENDENT", "generate.order-independent", "failed", "plugin-nondeterministic"),
      ("DEFAULT_DIFFERS", "generate.explicit-defaults", "failed", "plugin-default-parameters"),
      ("LARGE_SEED_CRASH", "generate.large-seed", "crashed", "plugin-crash"),
      ("PREFIX_TOPIC", "generate.unknown-topic-longer", "failed", "plugin-unknown-topic"),
      ("PREFIX_TOPIC", "generate.unknown-topic-space", "failed", "plugin-unknown-topic"),
      ("WRONG_UNKNOWN_STATUS", "generate.unknown-topic-status", "passed", "plugin-unknown-topic"),
    ])
  func eachNewerCheckFailsOnItsMisbehaviour(_ define: String, _ check: String, _ status: String, _ rule: String)
    throws
  {
    let result = try lint([try PluginFixtures.misbehaving(define), "--format", "json", "--check", "^\(check)$"])
    let found = try #require(try checks(result)[check], "\(result.standardOutput)")
    #expect(found["status"] as? String == status, "\(found)")
    #expect(found["rules"] as? [String] == [rule], "\(found)")
    // The well-behaved build passes the same check.
    let clean = try checks(
      try lint([try PluginFixtures.misbehaving(nil), "--format", "json", "--check", "^\(check)$"]))
    #expect(clean[check]?["status"] as? String == "passed")
    #expect(clean[check]?["rules"] == nil)
  }

  /// Checks the earlier single pass did not make: a topic id compared as a prefix, a plugin that
  /// reads its seeds modulo something other than its count, and one whose count disagrees with
  /// its description.
  @Test func theNewerChecksFindWhatTheyProve() throws {
    let counted = try checks(try lint([try PluginFixtures.misbehaving("COUNT_LIES"), "--format", "json"]))
    #expect(counted["count.matches-description"]?["status"] as? String == "failed", "\(counted)")
  }
}
