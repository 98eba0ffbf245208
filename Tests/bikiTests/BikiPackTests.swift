import BikiTestSupport
import Foundation
import Testing

@Suite struct BikiPackTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let builtIn = repository.appendingPathComponent("TopicPacks").path

  /// An environment with an empty home, so the user's own packs never affect a test.
  static func isolated(_ home: String) -> [String: String] {
    ["HOME": home, "XDG_DATA_HOME": home + "/data", "PATH": "/usr/bin:/bin"]
  }

  func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "biki-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  func pack(_ args: [String], home: String, directory: String? = nil) throws -> BikiProcess.Result {
    try BikiProcess.run(args, program: "biki-pack", environment: Self.isolated(home), directory: directory)
  }

  /// A pack about Tokyo's trains, as an author writes one: station names with numerals in
  /// them lint clean and are shown and read in its questions; a word hiding a count is refused.
  @Test func aPackOfStationsWithNumeralsInTheirNamesLintsClean() throws {
    let home = try temporaryDirectory()
    let file = home + "/trains.json"
    func write(_ station: String, _ reading: String) throws {
      try #"""
      {"format": 1, "id": "trains", "title": "Tokyo trains", "version": "1.0.0", "topics": [
        {"id": "departures", "title": "Departures", "description": "When the train leaves.", "category": "everyday",
         "skills": ["listening", "reading", "kana"], "variables": {"t": {"range": {"min": 300, "max": 1435, "step": 5}}},
         "question": {"parts": [{"text": "\#(station)", "reading": "\#(reading)"}, {"clock": "t"}, {"text": "発", "reading": "はつ"}],
                      "answer": {"value": "t", "style": "clock"}}}]}
      """#.write(toFile: file, atomically: true, encoding: .utf8)
    }
    for (station, reading) in [("東京駅", "とうきょうえき"), ("千葉駅", "ちばえき"), ("六本木駅", "ろっぽんぎえき"), ("八王子駅", "はちおうじえき")] {
      try write(station, reading)
      let lint = try pack(["lint", file], home: home)
      #expect(lint.status == 0, "\(station): \(lint.standardOutput)")
      let sample = try pack(["sample", file, "--count", "1"], home: home)
      #expect(
        sample.standardOutput.contains(station) && sample.standardOutput.contains(reading), "\(sample.standardOutput)")
    }
    try write("三本松", "さんほんまつ")
    let refused = try pack(["lint", file], home: home)
    #expect(refused.status == 1)
    #expect(
      refused.standardOutput.contains(
        "the declared word \"三本松\" reads 三本 as a number, which Biki reads さんぼん"), "\(refused.standardOutput)")
  }

  /// The built-in packs have no problem; the phone-number topic's 300 million questions are
  /// checked on a sample, which lint says.
  @Test func theBuiltInPacksLintClean() throws {
    let home = try temporaryDirectory()
    let note =
      "numbers.json: note: readings were checked on 213,291 of 300,113,291 possible questions, spread evenly over each topic\n"
    let result = try pack(["lint", Self.builtIn], home: home)
    #expect(result.status == 0, "\(result.standardOutput)")
    #expect(result.standardOutput == Self.builtIn + "/" + note + "6 files checked: no problems.\n")
    let relative = try pack(["lint", "TopicPacks"], home: home, directory: Self.repository.path)
    #expect(relative.status == 0, "\(relative.standardOutput)")
    #expect(relative.standardOutput == "TopicPacks/" + note + "6 files checked: no problems.\n")
    let defaults = try pack(["lint"], home: home)
    #expect(defaults.status == 0)
    #expect(defaults.standardOutput.hasSuffix(note + "6 files checked: no problems.\n"), "\(defaults.standardOutput)")
  }

  @Test func lintSaysWhenReadingsWereCheckedOnASample() throws {
    let home = try temporaryDirectory()
    let file = home + "/wide.json"
    let topics = (0..<20).map { index in
      #"{ "id": "t\#(index)", "title": "T", "description": "d", "category": "number", "skills": ["reading"], "variables": { "n": { "range": { "min": 0, "max": 1000000000 } } }, "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } } }"#
    }
    try #"{ "format": 1, "id": "wide", "title": "W", "version": "1", "topics": [\#(topics.joined(separator: ","))] }"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let result = try pack(["lint", file], home: home)
    #expect(result.status == 0, "\(result.standardOutput)")
    #expect(
      result.standardOutput == """
        \(file): note: readings were checked on 250,000 of 20,000,000,020 possible questions, spread evenly over each topic
        1 file checked: no problems.

        """)
    let json = try pack(["lint", "--format", "json", file], home: home)
    #expect(json.standardOutput.contains(#""possible": 20000000020"#), "\(json.standardOutput)")
  }

  @Test func brokenPacksReportEveryProblemWithPositions() throws {
    let home = try temporaryDirectory()
    let file = home + "/broken.json"
    try #"""
    {
      "format": 1,
      "id": "broken",
      "title": "Broken",
      "version": "1",
      "topics": [
        { "id": "a", "titel": "A", "category": "counter", "skills": ["kana"],
          "variables": { "n": { "range": { "min": 10, "max": 1 } } },
          "question": { "parts": [{ "number": "n", "counter": "犬" }], "answer": { "value": "n" } } }
      ]
    }
    """#.write(toFile: file, atomically: true, encoding: .utf8)
    let result = try pack(["lint", file], home: home)
    #expect(result.status == 1)
    #expect(
      result.standardOutput == """
        \(file):7:5: error: a topic is missing the required key "title" [missing-key]
        \(file):7:7: warning: topic "a" has no description; learners choose topics by it [missing-description]
        \(file):7:18: error: unknown key "titel" in a topic; did you mean "title"? [unknown-key]
        \(file):8:38: error: the range of "n" is reversed: min 10 is above max 1 [range-reversed]
        \(file):9:59: error: unknown counter "犬"; declare it in the pack's "counters" [unknown-counter]
        4 errors and 1 warning in 1 file.

        """)

    let json = try pack(["lint", "--format", "json", file], home: home)
    #expect(json.status == 1)
    let decoded = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    #expect(decoded?["errors"] as? Int == 4)
    #expect(decoded?["warnings"] as? Int == 1)
  }

  @Test func strictTurnsWarningsIntoErrors() throws {
    let home = try temporaryDirectory()
    let file = home + "/few.json"
    try #"""
    {"format": 1, "id": "few", "title": "Few", "version": "1", "topics": [
      {"id": "t", "title": "T", "description": "Three.", "category": "number", "skills": ["kana"],
       "variables": {"n": {"range": {"min": 1, "max": 3}}},
       "question": {"parts": [{"number": "n"}], "answer": {"value": "n"}}}]}
    """#.write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try pack(["lint", file], home: home).status == 0)
    let strict = try pack(["lint", "--strict", file], home: home)
    #expect(strict.status == 1)
    #expect(strict.standardOutput.contains("error: topic \"t\" has only 3 possible questions"))
  }

  /// A user's edited copy of a built-in pack is used instead of it, with a warning on the
  /// built-in one; two of the user's own packs defining one id is an error in the one not loaded.
  @Test func aUsersCopyOfABuiltInPackOverridesItAndTwoUserCopiesClash() throws {
    let home = try temporaryDirectory()
    try FileManager.default.createDirectory(atPath: home + "/data/biki/packs", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: Self.builtIn + "/money.json", toPath: home + "/data/biki/packs/money.json")
    let overridden = try pack(["lint"], home: home)
    #expect(overridden.status == 0, "\(overridden.standardOutput)")
    #expect(
      overridden.standardOutput.contains(
        "TopicPacks/money.json:10:13: warning: topic id \"money.conbini\" is overridden by \(home)/data/biki/packs/money.json:10:13 (one of your packs or plugins), which is used instead [overridden-topic]"
      ))
    let topics = try BikiProcess.run(["topics"], environment: BikiPackTests.isolated(home))
    #expect(topics.standardOutput.contains("money.conbini\t"))
    #expect(topics.standardOutput.contains("\(home)/data/biki/packs/money.json"))

    try FileManager.default.copyItem(
      atPath: Self.builtIn + "/money.json", toPath: home + "/data/biki/packs/money2.json")
    let clash = try pack(["lint"], home: home)
    #expect(clash.status == 1)
    #expect(
      clash.standardOutput.contains(
        "money2.json:10:13: error: topic id \"money.conbini\" is also defined at \(home)/data/biki/packs/money.json:10:13, which is loaded instead of this one [duplicate-topic-id]"
      ))
  }

  /// A user's pack that takes a topic id from a built-in plugin, and a plugin given with
  /// `--plugins` that repeats a built-in one: each serves instead, and nothing vanishes.
  @Test func pluginTopicIdsAreSettledByPrecedenceToo() throws {
    let home = try temporaryDirectory()
    try FileManager.default.createDirectory(atPath: home + "/data/biki/packs", withIntermediateDirectories: true)
    try #"""
    {"format": 1, "id": "calendar", "title": "Mine", "version": "1", "topics": [
      {"id": "eras", "title": "My eras", "description": "Mine.", "category": "number", "skills": ["kana"],
       "variables": {"n": {"range": {"min": 1, "max": 30}}},
       "question": {"parts": [{"number": "n"}], "answer": {"value": "n"}}}]}
    """#.write(toFile: home + "/data/biki/packs/calendar.json", atomically: true, encoding: .utf8)
    let topics = try BikiProcess.run(["topics"], environment: BikiPackTests.isolated(home))
    let eras = topics.standardOutput.split(separator: "\n").filter { $0.hasPrefix("calendar.eras\t") }
    #expect(eras.count == 1)
    #expect(eras.first?.hasSuffix("/data/biki/packs/calendar.json") == true)
    #expect(topics.standardOutput.contains("calendar.weekdays\t"))  // the plugin's other topic still serves

    let given = home + "/given"
    try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: SamplePluginTests.buildDirectory + "/libbiki-prices.so", toPath: given + "/prices-copy.so")
    let withGiven = try BikiProcess.run(["topics", "--plugins", given], environment: BikiPackTests.isolated(home))
    let prices = withGiven.standardOutput.split(separator: "\n").filter { $0.hasPrefix("prices.man-yen\t") }
    #expect(prices.count == 1)
    #expect(prices.first?.hasSuffix("/given/prices-copy.so") == true)
  }

  /// Linting a working copy of an installed pack: the copy is the version being checked, and
  /// is never told its ids are taken. A copy of a built-in pack is told, by warnings, that its
  /// topics would be used instead of the built-in ones.
  @Test func aWorkingCopyOfAnInstalledPackLintsClean() throws {
    let home = try temporaryDirectory()
    try FileManager.default.copyItem(atPath: Self.builtIn + "/counters.json", toPath: home + "/counters.json")
    let result = try pack(["lint", home + "/counters.json"], home: home)
    #expect(result.status == 0, "\(result.standardOutput)")
    #expect(!result.standardOutput.contains("duplicate-topic-id"))
    #expect(!result.standardOutput.contains("error:"))
    #expect(
      result.standardOutput.contains(
        "warning: topic id \"counters.hon\" is also built into Biki (\(Self.builtIn)/counters.json:"))

    try FileManager.default.createDirectory(atPath: home + "/data/biki/packs", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: home + "/counters.json", toPath: home + "/data/biki/packs/counters.json")
    let overInstalled = try pack(["lint", home + "/counters.json"], home: home)
    #expect(overInstalled.status == 0, "\(overInstalled.standardOutput)")
    #expect(!overInstalled.standardOutput.contains("duplicate-topic-id"))
  }

  @Test func exitCodesForMissingPathsAndUsageErrors() throws {
    let home = try temporaryDirectory()
    let missing = try pack(["lint", home + "/nope.json"], home: home)
    #expect(missing.status == 66)
    #expect(missing.standardError.contains("no such file or directory"))
    let usage = try pack(["lint", "--strcit"], home: home)
    #expect(usage.status == 64)
    #expect(usage.standardError.contains("Unknown option '--strcit'. Did you mean '--strict'?"))
    #expect(try pack(["lint", "--format", "xml"], home: home).status == 64)
    #expect(try pack(["lnit"], home: home).standardError.contains("Did you mean 'lint'?"))
  }

  @Test func newWritesALintCleanPackAndNeverOverwrites() throws {
    let home = try temporaryDirectory()
    let created = try pack(["new", "my-pack"], home: home, directory: home)
    #expect(created.status == 0, "\(created.standardError)")
    #expect(try pack(["lint", home + "/my-pack.json"], home: home).standardOutput == "1 file checked: no problems.\n")
    let again = try pack(["new", "my-pack"], home: home, directory: home)
    #expect(again.status == 73)
    #expect(try pack(["new", "My Pack"], home: home, directory: home).status == 64)
  }

  @Test func sampleIsDeterministicPerSeed() throws {
    let home = try temporaryDirectory()
    let first = try pack(["sample", "counters", "--topic", "hon", "--seed", "9", "-n", "10"], home: home)
    #expect(first.status == 0)
    let lines = first.standardOutput.split(separator: "\n")
    #expect(lines.first == "topic\tseed\tdisplay\tkanji\treading\tanswer\tcounted")
    #expect(lines.count == 11)
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("counters.hon\t") })
    #expect(
      try pack(["sample", "counters", "--topic", "hon", "--seed", "9", "-n", "10"], home: home).standardOutput
        == first.standardOutput)
    let custom = try pack(
      [
        "sample", "numbers", "--topic", "custom", "--param", "min=1", "--param", "max=500", "--param", "step=5", "-n",
        "100",
      ], home: home)
    #expect(custom.status == 0)
    let answers = custom.standardOutput.split(separator: "\n").dropFirst().map {
      Int($0.split(separator: "\t")[5].replacingOccurrences(of: ",", with: ""))!
    }
    #expect(Set(answers) == Set(stride(from: 1, through: 496, by: 5)))
    let refused = try pack(["sample", "numbers", "--topic", "custom", "--param", "step=0"], home: home)
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("step=0 is out of bounds"))
  }

  /// A which-counter question is printed with the thing it asks about and every answer it takes,
  /// not only the count: "鉛筆 (えんぴつ, pencil) × 5 → 5本 (ごほん)".
  @Test func aWhichCounterSampleShowsTheThingCounted() throws {
    let home = try temporaryDirectory()
    let result = try pack(["sample", "counters", "--topic", "which-counter", "-n", "40"], home: home)
    #expect(result.status == 0, "\(result.standardError)")
    let rows = result.standardOutput.split(separator: "\n").dropFirst().map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
    #expect(rows.count == 40)
    for row in rows {
      guard row.count == 7 else {
        Issue.record("\(row)")
        continue
      }
      let (display, answer, counted) = (row[2], row[5], row[6])
      #expect(counted.contains(" (") && counted.contains(" × \(answer) → "), "\(row)")
      #expect(counted.split(separator: "→").last?.contains(display) == true, "\(row)")
    }
    let plain = try pack(["sample", "counters", "--topic", "hon", "-n", "1"], home: home)
    #expect(plain.standardOutput.split(separator: "\n").last?.hasSuffix("\t") == true)
  }
}

/// `biki-pack lint` on plugin libraries: each misbehaviour gets its own diagnostic.
@Suite struct PluginLintTests {
  static func build(_ define: String?) throws -> String {
    try PluginFixtures.copy(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", defines: define.map { [$0] } ?? [],
      into: NSTemporaryDirectory() + "biki-lint-plugins-" + UUID().uuidString, as: "lib\(define ?? "ok").so")
  }

  @Test(
    .disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)),
    arguments: [
      ("SEGFAULT", "plugin-crash", "SIGSEGV", false), ("ABORT", "plugin-crash", "SIGABRT", false),
      (
        "HOG", "plugin-crash",
        "SIGSEGV) right after an allocation was refused (ENOMEM): a plugin may use at most 1 GiB of memory", true
      ),
      (
        "SHARED_HOG", "plugin-crash",
        "SIGSEGV) right after an allocation was refused (ENOMEM): a plugin may use at most 1 GiB of memory", true
      ),
    ])
  func crashesAreNamedBySignal(_ define: String, _ rule: String, _ fragment: String, _ memory: Bool) throws {
    try eachMisbehaviourHasItsDiagnostic(define, rule, fragment)
    // Memory is named only when an allocation was refused.
    let result = try BikiProcess.run(["lint", try Self.build(define)], program: "biki-pack")
    #expect(result.standardOutput.contains("memory") == memory, "\(result.standardOutput)")
  }

  @Test(arguments: [
    ("HANG", "plugin-timeout", "did not answer"),
    ("UNSTABLE", "plugin-nondeterministic", "same seed"), ("NOT_KANA", "plugin-kana", "is not hiragana"),
    ("KATAKANA", "plugin-kana", #"reading "イチ" is not hiragana: write "いち""#),
    ("COMBINING", "plugin-kana", "combining sound mark"),
    ("WRONG_ANSWER", "plugin-answer-mismatch", #"the answer 506 is not the number "505号室" shows (505)"#),
    ("WRONG_READING", "plugin-reading-mismatch", #"reading "いっぽん" is not one Biki gives for "8本" (はっぽん or はちほん)"#),
    (
      "WRONG_DECLARED_READING", "plugin-reading-mismatch",
      #"reading "ろくひゃくじゅうにごうしつ" is not one Biki gives for "612号室" (ろっぴゃくじゅうにごうしつ)"#
    ),
    (
      "BAD_COUNT", "plugin-question-count",
      "has 10 questions by its count, but 10 seeds below it give only 3 different ones"
    ),
    (
      "COUNT_LIES", "plugin-question-count",
      "has 6 questions by its count, but 6 seeds below it give only 3 different ones"
    ),
    (
      "PARTIAL_OUTPUT", "plugin-partial-output",
      "ran out of questions halfway (after writing 17 bytes of output, which were discarded)"
    ),
    (
      "LATE_WRITE", "plugin-writer-after-return",
      #"after their calls had returned, 4 writes in all, every one refused: the output writer of generate for topic "ok", seed 0"#
    ),
    (
      "LATE_READINGS_WRITE", "plugin-writer-after-return",
      #"it wrote through the output writer of generate for topic "ok", seed 0 after that call had returned (1 write, refused)"#
    ),
    ("COUNT_VARIES", "plugin-question-count", "question_count answered 3, then 4, then 3 for the same parameters"),
    (
      "FALSE_REFUSAL", "plugin-call",
      "it returned BIKI_STATUS_OUTPUT_REFUSED, though Biki refused none of its writes (it wrote 150 bytes of output, discarded as the call failed)"
    ),
    ("INIT_FAILS", "plugin-init", "the plugin's data file is missing"),
    ("BAD_UTF8", "plugin-output", "invalid UTF-8"), ("MALFORMED", "plugin-output", "not valid JSON"),
    ("ENORMOUS", "plugin-output-too-large", "it wrote more than 1048576 bytes of output; Biki refused the rest"),
    ("WRONG_VERSION", "plugin-abi-version", "plugin ABI 99.x"),
    ("REFUSE_VERSION", "plugin-abi-version", "refused this host"), ("NO_ENTRY", "plugin-entry", "does not export"),
    ("NULL_GENERATE", "plugin-descriptor", "NULL"),
    ("SMALL_DESCRIPTOR", "plugin-descriptor", "smaller than the 88 of plugin ABI 1.0"),
  ])
  func eachMisbehaviourHasItsDiagnostic(_ define: String, _ rule: String, _ fragment: String) throws {
    let library = try Self.build(define)
    let result = try BikiProcess.run(["lint", library], program: "biki-pack")
    #expect(result.status == 1)
    // Each check reports what it proves; the one this misbehaviour fails says so by its rule.
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    let line = lines.first { $0.contains(fragment) } ?? ""
    #expect(line.hasPrefix("\(library):1:1: error: "), "\(result.standardOutput)")
    #expect(line.hasSuffix("[\(rule)]"), "\(result.standardOutput)")
  }

  /// A plugin that keeps its call's writer and writes through it from a thread 20 ms after the
  /// call returned, with no call after it: lint waits a moment after each worker's last answer,
  /// asks, and names the call. Every run, not most.
  @Test func aThreadWritingAfterItsCallReturnedIsCaughtEveryRun() throws {
    let library = try Self.build("LATE_THREAD_WRITE")
    var caught = 0
    for _ in 0..<10 {
      let result = try BikiProcess.run(["lint", library], program: "biki-pack")
      let expected =
        #"\#(library):1:1: error: it wrote through the output writer of generate for topic "ok", seed 0 after that call had returned (1 write, refused) [plugin-writer-after-return]"#
      if result.status == 1 && result.standardOutput.split(separator: "\n").first.map(String.init) == expected {
        caught += 1
      } else {
        Issue.record("\(result.standardOutput)")
      }
    }
    #expect(caught == 10)
  }

  @Test(arguments: [nil, "NOISY", "COUNTED"])
  func wellBehavedPluginsLintClean(_ define: String?) throws {
    let library = try Self.build(define)
    let result = try BikiProcess.run(["lint", library], program: "biki-pack")
    #expect(result.status == 0, "\(result.standardOutput)")
    #expect(result.standardOutput == "1 file checked: no problems.\n")
    let calendar = try BikiProcess.run(
      [],
      viaShell:
        "cc -std=c99 -shared -fPIC -I '\(BikiPackTests.repository.path)/Sources/BikiPluginABI/include' '\(BikiPackTests.repository.path)/Plugins/calendar-c/calendar.c' -o \"$TMPDIR/libcal-$$.so\" && \"$0\" lint \"$TMPDIR/libcal-$$.so\"",
      program: "biki-pack",
      environment: ["PATH": "/usr/bin:/bin", "TMPDIR": NSTemporaryDirectory(), "HOME": NSTemporaryDirectory()])
    #expect(calendar.status == 0, "\(calendar.standardOutput)\(calendar.standardError)")
  }

  @Test func aDirectoryOfPluginsAndPacksIsLintedTogether() throws {
    let library = try Self.build("NOT_KANA")
    let directory = URL(fileURLWithPath: library).deletingLastPathComponent().path
    try FileManager.default.copyItem(atPath: BikiPackTests.builtIn + "/numbers.json", toPath: directory + "/mine.json")
    let home = NSTemporaryDirectory() + "biki-lint-home-" + UUID().uuidString
    let result = try BikiProcess.run(
      ["lint", "--format", "json", directory], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(result.status == 1)
    let decoded = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    let files = decoded?["files"] as? [[String: Any]]
    #expect(files?.count == 2)
    // mine.json repeats the built-in numbers pack: a working copy, not a clash.
    #expect(!result.standardOutput.contains("duplicate-topic-id"))
    #expect(result.standardOutput.contains("plugin-kana"))
  }
}

/// The two sample plugins, as `swift build` builds them next to the executables.
@Suite struct SamplePluginTests {
  static let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path

  @Test(
    arguments: Sanitizers.threadSanitizerIsActive
      ? ["libbiki-calendar.so"] : ["libbiki-calendar.so", "libbiki-prices.so"])
  func theSamplesLintClean(_ name: String) throws {
    let result = try BikiProcess.run(["lint", Self.buildDirectory + "/" + name], program: "biki-pack")
    #expect(result.status == 0, "\(result.standardOutput)")
    #expect(result.standardOutput.hasSuffix("1 file checked: no problems.\n"), "\(result.standardOutput)")
    #expect(!result.standardOutput.contains(": error: ") && !result.standardOutput.contains(": warning: "))
  }

  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.swiftPluginsCannotLoad)))
  func theSamplesAppearNextToJSONTopicsAndQuiz() throws {
    let home = NSTemporaryDirectory() + "biki-samples-" + UUID().uuidString
    let topics = try BikiProcess.run(["topics"], environment: BikiPackTests.isolated(home))
    for id in ["calendar.weekdays", "calendar.eras", "prices.tax-included", "prices.man-yen"] {
      #expect(topics.standardOutput.contains("\n\(id)\t"), "\(id)")
    }
    let quiz = try BikiProcess.run(
      [], viaShell: "printf '1414000\\n' | \"$0\" quiz prices.man-yen --seed 2 --mode questions=1",
      environment: BikiPackTests.isolated(home))
    #expect(quiz.standardOutput.contains("[1/1] 百四十一万四千円"), "\(quiz.standardOutput)")
    #expect(quiz.standardOutput.contains("✓ Correct"))
  }

  @Test func theSwiftSampleExportsOnlyItsEntry() throws {
    let result = try BikiProcess.run(
      [], viaShell: "nm -D --defined-only '\(Self.buildDirectory)/libbiki-prices.so' | grep ' T '",
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(
      result.standardOutput.split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) } == [
        "biki_plugin_entry"
      ])
  }
}
