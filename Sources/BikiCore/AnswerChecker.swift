import BikiJapanese

/// Whether typed input answers a question, after normalising what learners really type:
/// full-width digits, separators, ¥ and 円 or the counter, kanji numerals; for the kana skill,
/// katakana and long-vowel marks.
package enum AnswerChecker {
  package static func check(_ input: String, against question: Question, skill: Skill) -> Verdict {
    let correct =
      switch skill {
      case .listening, .reading: numericValue(of: input, answer: question.answer) == question.answer.value
      case .kana: question.reading.acceptsTyped(input)
      case .counter: question.counted.map { countedPhraseMatches(input, $0) } ?? question.reading.acceptsTyped(input)
      }
    return Verdict(isCorrect: correct, expected: question.expected(for: skill))
  }

  /// Whether the input says the count with a counter the thing takes: in digits or kanji with
  /// the counter written any of its ways (5本, 五本, ５本), as a whole form (十 for 10 with つ, and
  /// then never 10つ), or in kana (ごほん, ゴホン).
  static func countedPhraseMatches(_ input: String, _ counted: CountedThing) -> Bool {
    let text = input.filter { !$0.isWhitespace }
    for phrase in counted.phrases {
      if text == phrase.display || text == phrase.kanjiDisplay || phrase.reading.acceptsTyped(text) { return true }
      // A count written whole (十 for 10 with つ) is never written with the counter: 10つ is wrong.
      guard phrase.symbols.contains(where: { !$0.isEmpty && phrase.display.hasSuffix($0) }) else { continue }
      for symbol in phrase.symbols where !symbol.isEmpty && text.hasSuffix(symbol) {
        if let value = KanjiNumeral.parse(text.dropLast(symbol.count)), value == UInt128(clamping: counted.count) { return true }
      }
    }
    return false
  }

  /// Every way of writing yen: an amount may be typed ¥1,500, ￥1500 or 1500円, whatever the
  /// source of the topic (a pack or a plugin) shows.
  static let currency = ["¥", "￥", "円"]

  /// The number typed, ignoring spaces and any accepted prefix or postfix; nil if none.
  package static func numericValue(of input: String, answer: Answer) -> Int64? {
    var text = Substring(input.filter { !$0.isWhitespace })
    var affixes = [answer.prefix, answer.postfix] + answer.acceptedAffixes
    if affixes.contains(where: currency.contains) { affixes += currency }
    affixes = affixes.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    if let prefix = affixes.first(where: { text.hasPrefix($0) }) { text = text.dropFirst(prefix.count) }
    if let postfix = affixes.first(where: { text.hasSuffix($0) }) { text = text.dropLast(postfix.count) }
    guard let value = KanjiNumeral.parse(text), value <= UInt128(Int64.max) else { return nil }
    return Int64(value)
  }
}

package struct Verdict: Hashable, Sendable, Codable {
  package var isCorrect: Bool
  /// The accepted answer, as shown to the learner after a miss.
  package var expected: String
}
