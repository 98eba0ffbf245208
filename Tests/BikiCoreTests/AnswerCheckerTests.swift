import BikiJapanese
import BikiTestSupport
import Testing

@testable import BikiCore

@Suite struct AnswerCheckerTests {
  let hon = try! NumberPhraseGenerator(range: 8...8, phrasing: .counted(.hon)).question(
    topicID: "counters.hon", index: 0)
  let months = try! NumberPhraseGenerator(range: 3...3, phrasing: .counted(.months)).question(
    topicID: "durations.months", index: 0)

  /// Typing the kanji prompt back (八百六十 for 八百六十) is refused with a hint to type digits;
  /// digits are right, and kanji stay right where the prompt shows none.
  @Test func theReadingSkillRefusesThePromptTypedBack() {
    let hundreds = Question(
      topicID: "numbers.hundreds", seed: 3, display: "860", kanjiDisplay: "八百六十", reading: Reading("はっぴゃくろくじゅう"),
      answer: Answer(value: 860))
    let copied = AnswerChecker.check("八百六十", against: hundreds, skill: .reading)
    #expect(!copied.isCorrect)
    #expect(copied.hint == "Type the number in digits (860), not the kanji shown.")
    #expect(AnswerChecker.check("860", against: hundreds, skill: .reading).isCorrect)
    #expect(AnswerChecker.check("八百六十", against: hundreds, skill: .listening).isCorrect)
    let eraInDigits = Question(
      topicID: "calendar.eras", seed: 1, display: "令和5年", kanjiDisplay: "令和5年", reading: Reading("れいわごねん"),
      answer: Answer(value: 2023, postfix: "年"))
    #expect(AnswerChecker.check("二千二十三年", against: eraInDigits, skill: .reading).isCorrect)
  }

  /// 十 with つ, made by the built-in generator as by a pack: shown 十, answered 10 or とお,
  /// never 10つ.
  @Test func aCountWrittenWholeIsShownWholeAndNeverAnsweredWithItsCounter() throws {
    let ten = try NumberPhraseGenerator(range: 10...10, phrasing: .counted(.tsu)).question(
      topicID: "counters.tsu", index: 0)
    #expect(ten.display == "十" && ten.kanjiDisplay == "十")
    #expect(ten.answer.display == "10")
    #expect(AnswerChecker.check("10", against: ten, skill: .listening).isCorrect)
    #expect(!AnswerChecker.check("10つ", against: ten, skill: .listening).isCorrect)
    #expect(AnswerChecker.check("とお", against: ten, skill: .kana).isCorrect)
  }

  /// Romaji is judged as the kana it spells (happon for 8本), and says which kana that was;
  /// what is not romaji is told so, never read by guess.
  @Test func romajiIsJudgedAsTheKanaItSpells() {
    let right = AnswerChecker.check("happon", against: hon, skill: .kana)
    #expect(right.isCorrect && right.readAs == "はっぽん")
    let wrong = AnswerChecker.check("hachibon", against: hon, skill: .kana)
    #expect(!wrong.isCorrect && wrong.hint == "You typed はちぼん.")
    let unread = AnswerChecker.check("hapqon", against: hon, skill: .kana)
    #expect(!unread.isCorrect && !unread.isRead)
    #expect(
      unread.hint
        == "Type the reading in kana or in romaji (gohon, roppon, juuyokka); \"hapqon\" is not romaji Biki reads.")
    #expect(AnswerChecker.check("はちほん", against: hon, skill: .kana).hint == nil)
    // The number skills still ask for digits.
    #expect(AnswerChecker.check("happon", against: hon, skill: .listening).hint == "Type the number in digits.")
  }

  /// A wrong number typed with its unit (12kg for 11.5kg) is a wrong number, not romaji: no
  /// hint to type digits; letters that are not the unit still get it.
  @Test func aWrongNumberWithItsUnitIsNotTakenForRomaji() {
    let weight = Question(
      topicID: "everyday.weight", seed: 1, display: "11.5kg", kanjiDisplay: "十一・五kg",
      reading: Reading("じゅういってんごきろぐらむ"), answer: Answer(value: 115, postfix: "kg", shape: .decimal(places: 1)))
    let wrong = AnswerChecker.check("12kg", against: weight, skill: .listening)
    #expect(!wrong.isCorrect && wrong.hint == nil)
    #expect(AnswerChecker.check("11.5kg", against: weight, skill: .listening).isCorrect)
    #expect(AnswerChecker.check("twelve", against: weight, skill: .listening).hint == "Type the number in digits.")
  }

  /// A right answer in another form than the standard is right, and the standard is named;
  /// one that is uncommon (じっぽん) is marked so, and refused when strict.
  @Test func aRightAnswerInAnotherFormNamesTheStandard() {
    let ten = try! NumberPhraseGenerator(range: 10...10, phrasing: .counted(.hon)).question(
      topicID: "counters.hon", index: 0)
    #expect(
      AnswerChecker.check("じっぽん", against: ten, skill: .kana)
        == Verdict(
          isCorrect: true, expected: ten.expected(for: .kana), matched: ten.reading, standard: "じゅっぽん",
          isUncommon: true))
    #expect(AnswerChecker.check("じゅっぽん", against: ten, skill: .kana).standard == nil)
    #expect(AnswerChecker.check("ジュッポン", against: ten, skill: .kana).standard == nil)
    let strict = AnswerChecker.check("ジッポン", against: ten, skill: .kana, strict: true)
    #expect(!strict.isCorrect)
    #expect(strict.hint == "ジッポン is uncommon, and this quiz is strict: the usual reading is じゅっぽん.")
    #expect(AnswerChecker.check("じゅっぽん", against: ten, skill: .kana, strict: true).isCorrect)
    // はちほん for 8本 is another usual reading: named, not uncommon, and taken when strict.
    let eight = AnswerChecker.check("はちほん", against: hon, skill: .kana, strict: true)
    #expect(eight.isCorrect && !eight.isUncommon)
  }

  @Test func acceptsTheCounterAfterTheNumber() {
    #expect(AnswerChecker.check("8本", against: hon, skill: .reading).isCorrect)
    #expect(AnswerChecker.check("８", against: hon, skill: .reading).isCorrect)
    #expect(AnswerChecker.check("3か月", against: months, skill: .listening).isCorrect)
    #expect(AnswerChecker.check("3カ月", against: months, skill: .listening).isCorrect)
  }

  @Test(arguments: ["はっぽん", "はちほん", "ハッポン", "ハチホン", "はっ ぽん"])
  func kanaAcceptsEveryStandardReadingInEitherScript(_ input: String) {
    #expect(AnswerChecker.check(input, against: hon, skill: .kana).isCorrect)
  }

  @Test(arguments: ["はちぽん", "はっほん", "8", "8本", "はっぽ"])
  func kanaRefusesWrongReadings(_ input: String) {
    let verdict = AnswerChecker.check(input, against: hon, skill: .kana)
    #expect(!verdict.isCorrect)
    #expect(verdict.expected == "はっぽん|はちほん")
  }

  @Test func kanaAcceptsLongVowelMarks() throws {
    let question = try NumberPhraseGenerator(range: 9...9, phrasing: .number).question(topicID: "n", index: 0)
    #expect(AnswerChecker.check("キュー", against: question, skill: .kana).isCorrect)
    #expect(AnswerChecker.check("く", against: question, skill: .kana).isCorrect)
  }
}

/// Answers as learners type them on phones and old keyboards, and amounts from any source.
@Suite struct AnswerNormalisationTests {
  let hon = try! NumberPhraseGenerator(range: 8...8, phrasing: .counted(.hon)).question(
    topicID: "counters.hon", index: 0)

  @Test(arguments: [
    "ﾊｯﾎﾟﾝ", "ﾊﾁﾎﾝ", "ﾊｯ ﾎﾟﾝ",
    // Sound marks typed apart: combining (U+309A) and spacing (゜, U+309C).
    "はっほ\u{309A}ん", "はっほ゜ん", "ハッホ\u{309A}ン",
  ])
  func halfWidthKatakanaAndSeparateSoundMarksAreAccepted(_ input: String) {
    #expect(AnswerChecker.check(input, against: hon, skill: .kana).isCorrect)
  }

  @Test func halfWidthVoicedKanaCompose() {
    #expect(KanaText.normalized("ｶﾞｷﾞｸﾞｹﾞｺﾞ ｻﾞｼﾞｽﾞｾﾞｿﾞ ﾀﾞﾁﾞﾂﾞﾃﾞﾄﾞ ﾊﾞﾋﾞﾌﾞﾍﾞﾎﾞ ﾊﾟﾋﾟﾌﾟﾍﾟﾎﾟ ｳﾞ ｦﾝｯｬｭｮ") == "がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽゔをんっゃゅょ")
    // A mark after a kana that takes none is left alone.
    #expect(KanaText.normalized("ﾏﾞ") == "ま\u{FF9E}")
    // Found by fuzz-phrase: spaces between a kana and its mark went after the marks had joined,
    // so normalising twice changed the text. Now it joins the first time.
    #expect(KanaText.normalized("ﾎ\n\nﾟ") == "ぽ")
    #expect(KanaText.normalized(KanaText.normalized("ﾎ\n\nﾟ")) == KanaText.normalized("ﾎ\n\nﾟ"))
    // Also found by fuzz-phrase: ー became a vowel after the marks had joined, so a mark after
    // it joined only on a second pass (つｰﾞ → つう + ﾞ, then ゔ).
    #expect(KanaText.normalized("つｰﾞ") == "つゔ")
  }

  /// Normalising twice changes nothing, for every pair of kana, marks, ー and spaces.
  @Test func normalisingTwiceChangesNothing() {
    // え and エ too: found by fuzz-phrase, えエ became ええ and then, on a second pass, えい.
    let alphabet = Array("かはうつあんえけカハウツエケｶﾊｳﾂｴｰー ・\u{3099}\u{309A}゛゜ﾞﾟ1")
    for first in alphabet {
      for second in alphabet {
        for third in alphabet {
          let text = String([first, second, third])
          let once = KanaText.normalized(text)
          #expect(KanaText.normalized(once) == once, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
      }
    }
  }

  /// An amount shown with ¥ (a pack's money topics, the prices plugin) takes every spelling of yen.
  @Test(arguments: ["286", "¥286", "￥286", "286円", "二百八十六円"])
  func anyAmountAcceptsEverySpellingOfYen(_ input: String) {
    let question = Question(
      topicID: "prices.tax-included", seed: 0, display: "¥286", kanjiDisplay: "二百八十六円",
      reading: Reading("にひゃくはちじゅうろくえん"),
      answer: Answer(value: 286, prefix: "¥"))
    #expect(AnswerChecker.check(input, against: question, skill: .listening).isCorrect)
  }

  /// An hour asked in 時 may be typed as a clock shows it.
  @Test func sixteenHundredAnswersSixteenOClock() {
    let answer = Answer(value: 16, postfix: "時")
    #expect(AnswerChecker.numericValue(of: "16:00", answer: answer) == 16)
    #expect(AnswerChecker.numericValue(of: "16時", answer: answer) == 16)
    #expect(AnswerChecker.numericValue(of: "16:30", answer: answer) == nil)
    #expect(AnswerChecker.numericValue(of: "16:00", answer: Answer(value: 16, postfix: "本")) == nil)
  }
}
