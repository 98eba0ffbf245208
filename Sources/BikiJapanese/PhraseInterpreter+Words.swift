/// The words of `PhraseWords` in a phrase: where each may stand, and the numbers they let stand
/// without a counter.
extension PhraseInterpreter {
  /// Whether the bare number at `index` is read as said because of the words around it: after
  /// a word whose number stands alone (震度5, A4), or before or after a range or score (3〜5人,
  /// 1対0), or before a word that follows numbers (20以上).
  static func standsBare(at index: Int, in tokens: [PhraseToken]) -> Bool {
    if index > 0, case .word(let word) = tokens[index - 1], let place = PhraseWords.table[word]?.place {
      switch place {
      case .before(let bare?): if bare.upperBound > 0 { return true }
      case .between: return true
      case .before(nil), .after, .around: break
      }
    }
    // 9秒58: hundredths after seconds, as a race's time is written.
    if index > 0, index + 1 == tokens.count, case .number(_, "秒") = tokens[index - 1] { return true }
    if index + 1 < tokens.count, case .word(let word) = tokens[index + 1], let place = PhraseWords.table[word]?.place {
      switch place {
      case .between, .after, .around: return true
      case .before: break
      }
    }
    return false
  }

  /// The counter after the end of a range that starts at `index` with a bare number (3〜5人:
  /// 人), which the start may be read with; nil for a score (1対0) or a range with no counter.
  func rangeCounter(after index: Int, in tokens: [PhraseToken]) -> String? {
    guard index + 2 < tokens.count, case .word(let word) = tokens[index + 1], word != "対",
      PhraseWords.table[word]?.place == .between, case .number(_, let symbol?) = tokens[index + 2],
      symbol != "半" && symbol != "と"
    else { return nil }
    return symbol
  }

  /// A word's reading, once its place in the phrase is checked: 税込 before a number, 以上 after
  /// one, 〜 between two, 前 and 後 after a time or a span.
  func wordReading(_ word: String, at index: Int, in tokens: [PhraseToken]) throws(ReadingError) -> String {
    guard let entry = PhraseWords.table[word] else { throw fail("'\(word)' is not a word Biki reads") }
    let previous = index > 0 ? tokens[index - 1] : nil
    let next = index + 1 < tokens.count ? tokens[index + 1] : nil
    switch entry.place {
    case .around:
      guard previous?.isNumeric == true || next?.isNumeric == true || next?.isPrefix == true else {
        throw fail("\(word) stands next to a number, before it or after it")
      }
    case .before(let bare):
      if case .word(let following)? = next, case .before? = PhraseWords.table[following]?.place {
        break  // 英検準1級: a word before a word before the number.
      }
      guard let next, next.isNumeric || next.isPrefix else {
        throw fail("\(word) is followed by a number, as in \(word)\(bare == nil ? "3" + Self.example(word) : "5")")
      }
      if let bare, bare.upperBound < UInt64.max {
        // A scale or a size: a whole number of its own, with no counter after it.
        guard case .number(let value, nil) = next, bare.contains(UInt64(clamping: value)) else {
          throw fail(
            "\(word) is followed by a number from \(bare.lowerBound) to \(bare.upperBound), with nothing after it")
        }
      } else if bare != nil {
        // A measure with no unit (視力1.5, PM2.5): a number, whole or decimal, and nothing after it.
        switch next {
        case .number(_, nil), .decimal(_, _, nil, nil): break
        default: throw fail("\(word) is followed by a number with nothing after it, as in \(word)5")
        }
      } else if bare == nil, case .number(_, nil) = next, !Self.standsBare(at: index + 1, in: tokens) {
        throw fail("\(word) is followed by a number and what it counts, as in \(word)3\(Self.example(word))")
      }
    case .after(let timeOnly):
      guard let previous, previous.isNumeric else { throw fail("\(word) follows a number, as in 20歳\(word)") }
      if timeOnly, !isTime(previous) { throw fail("\(word) follows a time or a span, as in 5分\(word) or 3日\(word)") }
      // 2Lサイズ is a photo's size, not two litres: a size follows a size, not a unit.
      if word == "サイズ", isUnit(previous) {
        throw fail("サイズ after a unit is not read: \(word) follows a size, as in A4サイズ")
      }
      if word == "強" || word == "弱", index >= 2, case .word("震度") = tokens[index - 2],
        case .number(let value, nil) = previous, value != 5 && value != 6
      {
        throw fail("震度 splits only 5 and 6 into 弱 and 強")
      }
    case .between:
      guard let previous, previous.isNumeric, let next, next.isNumeric || next.isPrefix else {
        throw fail("\(word) joins two numbers, as in 3\(word)5人")
      }
    }
    return entry.reading
  }

  private func isUnit(_ token: PhraseToken) -> Bool {
    switch token {
    case .number(_, let symbol?), .decimal(_, _, _, let symbol?), .fraction(_, _, _, let symbol?):
      return catalog.counters(symbol: symbol).contains { $0.kind == .unit }
    default: return false
    }
  }

  private func isTime(_ token: PhraseToken) -> Bool {
    switch token {
    case .clock, .number(_, "半"): return true
    case .number(_, let symbol?), .decimal(_, _, _, let symbol?), .fraction(_, _, _, let symbol?):
      return catalog.counters(symbol: symbol).contains(where: PhraseWords.isTime)
    default: return false
    }
  }

  /// A counter that goes with a word, for messages.
  private static func example(_ word: String) -> String {
    switch word {
    case "身長": "センチ"
    case "体重": "キロ"
    case "徒歩": "分"
    case "気温", "最高気温", "最低気温", "体温": "度"
    case "英検", "漢検", "準": "級"
    case "打率": "割"
    case "台風": "号"
    case "湿度", "降水確率": "%"
    default: "円"
    }
  }

  /// A room number as written (108号室 ひゃくはちごうしつ), or digit by digit with 0 as まる
  /// (いちまるはちごうしつ), as rooms with a 0 in them are also said.
  func roomReading(_ value: UInt128, _ reading: Reading) -> Reading {
    let digits = String(value)
    guard (3...4).contains(digits.count), digits.dropFirst().contains("0") else { return reading }
    let said = digits.compactMap { $0.wholeNumberValue }.map { $0 == 0 ? "まる" : EverydayNumbers.spokenDigits[$0][0] }
    return Reading(alternatives: reading.all() + [said.joined() + "ごうしつ"])
  }
}

extension PhraseToken {
  /// A word before a number: a sign, an era, 午前 or 午後, ¥.
  var isPrefix: Bool {
    if case .prefix = self { return true }
    return false
  }

  /// A number of any shape, which words before and after numbers may stand next to.
  var isNumeric: Bool {
    switch self {
    case .number(_, let symbol): symbol != "と"
    case .decimal, .fraction, .clock, .code, .firstYear: true
    case .prefix, .word: false
    }
  }
}
