import BikiTestSupport
import Foundation
import Testing

/// A pack's text reaches the terminal only as visible escapes: its title cannot set the window
/// title, clear the screen, ring the bell or reorder a line.
@Suite struct TerminalSafetyTests {
  /// A pack that loads, with ESC, BEL, NUL, CSI sequences, a C1 CSI and U+202E in its texts.
  static let hostile = #"""
    { "format": 1, "id": "evil", "title": "\u001b]0;pwned\u0007Evil", "version": "1", "description": "\u001b[2J\u0000pack",
      "topics": [
        { "id": "ships", "title": "\u001b]0;pwned\u0007Ships \u202Eabc\u001b[2J", "description": "Bell\u0007 and \u0000 nul \u009b31m",
          "category": "number", "skills": ["reading", "kana"],
          "variables": { "n": { "range": { "min": 1, "max": 20 } } },
          "question": { "parts": [{ "text": "船", "reading": "ふね" }, { "number": "n" }], "answer": { "value": "n", "postfix": "\u001b[31m隻\u0007" } } }
      ] }
    """#

  /// A pack that fails, whose id and keys carry the same, for the diagnostics that quote them.
  static let broken = #"""
    { "format": 1, "id": "b\u001b[2Jad\u202E", "title": "B", "version": "1", "\u001b]0;pwned\u0007": 1,
      "topics": [{ "id": "\u0007x", "title": "\u0000T", "\u001b[31mcategory": "number" }] }
    """#

  static func directory() throws -> (home: String, packs: String) {
    let home = NSTemporaryDirectory() + "biki-terminal-" + UUID().uuidString
    let packs = home + "/packs"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    try hostile.write(toFile: packs + "/evil.json", atomically: true, encoding: .utf8)
    try broken.write(toFile: packs + "/broken.json", atomically: true, encoding: .utf8)
    return (home, packs)
  }

  static func environment(_ home: String) -> [String: String] {
    var environment = BikiPackTests.isolated(home)
    environment["XDG_STATE_HOME"] = home + "/state"
    return environment
  }

  /// Neither stream holds a byte or scalar a terminal acts on; `\n` and `\t` are Biki's own layout.
  func expectSafe(_ result: BikiProcess.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for (name, text) in [("stdout", result.standardOutput), ("stderr", result.standardError)] {
      let unsafe = text.unicodeScalars.filter { scalar in
        scalar != "\n" && scalar != "\t"
          && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value))
      }
      #expect(
        unsafe.isEmpty, "\(what) \(name): \(unsafe.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation
      )
      for byte: UInt8 in [0x1B, 0x07, 0x00] {
        #expect(!text.utf8.contains(byte), "\(what) \(name) has byte \(byte)", sourceLocation: sourceLocation)
      }
    }
  }

  @Test func topicsShowsAPacksTextEscaped() throws {
    let (home, packs) = try Self.directory()
    let result = try BikiProcess.run(["topics", "--packs", packs], environment: Self.environment(home))
    #expect(result.status == 0, "\(result.standardError)")
    expectSafe(result, "biki topics")
    let line = result.standardOutput.split(separator: "\n").first { $0.hasPrefix("evil.ships\t") }
    #expect(
      line == "evil.ships\t\\u{1B}]0;pwned\\u{7}Ships \\u{202E}abc\\u{1B}[2J\tnumber\treading,kana\t\(packs)/evil.json")
    // The broken pack's problem is quoted, escaped, on stderr.
    #expect(result.standardError.contains("\(packs)/broken.json:"), "\(result.standardError)")
    #expect(result.standardError.contains("\\u{"), "\(result.standardError)")
  }

  @Test func aQuizAndTheStatsAfterItShowAPacksTextEscaped() throws {
    let (home, packs) = try Self.directory()
    var environment = Self.environment(home)
    environment["BIKI_INPUT"] = "skip\n"
    let quiz = try BikiProcess.run(
      [],
      viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz evil.ships --packs '\(packs)' --seed 1 --mode questions=1",
      environment: environment)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    expectSafe(quiz, "biki quiz")
    #expect(
      quiz.standardOutput.hasPrefix("\\u{1B}]0;pwned\\u{7}Ships \\u{202E}abc\\u{1B}[2J — reading"),
      "\(quiz.standardOutput)")
    // A control character in a text part is refused by the pack check (unreadable-display); the
    // answer's postfix still carries one, shown escaped.
    #expect(quiz.standardOutput.contains("\\u{1B}[31m隻\\u{7}"), "\(quiz.standardOutput)")
    #expect(quiz.standardOutput.contains("→ The answer: "), "\(quiz.standardOutput)")
    // The menu, when no topic is given: the numbers kind (1) lists it, then its id picks it.
    environment["BIKI_INPUT"] = "1\nevil.ships\nskip\n"
    let menu = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz --packs '\(packs)' --seed 1 --mode questions=1",
      environment: environment)
    #expect(menu.status == 0, "\(menu.standardError)")
    expectSafe(menu, "biki quiz (menu)")
    #expect(
      menu.standardOutput.contains(". \\u{1B}]0;pwned\\u{7}Ships \\u{202E}abc\\u{1B}[2J  [evil.ships]"),
      "\(menu.standardOutput)")

    let stats = try BikiProcess.run(["stats"], environment: environment)
    #expect(stats.status == 0, "\(stats.standardError)")
    expectSafe(stats, "biki stats")
    #expect(stats.standardOutput.contains("evil.ships"), "\(stats.standardOutput)")
    #expect(stats.standardOutput.contains("\\u{1B}[31m隻\\u{7}"), "\(stats.standardOutput)")
  }

  @Test func lintAndSampleShowAPacksTextEscaped() throws {
    let (home, packs) = try Self.directory()
    let lint = try BikiProcess.run(["lint", packs], program: "biki-pack", environment: Self.environment(home))
    #expect(lint.status == 1)
    expectSafe(lint, "biki-pack lint")
    #expect(lint.standardOutput.contains(#"unknown key "\u{1B}]0;pwned\u{7}""#), "\(lint.standardOutput)")
    #expect(lint.standardOutput.contains(#"\u{202E}"#), "\(lint.standardOutput)")

    let json = try BikiProcess.run(
      ["lint", "--format", "json", packs], program: "biki-pack", environment: Self.environment(home))
    expectSafe(json, "biki-pack lint --format json")
    // Still JSON, and it decodes to the pack's own text.
    let decoded = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    let files = decoded?["files"] as? [[String: Any]] ?? []
    let messages = files.flatMap {
      ($0["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }
    #expect(messages.contains { $0.contains("\u{1B}]0;pwned\u{7}") }, "\(messages)")

    let sample = try BikiProcess.run(
      ["sample", packs + "/evil.json", "-n", "2"], program: "biki-pack", environment: Self.environment(home))
    #expect(sample.status == 0, "\(sample.standardError)")
    expectSafe(sample, "biki-pack sample")
    #expect(sample.standardOutput.contains("\\u{1B}[31m隻\\u{7}"), "\(sample.standardOutput)")
  }

  @Test func readEchoesItsInputEscaped() throws {
    let (home, _) = try Self.directory()
    let result = try BikiProcess.run(
      ["read", "8本", "\u{1B}]0;pwned\u{7}8本\u{202E}"], environment: Self.environment(home))
    expectSafe(result, "biki read")
    #expect(result.standardOutput.hasPrefix("8本\tはっぽん"), "\(result.standardOutput)")
    #expect(result.standardError.contains("\\u{1B}]0;pwned\\u{7}8本\\u{202E}"), "\(result.standardError)")
  }
}
