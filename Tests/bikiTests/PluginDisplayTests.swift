import BikiTestSupport
import Foundation
import Testing

/// What a plugin shows is read whole, or its question is refused: each hostile question below
/// is written by a plain C plugin (`cc -shared -fPIC`, built here) and run through the real
/// `biki-pack lint`; a few are also asked for by `biki quiz`, which must never serve them.
@Suite struct PluginDisplayTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// The question's JSON members besides "spoken" (the first reading).
    var display: String
    var kanji: String
    var readings: [String]
    var answer: String
    var extra: String = ""
    var rule: String
    var fragment: String

    var testDescription: String { name }

    var json: String {
      let quoted = readings.map { "\"\($0)\"" }.joined(separator: ", ")
      return
        #"{"display": "\#(display)", "kanjiDisplay": "\#(kanji)", "spoken": "\#(readings[0])", "readings": [\#(quoted)], "answer": \#(answer)\#(extra)}"#
    }
  }

  static let cases: [Case] = [
    Case(
      name: "a full stop Biki does not read", display: "9本。", kanji: "九本。", readings: ["いっぽん"],
      answer: #"{"value": 1}"#,
      rule: "plugin-unreadable-display",
      fragment: #"Biki does not read "9本。" ('。' is not a number, unit or counter Biki knows)"#),
    Case(
      name: "a second number in brackets", display: "9本《1》", kanji: "九本《一》", readings: ["いっぽん"],
      answer: #"{"value": 1}"#,
      rule: "plugin-unreadable-display", fragment: #"Biki does not read "9本《1》""#),
    Case(
      name: "two numbers, the brackets declared silent", display: "9本（1本）", kanji: "九本（一本）", readings: ["いっぽん"],
      answer: #"{"value": 1, "postfix": "本"}"#,
      extra: #", "words": [{"text": "（", "reading": ""}, {"text": "）", "reading": ""}]"#,
      rule: "plugin-unreadable-display", fragment: #"it shows 2 numbers ("9本", "1本")"#),
    Case(
      name: "a mathematical digit", display: "𝟗本", kanji: "九本", readings: ["きゅうほん"], answer: #"{"value": 1}"#,
      rule: "plugin-unreadable-display", fragment: #"Biki does not read "𝟗本""#),
    Case(
      name: "a circled digit", display: "⑧本", kanji: "八本", readings: ["はっぽん"], answer: #"{"value": 3}"#,
      rule: "plugin-unreadable-display", fragment: #"Biki does not read "⑧本""#),
    Case(
      name: "a Roman numeral", display: "Ⅷ本", kanji: "八本", readings: ["はっぽん"], answer: #"{"value": 3}"#,
      rule: "plugin-unreadable-display", fragment: #"Biki does not read "Ⅷ本""#),
    Case(
      name: "a superscript digit", display: "⁸本", kanji: "八本", readings: ["はっぽん"], answer: #"{"value": 3}"#,
      rule: "plugin-unreadable-display", fragment: #"Biki does not read "⁸本""#),
    Case(
      name: "an Arabic-Indic digit", display: "٨本", kanji: "八本", readings: ["はっぽん"], answer: #"{"value": 3}"#,
      rule: "plugin-unreadable-display", fragment: #"Biki does not read "٨本""#),
    Case(
      name: "a daiji Biki does not read", display: "9本", kanji: "玖本", readings: ["きゅうほん"],
      answer: #"{"value": 9, "postfix": "本"}"#,
      rule: "plugin-unreadable-display", fragment: #"Biki does not read "玖本""#),
    Case(
      name: "a zero-width joiner between 1 and 9", display: #"1\u200D9本"#, kanji: "十九本", readings: ["いっぽん"],
      answer: #"{"value": 1}"#,
      rule: "plugin-unreadable-display", fragment: "U+200D ZERO WIDTH JOINER"),
    Case(
      name: "a 31-digit number", display: "1234567890123456789012345678901本", kanji: "一本", readings: ["いっぽん"],
      answer: #"{"value": 1}"#,
      rule: "plugin-unreadable-display", fragment: "is too large"),
    Case(
      name: "a declared number read inside a longer reading", display: "9本", kanji: "九本", readings: ["いっぽんきゅうほん"],
      answer: #"{"value": 9, "postfix": "本"}"#, extra: #", "number": {"value": 9, "counter": "本"}"#,
      rule: "plugin-reading-mismatch", fragment: #"reading "いっぽんきゅうほん" is not one Biki gives for "9本" (きゅうほん)"#),
    Case(
      name: "a declared counter the display does not show, with its own reading", display: "9本", kanji: "九本",
      readings: ["きゅうぽん"],
      answer: #"{"value": 9, "postfix": "本"}"#,
      extra: #", "number": {"value": 9, "counter": "ほん", "counterReading": "ぽん"}"#,
      rule: "plugin-reading-mismatch", fragment: #"reading "きゅうぽん" is not one Biki gives for "9本""#),
    Case(
      name: "an answer with another counter", display: "九本", kanji: "九本", readings: ["きゅうほん"],
      answer: #"{"value": 9, "postfix": "匹"}"#,
      rule: "plugin-answer-mismatch",
      fragment: #"the answer "9匹" is not written as "九本" shows it: its postfix "匹" is not there"#),
    Case(
      name: "an answer with a yen sign and another counter", display: "7本", kanji: "七本", readings: ["ななほん"],
      answer: #"{"value": 7, "prefix": "¥", "postfix": "匹"}"#,
      rule: "plugin-answer-mismatch", fragment: #"its prefix "¥" is not there"#),
    Case(
      name: "a declared word holding a numeral", display: "9本", kanji: "九本", readings: ["いっぽん"],
      answer: #"{"value": 9}"#,
      extra: #", "words": [{"text": "9本", "reading": "いっぽん"}]"#,
      rule: "plugin-unreadable-display", fragment: #"the declared word "9本" holds the numeral '9' U+0039 DIGIT NINE"#),
    Case(
      name: "a declared word that is the number's counter", display: "9本", kanji: "九本", readings: ["きゅうぽん"],
      answer: #"{"value": 9}"#,
      extra: #", "words": [{"text": "本", "reading": "ぽん"}]"#,
      rule: "plugin-unreadable-display",
      fragment: #"the declared word "本" is part of "9本", which Biki reads as one phrase"#),
    Case(
      name: "an answer without the minus sign shown", display: "-9本", kanji: "マイナス九本", readings: ["まいなすきゅうほん"],
      answer: #"{"value": 9, "postfix": "本"}"#,
      rule: "plugin-answer-mismatch", fragment: #"the answer 9 is not the number "-9本" shows (-9)"#),
    // One number inside a decimal, a time, a fraction or a phone number is not the number shown:
    // a v1 plugin answers whole numbers, so such a display is one it cannot ask about.
    Case(
      name: "the digit after a decimal point", display: "39.1度", kanji: "三十九・一度", readings: ["さんじゅうきゅうてんいちど"],
      answer: #"{"value": 1, "postfix": "度"}"#,
      rule: "plugin-answer-mismatch", fragment: #""39.1度" shows 39.1度, a decimal with 1 digit after the point"#),
    Case(
      name: "the hour of a clock time", display: "16:05", kanji: "十六時五分", readings: ["じゅうろくじごふん"],
      answer: #"{"value": 16}"#,
      rule: "plugin-answer-mismatch", fragment: #""16:05" shows 16:05, a time of day"#),
    Case(
      name: "the denominator of a fraction", display: "3分の1", kanji: "三分の一", readings: ["さんぶんのいち"],
      answer: #"{"value": 3}"#,
      rule: "plugin-answer-mismatch", fragment: #""3分の1" shows 3分の1, a fraction"#),
    Case(
      name: "the last group of a phone number", display: "090-1234-5678", kanji: "090-1234-5678",
      readings: ["ぜろきゅうぜろのいちにさんよんのごろくななはち"], answer: #"{"value": 5678}"#,
      rule: "plugin-answer-mismatch", fragment: #""090-1234-5678" shows 3 numbers (090, 1234, 5678)"#),
    Case(
      name: "the whole part of a number below zero", display: "−1.5度", kanji: "マイナス一・五度",
      readings: ["まいなすいちてんごど"], answer: #"{"value": -1, "postfix": "度"}"#,
      rule: "plugin-answer-mismatch", fragment: #""−1.5度" shows -1.5度, a decimal"#),
    Case(
      name: "a half taken for nothing", display: "0.5本", kanji: "〇・五本", readings: ["れいてんごほん"],
      answer: #"{"value": 0, "postfix": "本"}"#,
      rule: "plugin-answer-mismatch", fragment: #""0.5本" shows 0.5本, a decimal"#),
    // Minus signs Biki does not read, declared silent or read as words: the learner sees minus
    // five and would be taught five.
    Case(
      name: "an en dash declared silent", display: "–5度", kanji: "–五度", readings: ["ごど"],
      answer: #"{"value": 5, "postfix": "度"}"#, extra: #", "words": [{"text": "–", "reading": ""}]"#,
      rule: "plugin-unreadable-display", fragment: #"the declared word "–" has no reading and stands against a number"#),
    Case(
      name: "a small hyphen-minus declared silent", display: "﹣5度", kanji: "﹣五度", readings: ["ごど"],
      answer: #"{"value": 5, "postfix": "度"}"#, extra: #", "words": [{"text": "﹣", "reading": ""}]"#,
      rule: "plugin-unreadable-display", fragment: #"the declared word "﹣" has no reading"#),
    Case(
      name: "a superscript minus declared silent", display: "⁻5度", kanji: "⁻五度", readings: ["ごど"],
      answer: #"{"value": 5, "postfix": "度"}"#, extra: #", "words": [{"text": "⁻", "reading": ""}]"#,
      rule: "plugin-unreadable-display", fragment: #"the declared word "⁻" has no reading"#),
    Case(
      name: "the accounting minus read as a word", display: "▲5度", kanji: "▲五度", readings: ["さんかくごど"],
      answer: #"{"value": 5, "postfix": "度"}"#, extra: #", "words": [{"text": "▲", "reading": "さんかく"}]"#,
      rule: "plugin-unreadable-display", fragment: #"the declared word "▲" ends in '▲' U+25B2"#),
    Case(
      name: "an en dash undeclared", display: "–5度", kanji: "–五度", readings: ["ごど"],
      answer: #"{"value": 5, "postfix": "度"}"#,
      rule: "plugin-unreadable-display", fragment: #"'–' before a number is not a sign Biki reads"#),
    // A code is read digit by digit wherever Biki meets it, as packs' digit parts teach it.
    Case(
      name: "a code taught as a quantity", display: "0857", kanji: "0857", readings: ["はっぴゃくごじゅうなな"],
      answer: #"{"value": 857}"#,
      rule: "plugin-reading-mismatch", fragment: #"reading "はっぴゃくごじゅうなな" is not one Biki gives for "0857""#),
  ]

  /// Builds the one-question fixture writing `json`; the name keeps each build apart.
  static func plugin(_ json: String, name: String, defines: [String] = []) throws -> String {
    let literal =
      "\"" + json.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    let source = PluginFixtures.repository.appendingPathComponent("Tests/BikiPluginsTests/Fixtures/one_question.c").path
    return try PluginFixtures.build(
      source, defines: ["QUESTION=" + literal] + defines, name: "written-" + name.filter(\.isLetter))
  }

  /// Each hostile question through all three: `biki-pack lint` names the rule and why, `biki
  /// quiz` never shows it (its topic's one question is refused, so the quiz ends saying why),
  /// and `biki serve` answers `biki/generate` with the reason instead of the question.
  @Test(arguments: cases)
  func lintQuizAndServeRefuseTheQuestionNamingWhy(_ hostile: Case) throws {
    let library = try Self.plugin(hostile.json, name: hostile.name)
    let home = NSTemporaryDirectory() + "biki-display-" + UUID().uuidString
    let lint = try BikiProcess.run(["lint", library], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(lint.status == 1, "\(lint.standardOutput)")
    #expect(lint.standardOutput.contains("[\(hostile.rule)]"), "\(lint.standardOutput)")
    #expect(lint.standardOutput.contains(hostile.fragment), "\(lint.standardOutput)")

    let plugins = home + "/plugins"
    try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: library, toPath: plugins + "/libwritten.so")
    var environment = BikiPackTests.isolated(home)
    environment["BIKI_INPUT"] = "\(hostile.readings[0])\n"
    let quiz = try BikiProcess.run(
      [],
      viaShell:
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz written.q --plugins '\(plugins)' --mode questions=1 --skill kana",
      environment: environment)
    #expect(quiz.status != 0)
    #expect(
      !quiz.standardOutput.contains("[1/1]") && !quiz.standardOutput.contains("Correct"), "\(quiz.standardOutput)")
    #expect(quiz.standardError.contains(hostile.fragment), "\(quiz.standardError)")

    let run = try ServeRun.run(
      ServeRun.initialize + ServeRun.request(1, "biki/generate", #"{"topicId":"written.q","seed":1,"count":1}"#)
        + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins], home: home)
    #expect(run.status == 0)
    #expect(run.result(1) == nil)
    #expect(run.errorCode(1) == -32803)
    let message = (run.response(1)?["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(message.contains(hostile.fragment), "\(message)")
  }

  /// A number shown below zero is answered with its sign: -9本 (マイナス九本) is -9.
  @Test func aNumberBelowZeroIsAnsweredWithItsSign() throws {
    let good = Case(
      name: "minus nine", display: "-9本", kanji: "マイナス九本", readings: ["まいなすきゅうほん"],
      answer: #"{"value": -9, "postfix": "本"}"#,
      rule: "", fragment: "")
    let library = try Self.plugin(good.json, name: good.name)
    let home = NSTemporaryDirectory() + "biki-display-" + UUID().uuidString
    let lint = try BikiProcess.run(["lint", library], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(lint.status == 0, "\(lint.standardOutput)")
  }

  /// Two rules lint checks beyond the questions: a plugin that answers for a topic it does not
  /// describe, and one that is slow to load and describe (a warning).
  @Test func lintNamesAnUnknownTopicAcceptedAndASlowEntry() throws {
    let good =
      #"{"display": "8本", "kanjiDisplay": "八本", "spoken": "はっぽん", "readings": ["はっぽん"], "answer": {"value": 8, "postfix": "本"}}"#
    let home = NSTemporaryDirectory() + "biki-display-" + UUID().uuidString
    let lenient = try Self.plugin(good, name: "lenient", defines: ["ACCEPT_ANY_TOPIC"])
    let unknown = try BikiProcess.run(
      ["lint", lenient], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(unknown.status == 1)
    #expect(
      unknown.standardOutput.contains(
        #"generate accepted the topic id "no-such-topic-q", which the plugin does not describe [plugin-unknown-topic]"#),
      "\(unknown.standardOutput)")

    let slow = try PluginFixtures.misbehaving("SLOW_LOAD_MS=300")
    let warned = try BikiProcess.run(["lint", slow], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(warned.standardOutput.contains("warning: loading and describing took"), "\(warned.standardOutput)")
    #expect(
      warned.standardOutput.contains("should answer within 100 ms [plugin-slow-entry]"), "\(warned.standardOutput)")
  }

  /// Answers in the shape the display shows (host extension biki.answers.1): a plugin that asks
  /// for the extension in `init` finds it, lint passes it, the quiz takes the answer as shown,
  /// and the server sends it written as shown. The wrong shape or value is refused, naming it.
  @Test(
    arguments: [
      (
        "39.1度", "三十九・一度", "さんじゅうきゅうてんいちど", #"{"value": 391, "decimals": 1, "postfix": "度"}"#, "39.1",
        "BIKI_ANSWER_SHAPE_DECIMAL", "39.1度"
      ),
      (
        "16:05", "十六時五分", "じゅうろくじごふん", #"{"value": 965, "style": "clock"}"#, "16時5分", "BIKI_ANSWER_SHAPE_CLOCK", "16:05"
      ),
      ("3分の1", "三分の一", "さんぶんのいち", #"{"value": 1, "denominator": 3}"#, "1/3", "BIKI_ANSWER_SHAPE_FRACTION", "3分の1"),
      (
        "0857", "0857", "ぜろはちごなな", #"{"value": 857, "style": "digits", "width": 4}"#, "0857", "BIKI_ANSWER_SHAPE_CODE",
        "0857"
      ),
    ])
  func anAnswerInTheShapeShownIsServed(
    _ display: String, _ kanji: String, _ reading: String, _ answer: String, _ typed: String, _ shape: String,
    _ answerDisplay: String
  ) throws {
    let good = Case(
      name: "typed " + shape, display: display, kanji: kanji, readings: [reading], answer: answer, rule: "",
      fragment: "")
    let library = try Self.plugin(good.json, name: good.name, defines: ["NEEDS_SHAPES=" + shape])
    let home = NSTemporaryDirectory() + "biki-display-" + UUID().uuidString
    let lint = try BikiProcess.run(["lint", library], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(lint.status == 0, "\(lint.standardOutput)")

    let plugins = home + "/plugins"
    try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: library, toPath: plugins + "/libwritten.so")
    var environment = BikiPackTests.isolated(home)
    environment["BIKI_INPUT"] = typed + "\n"
    let quiz = try BikiProcess.run(
      [],
      viaShell:
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz written.q --plugins '\(plugins)' --mode questions=1 --skill listening",
      environment: environment)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    #expect(quiz.standardOutput.contains("Correct"), "\(quiz.standardOutput)")

    let run = try ServeRun.run(
      ServeRun.initialize + ServeRun.request(1, "biki/generate", #"{"topicId":"written.q","seed":1,"count":1}"#)
        + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins], home: home)
    let question = (run.result(1)?["questions"] as? [[String: Any]])?.first
    #expect(question?["answerDisplay"] as? String == answerDisplay, "\(String(describing: question))")
  }

  @Test(
    arguments: [
      (
        #"{"value": 391, "decimals": 2, "postfix": "度"}"#,
        #""39.1度" shows 39.1度, a decimal with 1 digit after the point, and the answer 3.91 is a decimal with 2 digits after the point"#
      ),
      (
        #"{"value": 391, "postfix": "度"}"#,
        #""39.1度" shows 39.1度, a decimal with 1 digit after the point, and the answer 391 is a whole number: give the answer the shape shown ("decimals": 1"#
      ),
      (#"{"value": 39, "decimals": 1, "denominator": 10}"#, "the answer gives more than one shape"),
      (#"{"value": 391, "decimals": 11}"#, #"the answer's "decimals" must be a whole number from 1 to 10"#),
    ])
  func anAnswerInAnotherShapeIsRefused(_ answer: String, _ fragment: String) throws {
    let json =
      #"{"display": "39.1度", "kanjiDisplay": "三十九・一度", "spoken": "さんじゅうきゅうてんいちど", "readings": ["さんじゅうきゅうてんいちど"], "answer": \#(answer)}"#
    let library = try Self.plugin(json, name: "shape" + answer)
    let home = NSTemporaryDirectory() + "biki-display-" + UUID().uuidString
    let lint = try BikiProcess.run(["lint", library], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(lint.status == 1)
    #expect(lint.standardOutput.contains(fragment), "\(lint.standardOutput)")
  }

  /// A topic of more questions than lint asks is checked on an even spread, and lint says how
  /// many, and that the rest are checked when they are asked.
  @Test func lintSaysHowManyOfAPluginsQuestionsItChecked() throws {
    let good =
      #"{"display": "8本", "kanjiDisplay": "八本", "spoken": "はっぽん", "readings": ["はっぽん"], "answer": {"value": 8, "postfix": "本"}}"#
    let wide = try Self.plugin(good, name: "wide", defines: ["QUESTION_COUNT=5000"])
    let home = NSTemporaryDirectory() + "biki-display-" + UUID().uuidString
    let lint = try BikiProcess.run(["lint", wide], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(
      lint.standardOutput.contains(
        "note: readings were checked on 1,000 of 5,000 possible questions, spread evenly over each topic; every other question is checked when it is asked, and refused if it fails"
      ), "\(lint.standardOutput)")
  }

  /// The samples' way of writing questions passes: declared words, and what Biki reads.
  @Test func declaredWordsAndWhatBikiReadsPass() throws {
    let good = Case(
      name: "tax included", display: "税込¥286", kanji: "税込二百八十六円", readings: ["ぜいこみにひゃくはちじゅうろくえん"],
      answer: #"{"value": 286, "prefix": "¥"}"#,
      extra: #", "number": {"value": 286, "counter": "円"}, "words": [{"text": "税込", "reading": "ぜいこみ"}]"#,
      rule: "", fragment: "")
    let library = try Self.plugin(good.json, name: good.name)
    let home = NSTemporaryDirectory() + "biki-display-" + UUID().uuidString
    let lint = try BikiProcess.run(["lint", library], program: "biki-pack", environment: BikiPackTests.isolated(home))
    #expect(lint.status == 0, "\(lint.standardOutput)")
  }

  /// `biki serve` never sends a refused question: `biki/generate` fails with the reason, and the
  /// server goes on.
  @Test func theServerListsARefusedQuestionAsFailed() throws {
    let hostile = Self.cases[9]  // 1‍9本, a zero-width joiner
    let library = try Self.plugin(hostile.json, name: hostile.name)
    let plugins = NSTemporaryDirectory() + "biki-display-serve-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: library, toPath: plugins + "/libwritten.so")
    let run = try ServeRun.run(
      ServeRun.initialize + ServeRun.request(1, "biki/generate", #"{"topicId":"written.q","seed":1,"count":1}"#)
        + ServeRun.request(2, "biki/read", #"{"text":"19本"}"#) + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins])
    #expect(run.status == 0)
    // Its only question refused, the request fails with the reason (-32803), and nothing is sent.
    #expect(run.result(1) == nil)
    #expect(run.errorCode(1) == -32803)
    let message = (run.response(1)?["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(message.contains("U+200D ZERO WIDTH JOINER") && message.contains("libwritten.so"), "\(message)")
    #expect(run.result(2)?["reading"] as? String == "じゅうきゅうほん")
  }
}

/// A plugin can override a built-in topic for its user, but never take it away: an override
/// whose questions fail leaves the built-in one serving, and says why.
@Suite struct PluginOverrideTests {
  static func overriding(_ json: String, name: String) throws -> String {
    try PluginDisplayTests.plugin(
      json, name: "override" + name, defines: [#"PLUGIN_ID="counters""#, #"TOPIC_ID="hon""#])
  }

  func home(with library: String) throws -> (environment: [String: String], plugins: String) {
    let home = NSTemporaryDirectory() + "biki-override-" + UUID().uuidString
    let plugins = home + "/plugins"
    try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: library, toPath: plugins + "/libcounters.so")
    var environment = BikiPackTests.isolated(home)
    environment["XDG_STATE_HOME"] = home + "/state"
    return (environment, plugins)
  }

  @Test func anOverrideWhoseQuestionsFailLeavesTheBuiltInTopicServing() throws {
    // 8本 taught いっぽん.
    let lie =
      #"{"display": "8本", "kanjiDisplay": "八本", "spoken": "いっぽん", "readings": ["いっぽん"], "answer": {"value": 8, "postfix": "本"}}"#
    let (environment, plugins) = try home(with: try Self.overriding(lie, name: "lie"))
    var input = environment
    input["BIKI_INPUT"] = "skip\n"
    let quiz = try BikiProcess.run(
      [],
      viaShell:
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --plugins '\(plugins)' --mode questions=1 --seed 4 --skill kana",
      environment: input)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    #expect(quiz.standardOutput.contains("[1/1] "), "\(quiz.standardOutput)")
    #expect(!quiz.standardOutput.contains("いっぽん") || quiz.standardOutput.contains("1本"), "\(quiz.standardOutput)")
    #expect(
      quiz.standardError.contains(#"topic id "counters.hon" would override the built-in one, but its questions fail"#)
        && quiz.standardError.contains("the built-in topic is used"), "\(quiz.standardError)")
    let topics = try BikiProcess.run(["topics", "--plugins", plugins], environment: environment)
    let line = topics.standardOutput.split(separator: "\n").first { $0.hasPrefix("counters.hon\t") } ?? ""
    #expect(line.hasSuffix("counters.json"), "\(topics.standardOutput)")
    // Lint tells its author, and the server serves the built-in topic.
    let lint = try BikiProcess.run(
      ["lint", plugins + "/libcounters.so"], program: "biki-pack", environment: environment)
    #expect(lint.status == 1)
    #expect(
      lint.standardOutput.contains(
        #"reading "いっぽん" is not one Biki gives for "8本" (はっぽん or はちほん); ask it again with: biki-pack sample \#(plugins)/libcounters.so --topic counters.hon --question 0 [plugin-reading-mismatch]"#
      ), "\(lint.standardOutput)")
    let run = try ServeRun.run(
      ServeRun.initialize + ServeRun.request(1, "biki/generate", #"{"topicId":"counters.hon","seed":1,"count":10}"#)
        + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins], home: environment["HOME"])
    let questions = run.result(1)?["questions"] as? [[String: Any]] ?? []
    #expect(
      questions.count == 10 && questions.contains { $0["display"] as? String == "1本" },
      "the built-in topic's questions: \(questions)")
  }

  /// An override whose one bad question (8本 taught いっぽん at 5 of 1,000) hides from the seeds
  /// tried at loading serves, but that question is the built-in topic's: `biki serve` lists all
  /// 1,000 with none failed and none taught いっぽん for 8本, and a quiz asks them all.
  @Test func anOverridesBadQuestionMissedAtLoadingIsTheBuiltInOnes() throws {
    let good =
      #"{"display": "8本", "kanjiDisplay": "八本", "spoken": "はっぽん", "readings": ["はっぽん"], "answer": {"value": 8, "postfix": "本"}}"#
    let lie =
      #"{"display": "8本", "kanjiDisplay": "八本", "spoken": "いっぽん", "readings": ["いっぽん"], "answer": {"value": 8, "postfix": "本"}}"#
    let literal = "\"" + lie.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    let library = try PluginDisplayTests.plugin(
      good, name: "overridehiddenlie",
      defines: [#"PLUGIN_ID="counters""#, #"TOPIC_ID="hon""#, "QUESTION_COUNT=1000", "LIE_AT=5", "LIE=" + literal])
    let (environment, plugins) = try home(with: library)
    let topics = try BikiProcess.run(["topics", "--plugins", plugins], environment: environment)
    let line = topics.standardOutput.split(separator: "\n").first { $0.hasPrefix("counters.hon\t") } ?? ""
    #expect(
      line.hasSuffix("libcounters.so"), "the override should serve: \(topics.standardOutput)\n\(topics.standardError)")

    let run = try ServeRun.run(
      ServeRun.initialize + ServeRun.request(1, "biki/generate", #"{"topicId":"counters.hon","seed":1,"count":1000}"#)
        + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins], home: environment["HOME"])
    let questions = run.result(1)?["questions"] as? [[String: Any]] ?? []
    #expect(questions.count == 1000)
    #expect(questions.allSatisfy { $0["error"] == nil }, "a question failed")
    let taughtWrong = questions.filter {
      $0["display"] as? String == "8本" && ($0["readings"] as? [String] ?? []).contains("いっぽん")
    }
    #expect(taughtWrong.isEmpty)
    #expect(
      questions.filter { $0["display"] as? String != "8本" }.count == 1,
      "the built-in topic's question stands in for the bad one")

    var input = environment
    input["BIKI_INPUT"] = String(repeating: "skip\n", count: 1000)
    let quiz = try BikiProcess.run(
      [],
      viaShell:
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --plugins '\(plugins)' --mode questions=1000 --seed 2 --skill kana",
      environment: input)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    #expect(quiz.standardOutput.contains("[1000/1000]"))
    #expect(!quiz.standardOutput.contains("いっぽん"), "\(quiz.standardOutput.suffix(400))")
  }

  /// The override is held to the same check of the number shown: a timetable that answers
  /// 10:25 with its hour is refused, and the built-in timetable serves.
  @Test func aTimetableOverrideAnsweringTheHourLeavesTheBuiltInTopicServing() throws {
    let lie =
      #"{"display": "10:25", "kanjiDisplay": "十時二十五分", "spoken": "じゅうじにじゅうごふん", "readings": ["じゅうじにじゅうごふん"], "answer": {"value": 10}}"#
    let library = try PluginDisplayTests.plugin(
      lie, name: "overridetimetable", defines: [#"PLUGIN_ID="everyday""#, #"TOPIC_ID="timetable""#])
    let (environment, plugins) = try home(with: library)
    let lint = try BikiProcess.run(
      ["lint", plugins + "/libcounters.so"], program: "biki-pack", environment: environment)
    #expect(lint.status == 1)
    #expect(
      lint.standardOutput.contains(#""10:25" shows 10:25, a time of day"#)
        && lint.standardOutput.contains("[plugin-answer-mismatch]"), "\(lint.standardOutput)")
    var input = environment
    input["BIKI_INPUT"] = "skip\n"
    let quiz = try BikiProcess.run(
      [],
      viaShell:
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz everyday.timetable --plugins '\(plugins)' --mode questions=1 --seed 4 --skill reading",
      environment: input)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    #expect(quiz.standardError.contains("the built-in topic is used"), "\(quiz.standardError)")
    #expect(!quiz.standardOutput.contains("10:25"), "\(quiz.standardOutput)")
    let run = try ServeRun.run(
      ServeRun.initialize
        + ServeRun.request(1, "biki/generate", #"{"topicId":"everyday.timetable","seed":1,"count":5}"#)
        + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins], home: environment["HOME"])
    let questions = run.result(1)?["questions"] as? [[String: Any]] ?? []
    #expect(questions.count == 5 && questions.allSatisfy { $0["display"] as? String != "10:25" }, "\(questions)")
  }

  @Test func anOverrideWhoseQuestionsPassServes() throws {
    let good =
      #"{"display": "8本", "kanjiDisplay": "八本", "spoken": "はっぽん", "readings": ["はっぽん"], "answer": {"value": 8, "postfix": "本"}}"#
    let (environment, plugins) = try home(with: try Self.overriding(good, name: "good"))
    let topics = try BikiProcess.run(["topics", "--plugins", plugins], environment: environment)
    let line = topics.standardOutput.split(separator: "\n").first { $0.hasPrefix("counters.hon\t") } ?? ""
    #expect(line.hasSuffix("libcounters.so"), "\(topics.standardOutput)")
  }
}

/// The same rules for a pack's text parts: a text Biki cannot read is a word its author reads,
/// and may hold no numeral and no invisible character.
@Suite struct PackDisplayTests {
  static func pack(text: String, reading: String) -> String {
    #"""
    {"format": 1, "id": "shown", "title": "T", "version": "1", "topics": [
      {"id": "t", "title": "T", "description": "D.", "category": "counter", "skills": ["kana"],
       "variables": {"n": {"range": {"min": 1, "max": 9}}},
       "question": {"parts": [{"number": "n", "counter": "hon"}, {"text": "\#(text)", "reading": "\#(reading)"}],
                    "answer": {"value": "n", "postfix": "本"}}}]}
    """#
  }

  @Test(arguments: [
    ("。（1本）", "いっぽん", #"the declared word "。（1本）" holds the numeral '1' U+0031 DIGIT ONE"#),
    ("玖", "きゅう", #"the declared word "玖" holds the numeral '玖'"#),
    (#"\u200Dです"#, "です", "U+200D ZERO WIDTH JOINER"),
    ("⑧", "はち", #"the declared word "⑧" holds the numeral '⑧'"#),
  ])
  func lintRefusesAWordThatHidesANumber(_ text: String, _ reading: String, _ fragment: String) throws {
    let directory = NSTemporaryDirectory() + "biki-pack-shown-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try Self.pack(text: text, reading: reading).write(
      toFile: directory + "/shown.json", atomically: true, encoding: .utf8)
    let lint = try BikiProcess.run(
      ["lint", directory + "/shown.json"], program: "biki-pack", environment: BikiPackTests.isolated(directory))
    #expect(lint.status == 1)
    #expect(
      lint.standardOutput.contains("[unreadable-display]") && lint.standardOutput.contains(fragment),
      "\(lint.standardOutput)")
  }
}
