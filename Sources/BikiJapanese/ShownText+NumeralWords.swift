/// Words with numerals in them: 東京駅, 京都, 千葉, 四国, 一緒に, 百貨店, 八百屋, 万年筆. A kanji numeral
/// may stand in a declared word when it is part of the word, never when the word hides a
/// number a learner reads as one. Biki tells them apart by where the numeral stands and by the
/// word's own reading:
///
/// - digits (9, ９) and numerals of other scripts (Ⅸ, ⑨, 玖) always show a number: refused;
/// - a numeral must be joined to the word, a kanji or kana beside it (東京, 一緒): one standing
///   apart, or a word of numerals alone (三, 二十), is a number: refused;
/// - numerals with a counter or unit Biki knows that ends the word (三本, 十九本, 十分, 二十歳)
///   are a count, shown where Biki reads it: refused;
/// - numerals with a counter inside a longer word (万年筆, 六本木, 三日月) are taken, unless the
///   reading reads them as a number otherwise than Biki does: 三本松 read "さんほんまつ" holds
///   さん for 三 but not さんぼん for 三本, so it is refused;
/// - numerals with no counter after them are part of the word (四国 しこく, 八王子 はちおうじ,
///   千葉 ちば, 東京 とうきょう, 八百屋 やおや, 一緒 いっしょ): taken.
///
/// What no rule can see stays the author's, as any word's reading is.
extension ShownText {
  /// Why the numerals in `word` are not part of it, nil when they are (or it has none).
  static func numeralProblem(in word: Word) -> Problem? {
    let scalars = Array(word.text.unicodeScalars)
    guard let firstNumeral = scalars.firstIndex(where: { showsNumber($0) && $0 != "元" }) else { return nil }
    // Digits and numerals of other scripts are a number wherever they stand.
    if let shown = scalars.first(where: { showsNumber($0) && $0 != "元" && !isKanjiNumeral($0) }) {
      return .numeralInWord(word: word.text, numeral: shown)
    }
    guard !scalars.allSatisfy(isKanjiNumeral) else { return .numeralInWord(word: word.text, numeral: scalars[0]) }
    let reading = KanaText.normalized(word.reading)
    var index = firstNumeral
    while index < scalars.count {
      guard isKanjiNumeral(scalars[index]) else {
        index += 1
        continue
      }
      var end = index
      while end < scalars.count, isKanjiNumeral(scalars[end]) { end += 1 }
      if let problem = runProblem(scalars, index..<end, word: word, reading: reading) { return problem }
      index = end
    }
    return nil
  }

  /// 〇 一 … 九, 十 百 千, 万 億 兆 京, 零.
  static func isKanjiNumeral(_ scalar: Unicode.Scalar) -> Bool { kanjiNumerals.contains(scalar) }

  private static let kanjiNumerals = Set("〇一二三四五六七八九十百千万億兆京零".unicodeScalars)

  private static func runProblem(_ scalars: [Unicode.Scalar], _ run: Range<Int>, word: Word, reading: String)
    -> Problem?
  {
    func isLetter(_ index: Int) -> Bool {
      guard scalars.indices.contains(index) else { return false }
      let value = scalars[index].value
      return (0x3041...0x30FF).contains(value) || (0x4E00...0x9FFF).contains(value) || value == 0x3005
    }
    let numeral = scalars[run.lowerBound]
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars[run])
    // 京 and 万 alone are one of them.
    guard isLetter(run.lowerBound - 1) || isLetter(run.upperBound),
      let value = KanjiNumeral.parse(text) ?? KanjiNumeral.parse("一" + text)
    else {
      return .numeralInWord(word: word.text, numeral: numeral)
    }
    let after = Array(scalars[run.upperBound...])
    guard let symbol = after.withUnsafeBufferPointer({ CounterCatalog.standard.symbolIndex.longestPrefix(of: $0[...]) })
    else { return nil }
    // A count that ends the word is the word.
    guard symbol.length < after.count else { return .numeralInWord(word: word.text, numeral: numeral) }
    let counters = CounterCatalog.standard.counters(symbol: symbol.word)
    let counted = counters.compactMap { try? JapaneseNumber.reading(of: value, with: $0) }
    if counted.contains(where: { $0.all(limit: 16).contains(where: reading.contains) }) { return nil }
    let alone = (try? JapaneseNumber.reading(of: value))?.all(limit: 16) ?? []
    guard alone.contains(where: reading.contains), let said = counted.first?.standard else { return nil }
    return .numberInWordMisread(word: word.text, number: text + symbol.word, reading: said)
  }
}
