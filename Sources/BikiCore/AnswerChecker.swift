import BikiJapanese

/// Whether typed input answers a question, after normalising what learners really type:
/// full-width digits, separators, ¥ and 円 or the counter, kanji numerals; for the kana skill,
/// katakana and long-vowel marks.
package enum AnswerChecker {
  /// `strict`: a reading accepted but uncommon (じっぷん) is refused, naming the usual one.
  package static func check(_ input: String, against question: Question, skill: Skill, strict: Bool = false)
    -> Verdict
  {
    let verdict = check(input, against: question, skill: skill)
    guard verdict.isUncommon, strict, let usual = verdict.standard else { return verdict }
    return Verdict(
      isCorrect: false, expected: verdict.expected,
      hint: "\(input.filter { !$0.isWhitespace }) is uncommon, and this quiz is strict: the usual reading is \(usual).")
  }

  /// A reading typed in romaji (gohon, roppon, juuyokka) is judged as the kana it spells, and
  /// the verdict says which kana that was; romaji Biki cannot read is said to be so.
  static func check(_ input: String, against question: Question, skill: Skill) -> Verdict {
    guard skill == .kana || skill == .counter, hasLatinLetter(input) else { return judge(input, question, skill) }
    guard let forms = Romaji.kana(input.filter { !$0.isWhitespace }), let first = forms.first else {
      // Not read at all, so not judged: a typo in romaji is no wrong reading.
      var unread = Verdict(
        isCorrect: false, expected: question.expected(for: skill),
        hint:
          "Type the reading in kana or in romaji (gohon, roppon, juuyokka); \"\(input.filter { !$0.isWhitespace })\" is not romaji Biki reads."
      )
      unread.isRead = false
      return unread
    }
    var missed: Verdict?
    for form in forms {
      var verdict = judge(form, question, skill)
      verdict.readAs = form
      if verdict.isCorrect { return verdict }
      missed = missed ?? verdict
    }
    var verdict = missed ?? judge(first, question, skill)
    verdict.hint = "You typed \(first)."
    return verdict
  }

  package static func hasLatinLetter(_ input: String) -> Bool {
    input.unicodeScalars.contains { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
  }

  private static func judge(_ input: String, _ question: Question, _ skill: Skill) -> Verdict {
    let expected = question.expected(for: skill)
    switch skill {
    case .listening, .reading:
      // The reading skill shows kanji and asks for the number: the kanji typed back is a copy,
      // not an answer (八百六十 for 八百六十). Digits are the answer; kanji stay fine where the
      // prompt shows none (listening, or a kanji display in digits).
      if skill == .reading, containsKanjiNumeral(question.kanjiDisplay), containsKanjiDigits(input) {
        return Verdict(
          isCorrect: false, expected: expected,
          hint: "Type the number in digits (\(question.answer.display)), not the kanji shown.")
      }
      guard accepts(input, question.answer) || accepts(withoutShownWords(input, question), question.answer) else {
        // 12kg for 11.5kg is a wrong number with its unit, not romaji.
        return Verdict(
          isCorrect: false, expected: expected, hint: romajiHint(String(unwrapped(input, question.answer)), kana: false)
        )
      }
      return Verdict(isCorrect: true, expected: expected)
    case .kana:
      // The counted phrase alone is an answer too: はっぱい for お茶8杯 (おちゃはっぱい).
      guard
        let reading = [question.reading, question.phraseReading].compactMap({ $0 }).first(where: {
          $0.acceptsTyped(input)
        })
      else {
        return Verdict(isCorrect: false, expected: expected, hint: romajiHint(input, kana: true))
      }
      return Verdict(
        isCorrect: true, expected: expected, matched: reading, standard: standard(of: reading, unlike: input),
        isUncommon: reading.isUncommon(typed: input))
    case .counter:
      guard let counted = question.counted else {
        guard question.reading.acceptsTyped(input) else {
          return Verdict(isCorrect: false, expected: expected, hint: romajiHint(input, kana: true))
        }
        return Verdict(
          isCorrect: true, expected: expected, matched: question.reading,
          standard: standard(of: question.reading, unlike: input), isUncommon: question.reading.isUncommon(typed: input)
        )
      }
      guard let phrase = countedPhrase(matching: input, counted) else {
        return Verdict(isCorrect: false, expected: expected, hint: romajiHint(input, kana: true))
      }
      // The feedback follows the counter the learner chose: 3羽 for うさぎ is さんわ, not さんびき.
      return Verdict(
        isCorrect: true, expected: expected, matched: phrase.reading,
        standard: standard(of: phrase.reading, unlike: input), isUncommon: phrase.reading.isUncommon(typed: input))
    }
  }

  /// The standard reading, when the kana typed is right but another form (じっぽん for じゅっぽん):
  /// what a teacher would add after "right".
  static func standard(of reading: Reading, unlike input: String) -> String? {
    let typed = KanaText.normalized(input.filter { !$0.isWhitespace })
    guard KanaText.isKana(typed), !Reading(reading.standard).acceptsTyped(typed) else { return nil }
    return reading.standard
  }

  /// A hint for an answer in Latin letters (romaji, or a number spelled in English).
  static func romajiHint(_ input: String, kana: Bool) -> String? {
    guard input.unicodeScalars.contains(where: { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }) else {
      return nil
    }
    return kana ? "Type the reading in kana (hiragana or katakana), not romaji." : "Type the number in digits."
  }

  /// Whether `text` spells a number in kanji digits (八百六十, 一兆): a copy of the reading
  /// skill's prompt. Digits with 万, 億, 兆 or 京 (1兆, 266万5000) are how newspapers write
  /// numbers, and an answer.
  static func containsKanjiDigits(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      containsKanjiNumeral(String($0)) && !["万", "億", "兆", "京"].contains($0)
    }
  }

  /// The input without the words the question shows around its number (発 in 17:35発, 体温 in
  /// 体温38.6度): a learner who types the display's words back has typed the number.
  static func withoutShownWords(_ input: String, _ question: Question) -> String {
    var text = Substring(input.filter { !$0.isWhitespace })
    // What is typed around the number anyway (円, 本) is the answer's own to take, once.
    let answer = question.answer
    let affixes = Set([answer.prefix, answer.postfix] + answer.acceptedAffixes + currency)
    for display in [question.display, question.kanjiDisplay] {
      let words = display.split(whereSeparator: { $0.unicodeScalars.contains(where: KanjiNumeral.isPartOfNumber) })
        .filter { !affixes.contains(String($0)) }
      guard let first = words.first, let last = words.last else { continue }
      if display.hasPrefix(first), text.hasPrefix(first), text.count > first.count {
        text = text.dropFirst(first.count)
      }
      if display.hasSuffix(last), text.hasSuffix(last), text.count > last.count { text = text.dropLast(last.count) }
    }
    return String(text)
  }

  static func containsKanjiNumeral(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      KanjiNumeral.isPartOfNumber($0)
        && !(("0"..."9").contains($0) || ("０"..."９").contains($0) || $0 == "," || $0 == "，")
    }
  }

  /// The phrase (the count with one of the thing's counters) the input says, if any: in digits
  /// or kanji with the counter written any of its ways (5本, 五本, ５本), as a whole form (十 for
  /// 10 with つ, and then never 10つ), or in kana (ごほん, ゴホン).
  static func countedPhrase(matching input: String, _ counted: CountedThing) -> CountedPhrase? {
    let text = input.filter { !$0.isWhitespace }
    for phrase in counted.phrases {
      if text == phrase.display || text == phrase.kanjiDisplay || phrase.reading.acceptsTyped(text) { return phrase }
      // A count written whole (十 for 10 with つ) is never written with the counter: 10つ is wrong.
      guard phrase.symbols.contains(where: { !$0.isEmpty && phrase.display.hasSuffix($0) }) else { continue }
      for symbol in phrase.symbols where !symbol.isEmpty && text.hasSuffix(symbol) {
        if let value = KanjiNumeral.parse(text.dropLast(symbol.count)), value == UInt128(clamping: counted.count) {
          return phrase
        }
      }
    }
    return nil
  }

  /// Every way of writing yen: an amount may be typed ¥1,500, ￥1500 or 1500円, whatever the
  /// source of the topic (a pack or a plugin) shows.
  /// How yen may be written around an amount: ¥1,500, 1500円, and 1500えん as a learner who
  /// types the reading of 円 writes it.
  static let currency = ["¥", "￥", "円", "えん", "エン"]

  /// Whether `input` is the answer's number, typed any way it is written: digits or kanji,
  /// with or without what is accepted around it; a decimal with more zeros (36.50), a fraction
  /// as 1/3 or 3分の1, a time as 16:05 or 16時5分.
  static func accepts(_ input: String, _ answer: Answer) -> Bool {
    switch answer.shape {
    case .whole:
      return numericValue(of: input, answer: answer) == answer.value
    case .decimal(let places):
      return decimalValue(of: unwrapped(input, answer), places: places) == answer.value
    case .fraction(let denominator, _):
      guard let (numerator, typedDenominator) = fraction(in: unwrapped(input, answer)) else { return false }
      return numerator == answer.value && typedDenominator == denominator
    case .clock:
      return minutes(in: unwrapped(input, answer)) == answer.value
    case .code:
      // Digits said one by one: typed as digits, with or without the leading zeros shown.
      let typed = unwrapped(input, answer)
      guard typed.allSatisfy({ $0.isASCII ? $0.isNumber : ("０"..."９").contains($0) }), !typed.isEmpty else {
        return false
      }
      return KanjiNumeral.parse(typed).map { $0 == UInt128(answer.value.magnitude) } ?? false
    }
  }

  /// The number typed, ignoring spaces and any accepted prefix or postfix; nil if none.
  static func numericValue(of input: String, answer: Answer) -> Int64? {
    var text = unwrapped(input, answer)
    // An hour asked in 時 may be typed as a clock shows it: 16:00 for 16時.
    if answer.postfix == "時", let colon = text.firstIndex(where: { $0 == ":" || $0 == "：" }),
      text[text.index(after: colon)...] == "00"
    {
      text = text[..<colon]
    }
    let negative = minusSigns.first { text.hasPrefix($0) }
    if let negative { text = text.dropFirst(negative.count) }
    guard let value = KanjiNumeral.parse(text), value <= UInt128(Int64.max) else { return nil }
    return negative == nil ? Int64(value) : -Int64(value)
  }

  /// How a number below zero may be typed: -5, −5, －5, マイナス5.
  static let minusSigns = ["-", "−", "－", "マイナス", "まいなす"]

  /// The input without spaces and without any accepted prefix or postfix.
  private static func unwrapped(_ input: String, _ answer: Answer) -> Substring {
    var text = Substring(input.filter { !$0.isWhitespace })
    var affixes = [answer.prefix, answer.postfix] + answer.acceptedAffixes
    if affixes.contains(where: currency.contains) { affixes += currency }
    affixes = affixes.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    if let prefix = affixes.first(where: { text.hasPrefix($0) }) { text = text.dropFirst(prefix.count) }
    if let postfix = affixes.first(where: { text.hasSuffix($0) }) { text = text.dropLast(postfix.count) }
    return text
  }

  /// A decimal typed in digits (36.5, ３６．５, -0.5, or 37 for 37.0) as a whole number of
  /// 10^-places: 365 for 36.5 with one place. Nil when it has more places that are not zeros.
  static func decimalValue(of text: Substring, places: Int) -> Int64? {
    var text = text
    let negative = minusSigns.first { text.hasPrefix($0) }
    if let negative { text = text.dropFirst(negative.count) }
    let point = text.firstIndex { $0 == "." || $0 == "．" }
    guard let whole = KanjiNumeral.parse(text[..<(point ?? text.endIndex)]), whole <= UInt128(Int64.max) else {
      return nil
    }
    var fraction: [Int64] = []
    if let point {
      for character in text[text.index(after: point)...] {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return nil }
        switch scalar.value {
        case 0x30...0x39: fraction.append(Int64(scalar.value - 0x30))
        case 0xFF10...0xFF19: fraction.append(Int64(scalar.value - 0xFF10))
        default: return nil
        }
      }
      guard !fraction.isEmpty else { return nil }
    }
    // Extra places are allowed when they are zeros: 36.50 is 36.5.
    guard fraction.dropFirst(places).allSatisfy({ $0 == 0 }) else { return nil }
    var value = Int64(whole)
    for place in 0..<places {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (next, overflowAdding) = shifted.addingReportingOverflow(place < fraction.count ? fraction[place] : 0)
      guard !overflow, !overflowAdding else { return nil }
      value = next
    }
    return negative == nil ? value : -value
  }

  /// A fraction typed as 1/3, １／３, 3分の1 or 三分の一: (numerator, denominator).
  static func fraction(in text: Substring) -> (Int64, Int64)? {
    let numerator: Substring
    let denominator: Substring
    if let slash = text.firstIndex(where: { $0 == "/" || $0 == "／" }) {
      (numerator, denominator) = (text[..<slash], text[text.index(after: slash)...])
    } else if let range = text.firstRange(of: "分の") {
      (numerator, denominator) = (text[range.upperBound...], text[..<range.lowerBound])
    } else {
      return nil
    }
    guard let top = KanjiNumeral.parse(numerator), let bottom = KanjiNumeral.parse(denominator),
      top <= UInt128(Int64.max), bottom <= UInt128(Int64.max)
    else { return nil }
    return (Int64(top), Int64(bottom))
  }

  /// A time typed as a clock shows it (16:05) or as it is said (16時5分, 16時05分, 16時, 16時半):
  /// minutes after midnight.
  static func minutes(in text: Substring) -> Int64? {
    let hourText: Substring
    let minuteText: Substring
    if let colon = text.firstIndex(where: { $0 == ":" || $0 == "：" }) {
      (hourText, minuteText) = (text[..<colon], text[text.index(after: colon)...])
      guard minuteText.count == 2 else { return nil }
    } else if let mark = text.firstIndex(of: "時") {
      hourText = text[..<mark]
      let rest = text[text.index(after: mark)...]
      if rest.isEmpty {
        minuteText = "0"
      } else if rest == "半" {
        minuteText = "30"
      } else {
        guard rest.hasSuffix("分") else { return nil }
        minuteText = rest.dropLast()
      }
    } else {
      return nil
    }
    guard let hour = KanjiNumeral.parse(hourText), let minute = KanjiNumeral.parse(minuteText), hour <= 24, minute <= 59
    else { return nil }
    return Int64(hour) * 60 + Int64(minute)
  }
}

package struct Verdict: Hashable, Sendable {
  package var isCorrect: Bool
  /// The accepted answer, as shown to the learner after a miss.
  package var expected: String
  /// After a miss: how to answer (digits, not the kanji shown; kana, not romaji).
  var hint: String?
  /// After a right answer in kana: the reading it matched (of the counter the learner chose).
  var matched: Reading?
  /// After a right answer that is not the standard form (じっぽん): the standard one (じゅっぽん).
  var standard: String?
  /// After a right answer in a form accepted but uncommon (じっぽん, しちにん).
  var isUncommon = false
  /// The kana an answer typed in romaji was read as (ごほん for gohon).
  var readAs: String?
  /// False for input that could not be read as an answer at all (romaji that spells nothing):
  /// the learner is told, and no attempt is counted.
  var isRead = true

  package init(
    isCorrect: Bool, expected: String, hint: String? = nil, matched: Reading? = nil, standard: String? = nil,
    isUncommon: Bool = false
  ) {
    self.isCorrect = isCorrect
    self.expected = expected
    self.hint = hint
    self.matched = matched
    self.standard = standard
    self.isUncommon = isUncommon
  }
}
