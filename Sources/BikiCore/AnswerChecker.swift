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
      }
    return Verdict(isCorrect: correct, expected: question.expected(for: skill))
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
