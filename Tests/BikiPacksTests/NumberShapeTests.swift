import BikiCore
import Testing

@testable import BikiPacks

/// Numbers that are not a whole count, as packs write them: decimals (`"decimals"`), numbers
/// below zero, fractions (`"denominator"`) and times on the 24-hour clock (`"clock"` parts).
/// Readings typed from docs/readings.md ("Everyday numbers": [NHK-DEC], [TENKI], [RECIPE],
/// [TIMETABLE]), not taken from the code.
@Suite struct NumberShapeTests {
  /// The one question of a topic whose variable `n` is fixed at `value`.
  static func question(part: String, answer: String, value: Int64, extra: String = "") throws -> Question {
    let topic = """
      { "id": "t", "title": "T", "description": "T.", "category": "number", "skills": ["listening", "reading", "kana"],
        "variables": { "n": { "range": { "min": \(value), "max": \(value) } }\(extra) },
        "question": { "parts": [\(part)], "answer": \(answer) } }
      """
    let compilation = PackFixtures.compile(PackFixtures.pack(topic: topic))
    #expect(
      compilation.diagnostics.filter { $0.severity == .error }.isEmpty, "\(compilation.diagnostics.map(\.message))")
    return try #require(compilation.topics.first).generator().question(seed: 0)
  }

  // MARK: Decimals

  static let decimals: [(Int64, String, String, String, [String])] = [
    (365, "度", "36.5度", "三十六・五度", ["さんじゅうろくてんごど", "さんじゅうろってんごど"]),
    (370, "度", "37.0度", "三十七・〇度", ["さんじゅうななてんれいど", "さんじゅうななてんぜろど"]),
    (15, "リットル", "1.5リットル", "一・五リットル", ["いちてんごりっとる", "いってんごりっとる"]),
    (5, "キロ", "0.5キロ", "〇・五キロ", ["れいてんごきろ", "ぜろてんごきろ"]),
    (100, "キロ", "10.0キロ", "十・〇キロ", ["じってんれいきろ", "じゅってんれいきろ", "じってんぜろきろ"]),
    (8, "秒", "0.8秒", "〇・八秒", ["れいてんはちびょう"]),
  ]

  @Test(arguments: decimals)
  func aDecimalIsShownWithItsPlacesAndReadDigitByDigitAfterThePoint(
    _ value: Int64, _ counter: String, _ display: String, _ kanji: String, _ readings: [String]
  ) throws {
    let question = try Self.question(
      part: #"{ "number": "n", "counter": "\#(counter)", "decimals": 1 }"#,
      answer: #"{ "value": "n", "decimals": 1, "postfix": "\#(counter)" }"#,
      value: value)
    #expect(question.display == display)
    #expect(question.kanjiDisplay == kanji)
    #expect(question.reading.standard == readings[0])
    for reading in readings {
      #expect(AnswerChecker.check(reading, against: question, skill: .kana).isCorrect, "\(reading)")
    }
    #expect(question.answer.display == display)
  }

  @Test func aDecimalAnswerIsTheNumberShownHoweverItIsTyped() throws {
    let question = try Self.question(
      part: #"{ "number": "n", "counter": "度", "decimals": 1 }"#,
      answer: #"{ "value": "n", "decimals": 1, "postfix": "度" }"#, value: 365)
    for typed in ["36.5", "36.5度", "３６．５", "36.50", " 36.5 "] {
      #expect(AnswerChecker.check(typed, against: question, skill: .listening).isCorrect, "\(typed)")
    }
    for typed in ["365", "36", "36.6", "3.65", "36.55", "36.", ".5", "36.5.1", "-36.5"] {
      #expect(!AnswerChecker.check(typed, against: question, skill: .listening).isCorrect, "\(typed)")
    }
    let whole = try Self.question(
      part: #"{ "number": "n", "counter": "度", "decimals": 1 }"#,
      answer: #"{ "value": "n", "decimals": 1, "postfix": "度" }"#, value: 370)
    // 37.0 is 37: the learner who types 37 typed the number.
    for typed in ["37.0", "37", "37.00"] {
      #expect(AnswerChecker.check(typed, against: whole, skill: .reading).isCorrect, "\(typed)")
    }
  }

  // MARK: Below zero

  static let belowZero: [(Int64, String, String, String)] = [
    (-5, "-5度", "マイナス五度", "まいなすごど"), (-10, "-10度", "マイナス十度", "まいなすじゅうど"),
    (-1, "-1度", "マイナス一度", "まいなすいちど"), (-8, "-8度", "マイナス八度", "まいなすはちど"),
  ]

  @Test(arguments: belowZero)
  func aNumberBelowZeroIsReadWithMinus(_ value: Int64, _ display: String, _ kanji: String, _ reading: String) throws {
    let question = try Self.question(
      part: #"{ "number": "n", "counter": "度" }"#, answer: #"{ "value": "n", "postfix": "度" }"#, value: value)
    #expect(question.display == display)
    #expect(question.kanjiDisplay == kanji)
    #expect(question.reading.standard == reading)
    for typed in ["\(value)", "\(value)度", "−\(-value)", "－\(-value)", "マイナス\(-value)"] {
      #expect(AnswerChecker.check(typed, against: question, skill: .listening).isCorrect, "\(typed)")
    }
    #expect(!AnswerChecker.check("\(-value)", against: question, skill: .listening).isCorrect)
  }

  @Test func aDecimalBelowZeroKeepsItsSign() throws {
    let question = try Self.question(
      part: #"{ "number": "n", "counter": "度", "decimals": 1 }"#,
      answer: #"{ "value": "n", "decimals": 1, "postfix": "度" }"#, value: -5)
    #expect(question.display == "-0.5度")
    #expect(question.reading.standard == "まいなすれいてんごど")
    #expect(AnswerChecker.check("-0.5", against: question, skill: .listening).isCorrect)
    #expect(!AnswerChecker.check("0.5", against: question, skill: .listening).isCorrect)
  }

  @Test func theLowestNumbersBelowZeroAreReadOrRefusedWithoutATrap() throws {
    let lowest = try Self.question(
      part: #"{ "number": "n" }"#, answer: #"{ "value": "n" }"#, value: -9_223_372_036_854_775_807)
    #expect(lowest.display == "-9,223,372,036,854,775,807")
    #expect(lowest.reading.standard.hasPrefix("まいなすきゅうひゃくにじゅうにけい"))
    // Int64.min has no positive counterpart: the question is an error, not a crash.
    let topic = """
      { "id": "t", "title": "T", "description": "T.", "category": "number", "skills": ["listening"],
        "variables": { "n": { "range": { "min": -9223372036854775808, "max": -9223372036854775807 } } },
        "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } } }
      """
    let compilation = PackFixtures.compile(PackFixtures.pack(topic: topic))
    #expect(
      compilation.diagnostics.contains { $0.rule == "unreadable-value" }, "\(compilation.diagnostics.map(\.message))")
  }

  // MARK: Fractions

  static let fractions: [(Int64, Int64, String, String, String)] = [
    (1, 3, "3分の1", "三分の一", "さんぶんのいち"), (3, 4, "4分の3", "四分の三", "よんぶんのさん"),
    (1, 100, "100分の1", "百分の一", "ひゃくぶんのいち"), (1, 9, "9分の1", "九分の一", "きゅうぶんのいち"),
    (2, 7, "7分の2", "七分の二", "ななぶんのに"), (1, 6, "6分の1", "六分の一", "ろくぶんのいち"),
  ]

  @Test(arguments: fractions)
  func aFractionIsSaidDenominatorFirst(
    _ numerator: Int64, _ denominator: Int64, _ display: String, _ kanji: String, _ reading: String
  ) throws {
    let question = try Self.question(
      part: #"{ "number": "n", "denominator": "d" }"#, answer: #"{ "value": "n", "denominator": "d" }"#,
      value: numerator,
      extra: #", "d": { "range": { "min": \#(denominator), "max": \#(denominator) } }"#)
    #expect(question.display == display)
    #expect(question.kanjiDisplay == kanji)
    // Said as numbers are said, never with the counting forms: よんぶん, not しぶん; きゅうぶん, not くぶん.
    #expect(question.reading.all() == [reading])
    for typed in [display, "\(numerator)/\(denominator)", "\(numerator)／\(denominator)"] {
      #expect(AnswerChecker.check(typed, against: question, skill: .listening).isCorrect, "\(typed)")
    }
    for typed in ["\(denominator)/\(numerator)", "\(numerator)", "\(numerator)分の\(denominator)"]
    where numerator != denominator {
      #expect(!AnswerChecker.check(typed, against: question, skill: .listening).isCorrect, "\(typed)")
    }
  }

  @Test func aSlashedFractionIsShownAsRecipesWriteIt() throws {
    let question = try Self.question(
      part: #"{ "text": "大さじ", "reading": "おおさじ" }, { "number": "n", "denominator": "d", "style": "slash" }"#,
      answer: #"{ "value": "n", "denominator": "d", "style": "slash" }"#, value: 1,
      extra: #", "d": { "range": { "min": 2, "max": 2 } }"#)
    #expect(question.display == "大さじ1/2")
    #expect(question.kanjiDisplay == "大さじ二分の一")
    #expect(question.reading.standard == "おおさじにぶんのいち")
    #expect(question.answer.display == "1/2")
    #expect(AnswerChecker.check("2分の1", against: question, skill: .reading).isCorrect)
    // Not reduced or expanded: the drill is reading what is written.
    #expect(!AnswerChecker.check("2/4", against: question, skill: .reading).isCorrect)
  }

  // MARK: The 24-hour clock

  static let times: [(Int64, String, String, [String])] = [
    (16 * 60, "16:00", "十六時", ["じゅうろくじ"]),
    (16 * 60 + 5, "16:05", "十六時五分", ["じゅうろくじごふん"]),
    (4 * 60 + 30, "4:30", "四時三十分", ["よじはん", "よじさんじゅっぷん", "よじさんじっぷん"]),
    (15, "0:15", "〇時十五分", ["れいじじゅうごふん", "ぜろじじゅうごふん"]),
    (23 * 60 + 59, "23:59", "二十三時五十九分", ["にじゅうさんじごじゅうきゅうふん"]),
    (9 * 60 + 10, "9:10", "九時十分", ["くじじゅっぷん", "くじじっぷん"]),
  ]

  @Test(arguments: times)
  func aTimeIsShownAsATimetableShowsIt(_ minutes: Int64, _ display: String, _ kanji: String, _ readings: [String])
    throws
  {
    let question = try Self.question(
      part: #"{ "clock": "n" }"#, answer: #"{ "value": "n", "style": "clock" }"#, value: minutes)
    #expect(question.display == display)
    #expect(question.kanjiDisplay == kanji)
    #expect(question.reading.standard == readings[0])
    for reading in readings {
      #expect(AnswerChecker.check(reading, against: question, skill: .kana).isCorrect, "\(reading)")
    }
    #expect(question.answer.display == display)
    #expect(AnswerChecker.check(display, against: question, skill: .listening).isCorrect)
  }

  @Test func aTimeIsTypedAsAClockShowsItOrAsItIsSaid() throws {
    let question = try Self.question(
      part: #"{ "clock": "n" }"#, answer: #"{ "value": "n", "style": "clock" }"#, value: 16 * 60 + 30)
    for typed in ["16:30", "16：30", "16時30分", "16時半", "１６:３０"] {
      #expect(AnswerChecker.check(typed, against: question, skill: .listening).isCorrect, "\(typed)")
    }
    for typed in ["16:3", "4:30", "16", "16時", "1630", "16:300"] {
      #expect(!AnswerChecker.check(typed, against: question, skill: .listening).isCorrect, "\(typed)")
    }
  }

  // MARK: What lint says

  static let misuses: [(String, String, String)] = [
    (#"{ "number": "n", "decimals": 1 }"#, #"{ "value": "n" }"#, "answer-shape"),
    (#"{ "number": "n", "denominator": "2" }"#, #"{ "value": "n" }"#, "answer-shape"),
    (#"{ "clock": "n" }"#, #"{ "value": "n" }"#, "answer-shape"),
    (#"{ "number": "n" }"#, #"{ "value": "n", "decimals": 1 }"#, "answer-shape"),
    (#"{ "number": "n", "decimals": 9 }"#, #"{ "value": "n" }"#, "invalid-value"),
    (#"{ "number": "n", "decimals": 1, "denominator": "2" }"#, #"{ "value": "n", "decimals": 1 }"#, "conflicting-keys"),
    (#"{ "number": "n", "style": "slash" }"#, #"{ "value": "n" }"#, "invalid-value"),
    (#"{ "number": "n", "decimals": 1, "style": "digits" }"#, #"{ "value": "n" }"#, "invalid-value"),
    (#"{ "number": "n", "denominator": "m" }"#, #"{ "value": "n", "denominator": "m" }"#, "undefined-variable"),
    (#"{ "clock": "n", "counter": "分" }"#, #"{ "value": "n", "style": "clock" }"#, "unknown-key"),
    (#"{ "number": "n", "counter": "月" }"#, #"{ "value": "n" }"#, "unreadable-value"),
    (#"{ "number": "n", "denominator": "n - n" }"#, #"{ "value": "n", "denominator": "n - n" }"#, "unreadable-value"),
    (#"{ "clock": "n * 1000" }"#, #"{ "value": "n * 1000", "style": "clock" }"#, "unreadable-value"),
    (#"{ "number": "n", "counter": "つ", "decimals": 1 }"#, #"{ "value": "n", "decimals": 1 }"#, "unreadable-value"),
  ]

  @Test(arguments: misuses)
  func misuseIsDiagnosed(_ part: String, _ answer: String, _ rule: String) {
    let topic = """
      { "id": "t", "title": "T", "description": "T.", "category": "number", "skills": ["listening"],
        "variables": { "n": { "range": { "min": 0, "max": 12 } } },
        "question": { "parts": [\(part)], "answer": \(answer) } }
      """
    let compilation = PackFixtures.compile(PackFixtures.pack(topic: topic))
    #expect(
      compilation.diagnostics.contains { $0.rule == rule && $0.severity == .error },
      "\(compilation.diagnostics.map { "\($0.rule): \($0.message)" })")
    #expect(compilation.topics.isEmpty)
  }
}
