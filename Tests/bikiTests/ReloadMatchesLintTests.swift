import Foundation
import Testing

/// `biki/reloadPacks` and `biki/packsChanged` report what `biki-pack lint` reports for the same
/// file: a pack whose impossible date only a check of every question finds (2月30日 is question
/// 60 of 372, between the 64 a quick load samples) is never reported clean, and its topic is
/// not served.
@Suite(.serialized) struct ReloadMatchesLintTests {
  static let monthAndDay = """
    {"format": 1, "id": "days", "title": "Days", "version": "1",
     "topics": [
      {"id": "md", "title": "Month and day", "description": "Any month, any day.", "category": "dateTime", "skills": ["reading"],
       "variables": {"m": {"range": {"min": 1, "max": 12}}, "d": {"range": {"min": 1, "max": %MAX%}}},
       "question": {"parts": [{"number": "m", "counter": "月"}, {"number": "d", "counter": "dayOfMonth"}], "answer": {"value": "d", "postfix": "日"}}}
     ]}
    """

  static func lintLines(_ file: String, home: String) throws -> [String] {
    let lint = try BikiProcess.run(["lint", file], program: "biki-pack", environment: BikiPackTests.isolated(home))
    return lint.standardOutput.split(separator: "\n").map(String.init).filter { $0.hasPrefix(file + ":") }
  }

  static func formatted(_ report: [String: Any]?) -> [String] {
    ((report?["problems"] as? [[String: Any]]) ?? []).compactMap { $0["formatted"] as? String }
  }

  static func topicIDs(_ server: LiveServer, _ id: Int) -> [String] {
    server.request(id, "biki/topics")
    let topics =
      (server.waitForResponse(id, within: 30)?.message["result"] as? [String: Any])?["topics"] as? [[String: Any]]
    return (topics ?? []).compactMap { $0["id"] as? String }
  }

  @Test func reloadReportsWhatLintReportsAndServesNoTopicLintRefuses() throws {
    let home = NSTemporaryDirectory() + "biki-live-" + UUID().uuidString
    let packs = home + "/data/biki/packs"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    let file = packs + "/days.json"
    try Self.monthAndDay.replacingOccurrences(of: "%MAX%", with: "31").write(
      toFile: file, atomically: true, encoding: .utf8)
    let linted = try Self.lintLines(file, home: home)
    #expect(
      linted == [
        "\(file):5:27: error: topic \"md\" cannot produce question 60 of 372: cannot read '2月30日': 2月30日 is not a date: 2月 has 29 days [unreadable-value]"
      ])

    let server = try LiveServer(home: home)
    try server.initialize()
    server.request(1, "biki/reloadPacks")
    let reloaded = server.waitForResponse(1, within: 60)?.message["result"] as? [String: Any]
    #expect(Self.formatted(reloaded) == linted, "\(reloaded ?? [:])")
    #expect((reloaded?["readingCoverage"] as? [Any])?.isEmpty == true)
    #expect(!Self.topicIDs(server, 2).contains("days.md"))

    // Fixed on disk: the poll notices, and the report is clean again.
    let before = server.count
    try Self.monthAndDay.replacingOccurrences(of: "%MAX%", with: "28").write(
      toFile: file, atomically: true, encoding: .utf8)
    #expect(try Self.lintLines(file, home: home).isEmpty)
    let changed = server.waitFor(within: 30, after: before) {
      $0["method"] as? String == "biki/packsChanged" && Self.formatted($0["params"] as? [String: Any]).isEmpty
    }
    #expect(changed != nil, "no clean biki/packsChanged: \(server.messages.suffix(3).map(\.message))")
    #expect(Self.topicIDs(server, 3).contains("days.md"))

    // Broken again by an edit: the notification lists what lint lists.
    let again = server.count
    try Self.monthAndDay.replacingOccurrences(of: "%MAX%", with: "31").write(
      toFile: file, atomically: true, encoding: .utf8)
    let broken = server.waitFor(within: 30, after: again) { $0["method"] as? String == "biki/packsChanged" }
    #expect(Self.formatted(broken?.message["params"] as? [String: Any]) == linted)
    #expect(server.finish() == 0)
  }

  /// Right after start-up the user's packs are checked in full off the message loop: the topic
  /// lint refuses stops being served without any reload being asked for.
  @Test func theFullCheckAfterStartUpStopsServingWhatLintRefuses() throws {
    let home = NSTemporaryDirectory() + "biki-live-" + UUID().uuidString
    let packs = home + "/data/biki/packs"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    try Self.monthAndDay.replacingOccurrences(of: "%MAX%", with: "31").write(
      toFile: packs + "/days.json", atomically: true, encoding: .utf8)
    let server = try LiveServer(home: home)
    try server.initialize()
    let deadline = Date(timeIntervalSinceNow: 30)
    var id = 10
    while Self.topicIDs(server, id).contains("days.md") && Date() < deadline {
      id += 1
      usleep(100_000)
    }
    #expect(!Self.topicIDs(server, id + 1).contains("days.md"))
    #expect(server.finish() == 0)
  }
}
