import BikiSync
import BikiTestSupport
import Foundation
import Testing

/// The quiz as a script drives it: answers on stdin, one per line.
@Suite struct BikiQuizTests {
  func quiz(_ arguments: [String], input: String) throws -> BikiProcess.Result {
    let home = NSTemporaryDirectory() + "biki-quiz-" + UUID().uuidString
    let script = "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz " + arguments.map { "'\($0)'" }.joined(separator: " ")
    var environment = BikiPackTests.isolated(home)
    environment["BIKI_INPUT"] = input
    return try BikiProcess.run([], viaShell: script, environment: environment)
  }

  /// The terminal quiz keeps its answers where the server does: biki stats counts both.
  @Test func terminalPracticeIsInTheHistoryAndInStats() throws {
    let home = NSTemporaryDirectory() + "biki-quiz-" + UUID().uuidString
    var environment = BikiPackTests.isolated(home)
    environment["XDG_STATE_HOME"] = home + "/state"
    environment["BIKI_INPUT"] = "8\nskip\n1\n7本\n"
    let quiz = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --seed 4 --mode questions=3",
      environment: environment)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    let lines = try String(contentsOfFile: home + "/state/biki/history.jsonl", encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 6)  // started, 8 (wrong), skip, 1, 7本, ended
    #expect(lines.first?.contains(#""event":"sessionStarted""#) == true)
    #expect(lines.last?.contains(#""event":"sessionEnded""#) == true)
    #expect(lines[2].contains(#""skipped":true"#))
    let stats = try BikiProcess.run(["stats"], environment: environment)
    #expect(stats.status == 0, "\(stats.standardError)")
    #expect(stats.standardOutput.contains("counters.hon"), "\(stats.standardOutput)")
  }

  /// A form missed three times out of three is shown weak, never "100 %" or known: the figure is
  /// recall a week from now, which the misses keep low. It is named as the learner met it, 6本
  /// ろっぽん, and the table's tries add up.
  @Test func statsAfterMissesShowTheFormWeak() throws {
    let home = NSTemporaryDirectory() + "biki-quiz-" + UUID().uuidString
    var environment = BikiPackTests.isolated(home)
    environment["XDG_STATE_HOME"] = home + "/state"
    environment["BIKI_INPUT"] = "ろくほん\nskip\n"
    for _ in 0..<3 {
      // Seed 4 on counters.hon asks 六本 first (ろっぽん).
      let quiz = try BikiProcess.run(
        [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --skill kana --seed 4 --mode questions=1",
        environment: environment)
      #expect(quiz.status == 0, "\(quiz.standardError)")
    }
    let stats = try BikiProcess.run(["stats"], environment: environment)
    let line = stats.standardOutput.split(separator: "\n").first { $0.contains("\t6本 ろっぽん\t") } ?? ""
    #expect(line.hasPrefix("  weak\t"), "\(stats.standardOutput)")
    #expect(!stats.standardOutput.contains("本/final:6"))
    // Three quizzes of one question: a wrong try and a skip each.
    #expect(stats.standardOutput.contains("counters.hon\t6\t0\t3\t3\t0%"), "\(stats.standardOutput)")
    #expect(!stats.standardOutput.contains("known"), "\(stats.standardOutput)")
  }

  /// `--mode review`: forms missed in a quiz come back first in the next review, across topics.
  @Test func aReviewBringsBackWhatWasMissed() throws {
    let home = NSTemporaryDirectory() + "biki-review-" + UUID().uuidString
    var environment = BikiPackTests.isolated(home)
    environment["XDG_STATE_HOME"] = home + "/state"
    func run(_ script: String, input: String) throws -> BikiProcess.Result {
      environment["BIKI_INPUT"] = input
      return try BikiProcess.run(
        [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" " + script, environment: environment)
    }
    // Seed 4 on counters.hon asks 六本 first: skipping it misses ろっぽん (本/final:6).
    let quiz = try run("quiz counters.hon --skill kana --seed 4 --mode questions=1", input: "skip\n")
    #expect(quiz.status == 0, "\(quiz.standardError)")
    let review = try run("quiz --mode review=3 --seed 1 --in-process", input: "skip\nskip\nskip\n")
    #expect(review.status == 0, "\(review.standardError)")
    #expect(review.standardOutput.hasPrefix("3 questions: 0 due, 1 weak, 2 new forms."), "\(review.standardOutput)")
    // The weak form comes first, through whichever topic exercises it (ろっ…: 6本, 6杯, 6匹 …).
    let firstAnswer = review.standardOutput.split(separator: "\n").first { $0.hasPrefix("→ The answer: ") } ?? ""
    #expect(firstAnswer.contains("ろっ"), "\(review.standardOutput)")
    #expect(try run("quiz counters.hon --all --mode review", input: "").status == 64)
  }

  /// 十 with つ is written whole: its answer is ten, never "10つ", which is refused.
  @Test func aCountWrittenWholeIsNeverAnsweredWithItsCounter() throws {
    let refused = try quiz(
      ["counters.tsu", "--seed", "1", "--mode", "questions=1", "--skill", "reading"], input: "10つ\nskip\n")
    #expect(refused.standardOutput.contains("[1/1] 十\n✗ Not quite."), "\(refused.standardOutput)")
    #expect(refused.standardOutput.contains("→ The answer: 10\n"), "\(refused.standardOutput)")
    let accepted = try quiz(
      ["counters.tsu", "--seed", "1", "--mode", "questions=1", "--skill", "reading"], input: "10\n")
    #expect(accepted.standardOutput.contains("[1/1] 十\n✓ Correct"), "\(accepted.standardOutput)")
  }

  /// Feedback that teaches: the kanji prompt typed back is refused with a hint to type digits,
  /// romaji is read as the kana it spells and shown back, and a right answer in another form
  /// names the standard.
  @Test func feedbackSaysHowToAnswerAndNamesTheStandard() throws {
    // numbers.hundreds, seed 3, shows 八百六十 first.
    let copied = try quiz(
      ["numbers.hundreds", "--seed", "3", "--mode", "questions=1", "--skill", "reading"], input: "八百六十\n860\n")
    #expect(
      copied.standardOutput.contains(
        "[1/1] 八百六十\n✗ Not quite. Type the number in digits (860), not the kanji shown. Try again"),
      "\(copied.standardOutput)")
    #expect(copied.standardOutput.contains("✓ Correct"), "\(copied.standardOutput)")
    let romaji = try quiz(
      ["counters.hon", "--seed", "4", "--mode", "questions=1", "--skill", "kana"], input: "ropqon\nrokuhon\nroppon\n")
    // Romaji that spells nothing is told so and not counted; a wrong reading in romaji is a miss.
    #expect(
      romaji.standardOutput.contains(
        "? Type the reading in kana or in romaji (gohon, roppon, juuyokka); \"ropqon\" is not romaji Biki reads. Not counted; try again."
      ), "\(romaji.standardOutput)")
    #expect(romaji.standardOutput.contains("Wrong attempts: 1"), "\(romaji.standardOutput)")
    #expect(
      romaji.standardOutput.contains(
        "Not counted; try again.\n✗ Not quite. You typed ろくほん. Try again, or type 'skip' to see the answer.\n✓ Correct (ろっぽん)"
      ),
      "\(romaji.standardOutput)")
    // counters.hon-100 asks 10本 at some seed: じっぽん is right but uncommon, and じゅっぽん is named.
    var shown = ""
    for seed in 0..<40 {
      let result = try quiz(
        ["counters.hon", "--seed", String(seed), "--mode", "questions=1", "--skill", "kana"], input: "じっぽん\n")
      if result.standardOutput.contains("[1/1] 10本") {
        shown = result.standardOutput
        break
      }
    }
    #expect(shown.contains("✓ Accepted, though uncommon: the usual reading is じゅっぽん"), "\(shown)")
  }

  /// お茶8杯 read おちゃはっぱい: in the kana skill the counted phrase alone (はっぱい) is the
  /// answer too; the words around it are context.
  @Test func aKanaAnswerMayLeaveOutTheWordsAroundTheCount() throws {
    let home = NSTemporaryDirectory() + "biki-quiz-" + UUID().uuidString
    let packs = home + "/packs"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    try #"""
    {"format": 1, "id": "tea", "title": "Tea", "version": "1", "topics": [
      {"id": "cups", "title": "Cups", "description": "D.", "category": "counter", "skills": ["kana"],
       "variables": {"n": {"range": {"min": 8, "max": 8}}},
       "question": {"parts": [{"text": "お茶", "reading": "おちゃ"}, {"number": "n", "counter": "杯"}], "answer": {"value": "n", "postfix": "杯"}}}]}
    """#.write(toFile: packs + "/tea.json", atomically: true, encoding: .utf8)
    for typed in ["はっぱい", "おちゃはっぱい", "ハッパイ"] {
      let result = try quiz(["tea.cups", "--packs", packs, "--mode", "questions=1"], input: typed + "\n")
      #expect(result.standardOutput.contains("[1/1] お茶8杯\n✓ Correct"), "\(typed): \(result.standardOutput)")
    }
    let wrong = try quiz(["tea.cups", "--packs", packs, "--mode", "questions=1"], input: "おちゃ\nskip\n")
    #expect(wrong.standardOutput.contains("✗ Not quite."), "\(wrong.standardOutput)")
  }

  /// Which counter: the terminal shows the thing and how many, never speaks or hints the answer.
  @Test func theWhichCounterSkillAsksForTheCountWithItsCounter() throws {
    // Seed 6 asks 飛行機 × 6 (6機, ろっき), then 背広 × 8 (8着, はっちゃく).
    let result = try quiz(["counters.which-counter", "--seed", "6", "--mode", "questions=2"], input: "6本\n6機\nはっちゃく\n")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("[1/2] 飛行機 (ひこうき, airplane) × 6\n✗ Not quite."), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("[2/2] 背広 (せびろ, suit) × 8\n✓"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("Correct: 2 (1 on the first try)"), "\(result.standardOutput)")
    #expect(
      result.standardOutput.contains("飛行機 (ひこうき, airplane) × 6 → 6機 or 6台 (ろっき or ろくだい)"), "\(result.standardOutput)")
    // Why: what each usual counter of the thing counts.
    #expect(
      result.standardOutput.contains("   機 counts aircraft: aeroplanes, helicopters.\n"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("   着 counts clothes: suits, dresses, shirts, kimono.\n"))
    let kana = try quiz(["counters.which-counter", "--skill", "kana"], input: "")
    #expect(kana.status == 64)
    #expect(kana.standardError.contains("does not offer the kana skill; it offers: counter"), "\(kana.standardError)")
  }

  /// A themed topic mixes the counters of one situation, in the terminal like any other.
  @Test func aThemedTopicMixesItsCounters() throws {
    // Seed 1 on the table theme asks 5人前, 4皿, then 8人前.
    let result = try quiz(
      ["counters.theme-table", "--seed", "1", "--skill", "kana", "--mode", "questions=3"],
      input: "ごにんまえ\nヨンサラ\nはっにんまえ\nはちにんまえ\n")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("At the table (皿, 杯, 人前, 切れ, 個)"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("[2/3] 4皿\n✓ Correct"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("[3/3] 8人前\n✗ Not quite."), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("Correct: 3 (2 on the first try)"), "\(result.standardOutput)")
  }

  /// A topic that favours sound changes may have at most 10,000 questions; `--param` that would
  /// give more is refused with the reason, as docs/topic-packs.md says.
  @Test func parametersBeyondWhatFavouringAllowsAreRefused() throws {
    let directory = NSTemporaryDirectory() + "biki-favour-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try #"""
    {"format": 1, "id": "wide", "title": "Wide", "version": "1.0.0", "topics": [{
      "id": "hon", "title": "本", "description": "d", "category": "counter", "skills": ["kana"], "favour": "sound-changes",
      "variables": {"n": {"range": {"min": 1, "max": 100}}}, "parameters": {"max": {"target": "n.max", "min": 1, "max": 20000}},
      "question": {"parts": [{"number": "n", "counter": "hon"}], "answer": {"value": "n", "postfix": "本"}}}]}
    """#.write(toFile: directory + "/wide.json", atomically: true, encoding: .utf8)
    let refused = try quiz(["wide.hon", "--packs", directory, "--param", "max=15000"], input: "")
    #expect(refused.status == 64, "\(refused.standardError)")
    #expect(
      refused.standardError.contains("at most 10000 possible questions; these parameters give 15000"),
      "\(refused.standardError)")
    let served = try quiz(
      ["wide.hon", "--packs", directory, "--param", "max=20", "--skill", "kana", "--mode", "questions=1"],
      input: "skip\n")
    #expect(served.status == 0, "\(served.standardError)")
  }

  @Test func aScriptedSessionRunsToItsSummary() throws {
    // Seed 4 on counters.hon asks 六本, 一本, 七本 (see the test above it in the output).
    let result = try quiz(["counters.hon", "--seed", "4", "--mode", "questions=3"], input: "8\nskip\n1\n7本\n")
    #expect(result.status == 0, "\(result.standardError)")
    let expected = """
      [1/3] 六本
      ✗ Not quite. Try again, or type 'skip' to see the answer.
      → The answer: 6本
         六本  ろっぽん
      [2/3] 一本
      ✓ Correct
         一本  いっぽん
      [3/3] 七本
      ✓ Correct
         七本  ななほん

      Finished (all questions asked): 3 questions in
      """
    #expect(result.standardOutput.contains(expected), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("Correct: 2 (2 on the first try)   Wrong attempts: 1   Skipped: 1"))
    #expect(result.standardOutput.contains("六本 → 6本   (you typed: 8)"))
  }

  @Test func theKanaSkillAcceptsEveryStandardReading() throws {
    let result = try quiz(
      ["counters.hon", "--seed", "4", "--skill", "kana", "--mode", "questions=3"], input: "ロッポン\nいっぽん\nななほん\n")
    #expect(result.standardOutput.contains("Correct: 3 (3 on the first try)"), "\(result.standardOutput)")
  }

  @Test func theSameSeedReplaysTheSameQuestions() throws {
    let first = try quiz(
      ["money.restaurant", "--seed", "77", "--mode", "questions=5"], input: "skip\nskip\nskip\nskip\nskip\n")
    let second = try quiz(
      ["money.restaurant", "--seed", "77", "--mode", "questions=5"], input: "skip\nskip\nskip\nskip\nskip\n")
    let questions = { (output: String) in output.split(separator: "\n").filter { $0.hasPrefix("[") } }
    #expect(questions(first.standardOutput).count == 5)
    #expect(questions(first.standardOutput) == questions(second.standardOutput))
  }

  @Test func parametersAreCheckedAgainstTheirBounds() throws {
    let ok = try quiz(
      [
        "numbers.custom", "--param", "min=1", "--param", "max=500", "--param", "step=5", "--seed", "1", "--mode",
        "questions=1",
      ], input: "skip\n")
    #expect(ok.status == 0, "\(ok.standardError)")
    let refused = try quiz(["numbers.custom", "--param", "max=0"], input: "")
    #expect(refused.status == 64)
    #expect(
      refused.standardError.contains("max=0 is out of bounds: max must be between 0 and")
        || refused.standardError.contains("min 1 is above max 0"))
  }

  /// The menu offers the kinds of topic first (everyday numbers last, after the basics they
  /// build on), then a kind's topics by number.
  @Test func withoutATopicItOffersAChoice() throws {
    let result = try quiz(["--seed", "1", "--mode", "questions=1"], input: "1\n1\nskip\n")
    let kinds = result.standardOutput.split(separator: "\n").dropFirst().prefix(6).map {
      $0.split(separator: "(").first.map(String.init) ?? ""
    }
    #expect(
      kinds == [
        "  1. Numbers ", "  2. Money ", "  3. Durations ", "  4. Dates and times ", "  5. Counters ",
        "  6. Everyday numbers ",
      ], "\(result.standardOutput)")
    #expect(result.standardOutput.contains("Numbers (10):\n   1. 1–10  [numbers.beginner]\n"))
    #expect(result.standardOutput.contains("Finished (all questions asked): 1 question"))
  }

  /// Typed words find a topic in any kind, as in a picker.
  @Test func wordsTypedAtTheMenuFindTheTopic() throws {
    let result = try quiz(["--seed", "1", "--mode", "questions=1", "--skill", "kana"], input: "匹 100\nskip\n")
    #expect(result.standardOutput.contains("\n匹 (1–100) — kana: "), "\(result.standardOutput)")
  }

  /// `swift run biki` builds biki alone: until `swift build` has built the sample plugins, the
  /// menu and `biki topics` say why their topics are missing, and how to add them.
  @Test func aCheckoutWithoutTheSamplePluginsBuiltSaysSo() throws {
    let checkout = NSTemporaryDirectory() + "biki-checkout-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: checkout + "/.build/debug", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: PluginFixtures.repository.appendingPathComponent("TopicPacks").path, toPath: checkout + "/TopicPacks")
    try ExecutableCopy.place(BikiProcess.executable.path, at: checkout + "/.build/debug/biki")
    let environment = BikiPackTests.isolated(checkout)
    let note =
      "Note: the sample plugins' topics (calendar.* and prices.*) are not listed: they are not built yet. 'swift build' builds them.\n"
    let topics = try BikiProcess.run(
      [], viaShell: "'\(checkout)/.build/debug/biki' topics", environment: environment, directory: "/")
    #expect(topics.status == 0)
    #expect(topics.standardError == note)
    #expect(!topics.standardOutput.contains("calendar."))
    let menu = try BikiProcess.run(
      [], viaShell: "'\(checkout)/.build/debug/biki' quiz </dev/null", environment: environment, directory: "/")
    #expect(menu.standardError.hasPrefix(note), "\(menu.standardError)")
    // Built beside it, they are listed and the note is gone.
    try FileManager.default.copyItem(
      atPath: BikiProcess.executable.deletingLastPathComponent().appendingPathComponent("libbiki-calendar.so").path,
      toPath: checkout + "/.build/debug/libbiki-calendar.so")
    let one = try BikiProcess.run(
      [], viaShell: "'\(checkout)/.build/debug/biki' topics", environment: environment, directory: "/")
    #expect(one.standardError == note.replacingOccurrences(of: "calendar.* and ", with: ""))
    #expect(one.standardOutput.contains("\ncalendar."))
  }

  @Test func endOfInputEndsTheSessionWithASummary() throws {
    let result = try quiz(["dates.months", "--seed", "2"], input: "")
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("Finished (ended): 0 questions"))
  }

  @Test func unknownTopicsAndBadOptionsAreUsageErrors() throws {
    let unknown = try quiz(["counters.hno"], input: "")
    #expect(unknown.status == 64)
    #expect(unknown.standardError.contains("Did you mean 'counters.hon'?"))
    #expect(try quiz(["counters.hon", "--mode", "questions=0"], input: "").status == 64)
    #expect(try quiz(["counters.hon", "--skill", "kanji"], input: "").standardError.contains("Did you mean 'kana'?"))
  }

  /// The money topics take an amount however yen is written after it, as the answer checker's
  /// own tests say: 千五十円 answered 1050円, ¥1,050, or 1050えん.
  @Test(arguments: ["1050円", "¥1,050", "1050えん", "1,050"])
  func anAmountIsRightWhicheverWayYenIsWritten(_ typed: String) throws {
    let result = try quiz(
      ["money.restaurant", "--seed", "1", "--mode", "questions=1", "--skill", "reading"], input: typed + "\n")
    #expect(result.standardOutput.contains("[1/1] 千五十円"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("✓ Correct"), "\(result.standardOutput)")
  }

  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.swiftPluginsCannotLoad)))
  func topicsListsEveryTopicWithItsSource() throws {
    let home = NSTemporaryDirectory() + "biki-topics-" + UUID().uuidString
    let result = try BikiProcess.run(["topics"], environment: BikiPackTests.isolated(home))
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.first == "id\ttitle\tcategory\tskills\tsource")
    #expect(lines.count > 50)
    #expect(lines.contains { $0.hasPrefix("dates.eras\t") && $0.contains("dateTime\tlistening,reading\t") })
    // Naming the built-in directory again, under another spelling, loads nothing twice.
    let again = try BikiProcess.run(
      ["topics", "--packs", "TopicPacks"], environment: BikiPackTests.isolated(home),
      directory: BikiPackTests.repository.path)
    #expect(again.standardOutput == result.standardOutput)
    #expect(again.standardError.isEmpty)
  }
}

@Suite struct BrokenUserPackTests {
  @Test func aBrokenUserPackIsReportedAndEverythingElseStillServes() throws {
    let home = NSTemporaryDirectory() + "biki-broken-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home + "/data/biki/packs", withIntermediateDirectories: true)
    try Data([0x7B, 0xFF, 0x7D]).write(to: URL(fileURLWithPath: home + "/data/biki/packs/bad.json"))
    let result = try BikiProcess.run(["topics"], environment: BikiPackTests.isolated(home))
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("numbers.beginner\t"))
    #expect(
      result.standardError.contains(
        "bad.json:1:2: error: invalid UTF-8: byte 0xFF does not begin a well-formed character [invalid-utf8]"))
  }
}

/// Which packs passed their reading check is remembered in the user's cache directory, and an
/// edited pack is read afresh, as a learner running `biki` twice meets it.
@Suite struct PackCheckCacheFileTests {
  @Test func packsThatPassedAreRememberedAndAnEditedOneIsReadAgain() throws {
    let home = NSTemporaryDirectory() + "biki-pack-checks-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: home) }
    let packs = home + "/data/biki/packs"
    let cache = home + "/.cache/biki/pack-checks.json"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    let pack = #"""
      {"format": 1, "id": "mine", "title": "Mine", "version": "1.0.0",
       "topics": [{"id": "hon", "title": "本", "category": "counter", "skills": ["kana"],
                   "variables": {"n": {"range": {"min": 1, "max": 300}}},
                   "question": {"parts": [{"number": "n", "counter": "hon"}], "answer": {"value": "n", "postfix": "本"}}}]}
      """#
    try Data(pack.utf8).write(to: URL(fileURLWithPath: packs + "/mine.json"))
    let first = try BikiProcess.run(["topics"], environment: BikiPackTests.isolated(home))
    #expect(first.standardOutput.contains("mine.hon\t"))
    let remembered = try String(contentsOfFile: cache, encoding: .utf8)
    #expect(remembered.contains(packs + "/mine.json|"))
    let second = try BikiProcess.run(["topics"], environment: BikiPackTests.isolated(home))
    #expect(second.standardOutput == first.standardOutput)
    #expect(second.standardError.isEmpty)
    // Edited into a broken pack: read again, reported, and no longer remembered.
    try Data(#"{"format": 1, "id": "mine"}"#.utf8).write(to: URL(fileURLWithPath: packs + "/mine.json"))
    let edited = try BikiProcess.run(["topics"], environment: BikiPackTests.isolated(home))
    #expect(!edited.standardOutput.contains("mine.hon\t"))
    #expect(edited.standardError.contains("mine.json:"))
    #expect(try !String(contentsOfFile: cache, encoding: .utf8).contains(packs + "/mine.json|"))
  }
}

/// Plugins next to JSON topics, through the real executables.
@Suite struct PluginIntegrationTests {
  /// Builds a plugin with plain `cc` into a fresh directory, as a plugin author would.
  /// `into` adds it to a directory made before, so several plugins load side by side.
  static func pluginDirectory(_ source: String, name: String, defines: [String] = [], into existing: String? = nil)
    throws -> String
  {
    let directory = existing ?? NSTemporaryDirectory() + "biki-e2e-plugins-" + UUID().uuidString
    try PluginFixtures.copy(source, defines: defines, into: directory, as: name)
    return directory
  }

  @Test func aPluginCrashingOnEveryTenthSeedCostsOnlyThoseQuestions() throws {
    let plugins = try Self.pluginDirectory(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libtenth.so", defines: ["CRASH_EVERY_TENTH"])
    let home = NSTemporaryDirectory() + "biki-e2e-" + UUID().uuidString
    let script =
      "yes skip | head -n 40 | \"$0\" quiz misbehaving.ok --skill kana --seed 5 --mode questions=30 --plugins '\(plugins)'"
    let quiz = try BikiProcess.run([], viaShell: script, environment: BikiPackTests.isolated(home))
    #expect(quiz.status == 0, "\(quiz.standardError)")
    #expect(quiz.standardOutput.contains("[30/30]"), "\(quiz.standardOutput)")
    #expect(quiz.standardOutput.contains("Finished (all questions asked): 30 questions"), "\(quiz.standardOutput)")
    // Each question lost is said, with why, as the next is asked.
    #expect(
      quiz.standardError.contains("Warning: a question could not be made, so the next is asked: topic misbehaving.ok"),
      "\(quiz.standardError)")
  }

  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func aPluginThatAlwaysCrashesIsQuarantinedAndTheQuizSaysWhy() throws {
    let plugins = try Self.pluginDirectory(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libcrash.so", defines: ["SEGFAULT"])
    let home = NSTemporaryDirectory() + "biki-e2e-" + UUID().uuidString
    let script =
      "printf 'skip\\n' | \"$0\" quiz misbehaving.ok --skill kana --seed 5 --mode questions=3 --plugins '\(plugins)'"
    let quiz = try BikiProcess.run([], viaShell: script, environment: BikiPackTests.isolated(home))
    #expect(quiz.status == 69, "\(quiz.standardOutput)\(quiz.standardError)")
    #expect(quiz.standardError.contains("libcrash.so"), "\(quiz.standardError)")
    #expect(quiz.standardError.contains("SIGSEGV"), "\(quiz.standardError)")
    // Said to the learner in plain words, and in the error.
    #expect(
      quiz.standardOutput.contains(
        "⚠ The plugin libcrash.so, which makes the questions of OK, failed 3 times in a row, so Biki has quarantined it: it will not be asked for more questions in this quiz. The last failure: question "
      ), "\(quiz.standardOutput)")
    #expect(
      quiz.standardError.hasPrefix(
        "Error: no question could be made: the plugin \(plugins)/libcrash.so was quarantined after 3 failures in a row, the last: question "
      ), "\(quiz.standardError)")
  }

  /// A review draws on every topic: when the plugin behind one is quarantined (here while the
  /// review is planned), the learner is told and the review goes on with the others.
  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func aReviewGoesOnWithItsOtherTopicsWhenAPluginIsQuarantined() throws {
    let plugins = try Self.pluginDirectory(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libcrash.so", defines: ["SEGFAULT"])
    let home = NSTemporaryDirectory() + "biki-e2e-" + UUID().uuidString
    let script = "yes skip | head -n 5 | \"$0\" quiz --mode review=5 --all --skill kana --seed 3 --plugins '\(plugins)'"
    let quiz = try BikiProcess.run([], viaShell: script, environment: BikiPackTests.isolated(home))
    #expect(quiz.status == 0, "\(quiz.standardOutput)\(quiz.standardError)")
    #expect(
      quiz.standardOutput.contains(
        "⚠ The plugin libcrash.so, which makes the questions of OK, failed 3 times in a row, so Biki has quarantined it"
      ), "\(quiz.standardOutput)")
    #expect(quiz.standardOutput.contains("Finished (all questions asked): 5 questions"), "\(quiz.standardOutput)")
  }

  /// A plugin that answers, then crashes on every question: after three in a row the learner is
  /// told it was quarantined, and the quiz ends cleanly, its summary and answers kept.
  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.crashesAreRenamed)))
  func aPluginQuarantinedDuringAQuizIsToldAndTheQuizEndsCleanly() throws {
    let plugins = try Self.pluginDirectory(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libturns.so", defines: ["CRASH_WHEN_FILE"])
    let crashFile = NSTemporaryDirectory() + "biki-crash-" + UUID().uuidString
    var environment = BikiPackTests.isolated(NSTemporaryDirectory() + "biki-e2e-" + UUID().uuidString)
    environment["BIKI_TEST_CRASH_FILE"] = crashFile
    let quiz = Process()
    quiz.executableURL = BikiProcess.executable
    quiz.arguments = [
      "quiz", "misbehaving.ok", "--skill", "kana", "--seed", "5", "--mode", "questions=3", "--plugins", plugins,
    ]
    quiz.environment = environment
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    (quiz.standardInput, quiz.standardOutput, quiz.standardError) = (input, output, errors)
    let printed = Locked("")
    output.fileHandleForReading.readabilityHandler = { handle in
      let data = handle.availableData
      printed.withLock { $0 += String(decoding: data, as: UTF8.self) }
    }
    try quiz.run()
    // The first question is made; from the next on, every question crashes.
    let deadline = Date().addingTimeInterval(10)
    while !printed.withLock({ $0.contains("[1/3]") }) && Date() < deadline { usleep(10_000) }
    _ = FileManager.default.createFile(atPath: crashFile, contents: nil)
    input.fileHandleForWriting.write(Data("skip\n".utf8))
    try input.fileHandleForWriting.close()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    quiz.waitUntilExit()
    output.fileHandleForReading.readabilityHandler = nil
    let stdout =
      printed.withLock { $0 } + String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(quiz.terminationStatus == 69, "\(stdout)\(stderr)")
    #expect(
      stdout.contains(
        "⚠ The plugin libturns.so, which makes the questions of OK, failed 3 times in a row, so Biki has quarantined it"
      ), "\(stdout)")
    #expect(stdout.contains("Finished (stopped: "), "\(stdout)")
    #expect(stdout.contains("Skipped: 1"), "\(stdout)")
    // Each question lost before the quarantine is said as it is lost; then why the quiz stopped.
    let said = stderr.split(separator: "\n")
    #expect(
      said.dropLast().allSatisfy { $0.hasPrefix("Warning: a question could not be made, so the next is asked: ") })
    #expect(
      said.last?.hasPrefix(
        "Error: the quiz stopped because its questions could not be made: the plugin \(plugins)/libturns.so was quarantined after 3 failures in a row, the last: "
      ) == true, "\(stderr)")
  }

  @Test func pluginTopicsAreListedAndQuizzedLikeJSONTopics() throws {
    // The test plugin (id "misbehaving", well-behaved when built without flags): the sample
    // calendar may already be in the build directory, and a second copy would rightly clash.
    let plugins = try Self.pluginDirectory("Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libtest.so")
    let home = NSTemporaryDirectory() + "biki-e2e-" + UUID().uuidString
    let topics = try BikiProcess.run(["topics", "--plugins", plugins], environment: BikiPackTests.isolated(home))
    #expect(
      topics.standardOutput.contains("misbehaving.ok\tOK\tnumber\tkana\t\(plugins)/libtest.so"),
      "\(topics.standardOutput)\(topics.standardError)")
    #expect(topics.standardOutput.contains("numbers.beginner\t"))
    for inProcess in [false, true] {
      let script =
        "printf 'skip\\n' | \"$0\" quiz misbehaving.ok --skill kana --seed 3 --mode questions=1 --plugins '\(plugins)'"
        + (inProcess ? " --in-process" : "")
      let quiz = try BikiProcess.run([], viaShell: script, environment: BikiPackTests.isolated(home))
      #expect(quiz.status == 0, "\(quiz.standardError)")
      #expect(quiz.standardOutput.contains("→ The answer: "), "\(quiz.standardOutput)")
    }
  }

  @Test func samplePrintsAPluginsQuestions() throws {
    let plugins = try Self.pluginDirectory("Plugins/calendar-c/calendar.c", name: "libcalendar.so")
    let result = try BikiProcess.run(
      ["sample", plugins + "/libcalendar.so", "--topic", "eras", "-n", "200"], program: "biki-pack")
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.count == 201)
    #expect(lines.contains { $0.contains("\t昭和64年\t昭和六十四年\tしょうわろくじゅうよねん\t1989年") })
  }

  @Test func closingThePipeEndsAQuizQuietly() throws {
    let result = try BikiProcess.run(
      [], viaShell: "yes skip | \"$0\" quiz numbers.tens --mode infinite --seed 1 | head -3")
    #expect(result.status == 0)
    #expect(!result.standardError.contains("crashed"))
  }
}

/// The plugin docs/plugin-abi.md shows in "Taking a parameter", compiled as written: lint finds
/// nothing wrong, and its parameter narrows what is asked.
@Suite struct PluginDocExampleTests {
  @Test func theParameterExampleBuildsLintsCleanAndTakesItsParameter() throws {
    let document = try String(
      contentsOf: BikiPackTests.repository.appendingPathComponent("docs/plugin-abi.md"), encoding: .utf8)
    let marker = try #require(document.range(of: "<!-- parameter-example -->\n```c\n"))
    let end = try #require(document.range(of: "\n```", range: marker.upperBound..<document.endIndex))
    let directory = NSTemporaryDirectory() + "biki-doc-plugin-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let source = directory + "/counting.c"
    try String(document[marker.upperBound..<end.lowerBound]).write(toFile: source, atomically: true, encoding: .utf8)
    let plugins = directory
    // The example compiles without a warning (-Wall -Werror), or the test fails with what cc said.
    try PluginFixtures.compile([
      "-std=c99", "-Wall", "-Werror", "-shared", "-fPIC", "-I",
      BikiPackTests.repository.appendingPathComponent("Sources/BikiPluginABI/include").path,
      source, "-o", plugins + "/libcounting.so",
    ])
    let home = NSTemporaryDirectory() + "biki-e2e-" + UUID().uuidString
    let pack = BikiPackTests()
    let lint = try pack.pack(["lint", plugins + "/libcounting.so"], home: home)
    #expect(lint.status == 0, "\(lint.standardOutput)\(lint.standardError)")
    let sample = try pack.pack(["sample", plugins + "/libcounting.so", "-n", "6", "--param", "max=3"], home: home)
    #expect(sample.status == 0, "\(sample.standardError)")
    let displays = Set(sample.standardOutput.split(separator: "\n").dropFirst().map { $0.split(separator: "\t")[2] })
    #expect(displays == ["1", "2", "3"], "\(sample.standardOutput)")
  }
}
