import BikiTestSupport
import Foundation
import Testing

/// A stale copy that fails to load never hides the pack it is a copy of.
@Suite struct PackPrecedenceTests {
  static func harbour(category: String = "number") -> String {
    #"""
    { "format": 1, "id": "harbour", "title": "Harbour", "version": "1",
      "topics": [
        { "id": "ships", "title": "Ships", "description": "Counting ships.", "category": "\#(category)", "skills": ["kana"],
          "variables": { "n": { "range": { "min": 1, "max": 20 } } },
          "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } } }
      ] }
    """#
  }

  @Test func aBrokenStaleCopyNeverHidesTheGoodOne() throws {
    let home = NSTemporaryDirectory() + "biki-precedence-" + UUID().uuidString
    let packs = home + "/packs"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    // Sorted first, so before the fix it took the id and, failing, served nothing.
    try Self.harbour(category: "numbr").write(toFile: packs + "/harbour-old.json", atomically: true, encoding: .utf8)
    try Self.harbour().write(toFile: packs + "/harbour.json", atomically: true, encoding: .utf8)
    let environment = BikiPackTests.isolated(home)

    let topics = try BikiProcess.run(["topics", "--packs", packs], environment: environment)
    #expect(topics.status == 0, "\(topics.standardError)")
    #expect(
      topics.standardOutput.contains("harbour.ships\tShips\tnumber\tkana\t\(packs)/harbour.json\n"),
      "\(topics.standardOutput)")
    // Only the broken copy is reported, and not as if it were loaded.
    #expect(topics.standardError.contains("\(packs)/harbour-old.json:"), "\(topics.standardError)")
    #expect(!topics.standardError.contains("Warning: \(packs)/harbour.json:"), "\(topics.standardError)")
    #expect(
      topics.standardError.contains("also defined at \(packs)/harbour.json:3:13, which is loaded instead of this one"),
      "\(topics.standardError)")

    let lint = try BikiProcess.run(["lint", packs], program: "biki-pack", environment: environment)
    #expect(lint.status == 1)
    let lines = lint.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      lines.contains { $0.hasPrefix("\(packs)/harbour-old.json:3:86: error: the category \"numbr\"") },
      "\(lint.standardOutput)")
    #expect(
      lines.contains {
        $0.hasPrefix("\(packs)/harbour-old.json:3:13: error:")
          && $0.contains("also defined at \(packs)/harbour.json:3:13,")
          && $0.hasSuffix("which is loaded instead of this one [duplicate-topic-id]")
      }, "\(lint.standardOutput)")
    #expect(
      lines.contains {
        $0
          == "\(packs)/harbour.json:3:13: warning: topic id \"harbour.ships\" is also defined at \(packs)/harbour-old.json:3:13; this one is loaded [duplicate-topic-id]"
      }, "\(lint.standardOutput)")
    #expect(!lint.standardOutput.contains("\(packs)/harbour.json:3:13: error"), "\(lint.standardOutput)")
  }

  /// A working copy given to lint takes precedence, unless its topic fails: then the installed
  /// copy serves, and the working copy is told so.
  @Test func aBrokenWorkingCopyIsToldTheInstalledOneServes() throws {
    let home = NSTemporaryDirectory() + "biki-precedence-" + UUID().uuidString
    let installed = home + "/data/biki/packs"
    let work = home + "/drafts"
    for directory in [installed, work] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    try Self.harbour().write(toFile: installed + "/harbour.json", atomically: true, encoding: .utf8)
    try Self.harbour(category: "numbr").write(toFile: work + "/harbour.json", atomically: true, encoding: .utf8)
    let environment = BikiPackTests.isolated(home)

    let lint = try BikiProcess.run(["lint", work + "/harbour.json"], program: "biki-pack", environment: environment)
    #expect(
      lint.standardOutput.contains(
        "\(work)/harbour.json:3:13: warning: topic id \"harbour.ships\" does not load from this file, so \(installed)/harbour.json:3:13 (one of your packs or plugins) is used instead [overridden-topic]"
      ),
      "\(lint.standardOutput)")
    let topics = try BikiProcess.run(["topics", "--packs", work], environment: environment)
    #expect(
      topics.standardOutput.contains("harbour.ships\tShips\tnumber\tkana\t\(installed)/harbour.json\n"),
      "\(topics.standardOutput)")
  }
}

/// A question asked the moment `initialize` is answered is served before every pack has loaded,
/// and it is the question the whole catalog would give: the same copy of its topic serves, by
/// the same precedence.
@Suite struct EarlyAnswerTests {
  static func numbers(topic: String, value: Int, category: String = "number") -> String {
    #"""
    { "format": 1, "id": "numbers", "title": "Mine", "version": "1",
      "topics": [
        { "id": "\#(topic)", "title": "Mine", "description": "One number.", "category": "\#(category)", "skills": ["kana"],
          "variables": { "n": { "range": { "min": \#(value), "max": \#(value) } } },
          "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } } }
      ] }
    """#
  }

  @Test func theFirstQuestionComesFromTheCopyThatServes() throws {
    let home = NSTemporaryDirectory() + "biki-early-" + UUID().uuidString
    let installed = home + "/data/biki/packs"
    let given = home + "/drafts"
    for directory in [installed, given] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    // The user's copy of a built-in topic takes its place; a draft of it given on the command
    // line would take precedence over both, but its topic fails, so the user's copy serves.
    try Self.numbers(topic: "beginner", value: 1000).write(
      toFile: installed + "/numbers-mine.json", atomically: true, encoding: .utf8)
    try Self.numbers(topic: "beginner", value: 7, category: "numbr").write(
      toFile: given + "/numbers.json", atomically: true, encoding: .utf8)
    let server = try LiveServer(arguments: ["--packs", given], home: home)
    try server.initialize()
    server.request(1, "biki/generate", #"{"topicId":"numbers.beginner","seed":1,"count":1}"#)
    // A topic of the built-in pack the user's copy does not define is still served from it.
    server.request(2, "biki/generate", #"{"topicId":"counters.hon","seed":3,"count":1}"#)
    func question(_ id: Int) -> [String: Any]? {
      let result = server.waitForResponse(id, within: 30)?.message["result"] as? [String: Any]
      return (result?["questions"] as? [[String: Any]])?.first
    }
    #expect(question(1)?["answer"] as? Int == 1000, "\(server.messages.map(\.message))")
    #expect(question(2)?["topicId"] as? String == "counters.hon", "\(server.messages.map(\.message))")
    #expect(server.finish() == 0)
  }
}
