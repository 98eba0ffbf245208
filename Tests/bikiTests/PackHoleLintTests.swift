import Foundation
import Testing

/// Pack files that used to pass `biki-pack lint` unremarked and then served broken questions
/// (or took a built-in topic's place unsaid), each run through the real `biki-pack`.
@Suite struct PackHoleLintTests {
  func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "biki-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  func lint(_ file: String, home: String, _ extra: [String] = []) throws -> BikiProcess.Result {
    try BikiProcess.run(["lint"] + extra + [file], program: "biki-pack", environment: BikiPackTests.isolated(home))
  }

  static let objectNumber = """
    {"format": 1, "id": "objnum", "title": "O", "version": "1",
     "objects": [{"name": "鉛筆", "reading": "えんぴつ", "counters": ["本"]}, {"name": "猫", "reading": "ねこ", "counters": ["匹"]}],
     "topics": [
      {"id": "a", "title": "A", "description": "d", "category": "counter", "skills": ["counter"],
       "variables": {"o": {"objects": ["鉛筆", "猫"]}, "n": {"range": {"min": 1, "max": 9}}, "m": {"derive": "o + 1"}},
       "question": {"parts": [{"number": "o", "counter": "o"}, {"number": "m"}], "answer": {"value": "o"}}}
     ]}
    """

  @Test func aThingUsedAsANumberIsTheWrongKind() throws {
    let home = try temporaryDirectory()
    let file = home + "/objnum.json"
    try Self.objectNumber.write(toFile: file, atomically: true, encoding: .utf8)
    let result = try lint(file, home: home)
    #expect(result.status == 1)
    let message =
      "\"o\" is an objects variable: it names a thing to count, not a number; give it to a number part as its \"counter\" and count with a range variable [wrong-variable-kind]"
    #expect(
      result.standardOutput == """
        \(file):5:103: error: \(message)
        \(file):6:38: error: \(message)
        \(file):6:98: error: \(message)
        3 errors and 0 warnings in 1 file.

        """)
  }

  /// Old Mac line ends (`\r` alone) and Windows ones put each problem on the line an editor
  /// shows, not on line 1 at column 319.
  @Test(arguments: ["\r", "\r\n"]) func problemsAreOnTheLinesAnEditorShows(_ end: String) throws {
    let home = try temporaryDirectory()
    let file = home + "/objnum.json"
    try Data(Self.objectNumber.replacingOccurrences(of: "\n", with: end).utf8).write(to: URL(fileURLWithPath: file))
    let result = try lint(file, home: home)
    #expect(result.status == 1)
    #expect(
      result.standardOutput.split(separator: "\n").map {
        $0.split(separator: ":").dropFirst().prefix(2).joined(separator: ":")
      } == ["5:103", "6:38", "6:98", ""])
  }

  @Test func readingsNeverBeginWithTheLongVowelMark() throws {
    let home = try temporaryDirectory()
    let file = home + "/lv.json"
    try """
    {"format": 1, "id": "lv", "title": "L", "version": "1",
     "counters": [{"id": "ten", "symbols": ["点x"], "reading": "ーと", "whole": {"1": "ー"}, "zero": ["ーー"]}],
     "topics": [
      {"id": "a", "title": "A", "description": "d", "category": "counter", "skills": ["reading"],
       "variables": {"n": {"range": {"min": 1, "max": 20}}},
       "question": {"parts": [{"text": "ノート", "reading": "ーと"}, {"number": "n", "counter": "本"}], "answer": {"value": "n"}}}
     ]}
    """.write(toFile: file, atomically: true, encoding: .utf8)
    let result = try lint(file, home: home)
    #expect(result.status == 1)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.count == 5, "\(result.standardOutput)")
    #expect(
      lines.prefix(4).allSatisfy { $0.hasSuffix("[invalid-kana]") && $0.contains("begins with ー, the long-vowel mark") }
    )
    #expect(
      lines.first
        == "\(file):2:59: error: reading \"ーと\" begins with ー, the long-vowel mark, which lengthens the kana before it; a reading cannot begin with one (write the vowel, as in おおきい, or put ー after the kana it lengthens, as in らーめん) [invalid-kana]"
    )
    #expect(lines.last == "4 errors and 0 warnings in 1 file.")
  }

  @Test func aThingListsEachCounterOnceAndAFew() throws {
    let home = try temporaryDirectory()
    let file = home + "/repeats.json"
    let repeated = Array(repeating: #""本""#, count: 1000).joined(separator: ",")
    try """
    {"format": 1, "id": "rep", "title": "R", "version": "1",
     "objects": [{"name": "鉛筆", "reading": "えんぴつ", "counters": [\(repeated)]}],
     "topics": [{"id": "t", "title": "T", "description": "d", "category": "counter", "skills": ["counter"],
       "variables": {"o": {"objects": ["鉛筆"]}, "n": {"range": {"min": 1, "max": 9}}},
       "question": {"parts": [{"number": "n", "counter": "o"}], "answer": {"value": "n"}}}]}
    """.write(toFile: file, atomically: true, encoding: .utf8)
    let result = try lint(file, home: home)
    #expect(result.status == 1)
    #expect(
      result.standardOutput == """
        \(file):2:60: error: "鉛筆" lists 1000 counters; an object takes at most 8, as the answer shown after a miss gives every one: keep the counters it is usually counted with [too-many-counters]
        \(file):2:65: error: counter "本" is listed 1000 times for "鉛筆"; list each counter the thing takes once [duplicate-value]
        2 errors and 0 warnings in 1 file.

        """)
  }

  /// A pack of one's own whose topic id is a built-in one's serves instead of it: lint says so,
  /// naming the built-in pack, as the server's list of problems did only for the built-in file.
  @Test func aTopicThatReplacesABuiltInOneIsWarnedAbout() throws {
    let home = try temporaryDirectory()
    let file = home + "/counters.json"
    try """
    {"format": 1, "id": "counters", "title": "My counters", "version": "1",
     "topics": [{"id": "hon", "title": "本 to 20", "description": "d", "category": "counter", "skills": ["reading"],
       "variables": {"n": {"range": {"min": 1, "max": 20}}},
       "question": {"parts": [{"number": "n", "counter": "本"}], "answer": {"value": "n", "postfix": "本"}}}]}
    """.write(toFile: file, atomically: true, encoding: .utf8)
    let builtIn = try String(contentsOfFile: BikiPackTests.builtIn + "/counters.json", encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(builtIn.firstIndex { $0.contains(#""id": "hon""#) })
    let column = try #require(builtIn[line].range(of: #""hon""#)).lowerBound.utf16Offset(in: builtIn[line])
    let result = try lint(file, home: home)
    #expect(result.status == 0)
    #expect(
      result.standardOutput == """
        \(file):2:20: warning: topic id "counters.hon" is also built into Biki (\(BikiPackTests.builtIn)/counters.json:\(line + 1):\(column + 1)); this one is used instead of it [overridden-topic]
        0 errors and 1 warning in 1 file.

        """)
    #expect(try lint(file, home: home, ["--strict"]).status == 1)
  }

  /// 40,000 things took 30 s to lint and 23 s to list, each looked up by a scan of all of them.
  @Test func manyThingsLintAndLoadInLinearTime() throws {
    let home = try temporaryDirectory()
    try FileManager.default.createDirectory(atPath: home + "/data/biki/packs", withIntermediateDirectories: true)
    let file = home + "/data/biki/packs/many.json"
    let count = 40_000
    let objects = (0..<count).map { #"{"name": "物\#($0)", "reading": "もの", "counters": ["個"]}"# }.joined(
      separator: ",\n")
    let names = (0..<count).map { "\"物\($0)\"" }.joined(separator: ",")
    try """
    {"format": 1, "id": "many", "title": "Many", "version": "1", "objects": [
    \(objects)],
     "topics": [{"id": "t", "title": "T", "description": "d", "category": "counter", "skills": ["counter"],
       "variables": {"o": {"objects": [\(names)]}, "n": {"range": {"min": 1, "max": 2}}},
       "question": {"parts": [{"number": "n", "counter": "o"}], "answer": {"value": "n"}}}]}
    """.write(toFile: file, atomically: true, encoding: .utf8)
    let start = Date()
    let result = try lint(file, home: home)
    let linted = Date().timeIntervalSince(start)
    #expect(result.status == 0, "\(result.standardOutput)")
    #expect(result.standardOutput.hasSuffix("1 file checked: no problems.\n"))
    // A debug build on a shared machine: generous, and still far below the minutes it took.
    #expect(linted < 60, "lint took \(linted) s")
    let topics = try BikiProcess.run(["topics"], environment: BikiPackTests.isolated(home))
    #expect(topics.standardOutput.contains("many.t\t"))
    #expect(Date().timeIntervalSince(start) < 90)
  }

  struct Hole: Sendable, CustomTestStringConvertible {
    var name: String
    var file: String
    var text: String
    var topicID: String
    var rule: String
    var testDescription: String { name }
  }

  static let longVowel = """
    {"format": 1, "id": "lv", "title": "L", "version": "1",
     "topics": [
      {"id": "a", "title": "A", "description": "d", "category": "counter", "skills": ["kana"],
       "variables": {"n": {"range": {"min": 1, "max": 20}}},
       "question": {"parts": [{"number": "n", "counter": "本"}, {"text": "ノート", "reading": "ーと"}], "answer": {"value": "n"}}}
     ]}
    """

  /// A counter written 本 that reads 8本 いっぽん (and copies Biki elsewhere up to 10).
  static let wrongCounter = """
    {"format": 1, "id": "mine", "title": "M", "version": "1",
     "counters": [{"id": "myhon", "symbols": ["本"], "reading": "ほん",
       "final": {"1": "いっぽん", "3": "さんぼん", "6": "ろっぽん", "8": "いっぽん", "10": ["じゅっぽん", "じっぽん"]}}],
     "topics": [
      {"id": "hon", "title": "H", "description": "d", "category": "counter", "skills": ["kana"],
       "variables": {"n": {"range": {"min": 1, "max": 10}}},
       "question": {"parts": [{"number": "n", "counter": "myhon"}], "answer": {"value": "n", "postfix": "本"}}}
     ]}
    """

  static let holes: [Hole] = [
    Hole(
      name: "an objects variable used as a number", file: "objnum.json", text: objectNumber, topicID: "objnum.a",
      rule: "wrong-variable-kind"),
    Hole(
      name: "the same with old Mac line ends", file: "objnum.json",
      text: objectNumber.replacingOccurrences(of: "\n", with: "\r"), topicID: "objnum.a",
      rule: "objnum.json:5:103: error"),
    Hole(name: "a reading that begins with ー", file: "lv.json", text: longVowel, topicID: "lv.a", rule: "invalid-kana"),
    Hole(
      name: "a counter listed 1,000 times", file: "rep.json",
      text: """
        {"format": 1, "id": "rep", "title": "R", "version": "1",
         "objects": [{"name": "鉛筆", "reading": "えんぴつ", "counters": [\(Array(repeating: #""本""#, count: 1000).joined(separator: ","))]}],
         "topics": [{"id": "t", "title": "T", "description": "d", "category": "counter", "skills": ["counter"],
           "variables": {"o": {"objects": ["鉛筆"]}, "n": {"range": {"min": 1, "max": 9}}},
           "question": {"parts": [{"number": "n", "counter": "o"}], "answer": {"value": "n"}}}]}
        """, topicID: "rep.t", rule: "too-many-counters"),
    Hole(
      name: "a counter written 本 that reads 8本 いっぽん", file: "mine.json", text: wrongCounter, topicID: "mine.hon",
      rule: "reading-mismatch"),
  ]

  /// Each hole through the programs a learner and an editor use: lint names it, `biki quiz`
  /// refuses the topic saying why (exit 69 is not reached: the topic is not there to start),
  /// and `biki serve` neither lists nor makes it, and reports the same problem.
  @Test(arguments: holes)
  func lintQuizAndServeRefuseTheTopic(_ hole: Hole) throws {
    let home = try temporaryDirectory()
    let packs = home + "/packs"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    let file = packs + "/" + hole.file
    try Data(hole.text.utf8).write(to: URL(fileURLWithPath: file))
    let lint = try lint(file, home: home)
    #expect(lint.status == 1 && lint.standardOutput.contains(hole.rule), "\(lint.standardOutput)")

    var environment = BikiPackTests.isolated(home)
    environment["BIKI_INPUT"] = "1\n"
    let quiz = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz \(hole.topicID) --packs '\(packs)' --mode questions=1",
      environment: environment)
    #expect(quiz.status != 0)
    #expect(!quiz.standardOutput.contains("[1/1]"), "\(quiz.standardOutput)")
    #expect(quiz.standardError.contains(hole.rule), "\(quiz.standardError)")

    let server = try LiveServer(arguments: ["--packs", packs], home: home)
    try server.initialize()
    #expect(!ReloadMatchesLintTests.topicIDs(server, 1).contains(hole.topicID))
    server.request(2, "biki/reloadPacks")
    let report = server.waitForResponse(2, within: 30)?.message["result"] as? [String: Any]
    #expect(
      ReloadMatchesLintTests.formatted(report).contains { $0.contains(hole.rule) },
      "\(ReloadMatchesLintTests.formatted(report))")
    server.request(3, "biki/generate", #"{"topicId":"\#(hole.topicID)","seed":1,"count":1}"#)
    let generated = server.waitForResponse(3, within: 30)?.message
    #expect(generated?["error"] != nil, "\(String(describing: generated))")
    #expect(server.finish() == 0)
  }

  /// A pack of one's own that would replace `counters.hon` with 8本 read いっぽん never takes it:
  /// the built-in topic serves in `biki quiz` and `biki serve`.
  @Test func aPackOverridingABuiltInTopicWithAWrongReadingLeavesTheBuiltInOne() throws {
    let home = try temporaryDirectory()
    let packs = home + "/packs"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    try Self.wrongCounter.replacingOccurrences(of: #""id": "mine""#, with: #""id": "counters""#)
      .write(toFile: packs + "/counters.json", atomically: true, encoding: .utf8)
    var environment = BikiPackTests.isolated(home)
    environment["BIKI_INPUT"] = String(repeating: "skip\n", count: 10)
    let quiz = try BikiProcess.run(
      [],
      viaShell:
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --packs '\(packs)' --mode questions=10 --skill kana --seed 3",
      environment: environment)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    #expect(quiz.standardOutput.contains("8本 → はっぽん"), "\(quiz.standardOutput)")
    #expect(!quiz.standardOutput.contains("いっぽん") || !quiz.standardOutput.contains("8本 → いっぽん"))
    let run = try ServeRun.run(
      ServeRun.initialize + ServeRun.request(1, "biki/generate", #"{"topicId":"counters.hon","seed":1,"count":10}"#)
        + ServeRun.shutdownAndExit,
      arguments: ["--packs", packs], home: home)
    let questions = run.result(1)?["questions"] as? [[String: Any]] ?? []
    let eight = questions.first { $0["display"] as? String == "8本" }
    #expect((eight?["readings"] as? [String])?.first == "はっぽん", "\(String(describing: eight))")
  }
}
