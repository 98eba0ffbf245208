/// Parses the ways a number is written in Japanese text into its value:
/// kanji numerals (三百五十, 千五百, 一億二千万), kanji digits (二〇二四), Arabic and full-width
/// digits (1500, １５００), grouped digits (1,500, 1，500) and mixtures (3万5千, 1億2000万).
package enum KanjiNumeral {
  /// Whether a character can be part of a written number: digits of any width, kanji
  /// numerals and their units, and thousands separators.
  package static func isPartOfNumber(_ character: Character) -> Bool {
    scalar(of: character).map(isPartOfNumber) ?? false
  }

  static let digits: [Character] = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"]

  /// The value of `text`, or nil when it is not a well-formed number (or exceeds 10²⁰ − 1).
  package static func parse<S: StringProtocol>(_ text: S) -> UInt128? {
    parse(scalars: text.unicodeScalars)
  }

  /// The same, over scalars: every numeral is one scalar, and a scalar that is not one (a
  /// combining mark after a digit, say) makes the text no number.
  package static func parse(scalars: some Sequence<Unicode.Scalar>) -> UInt128? {
    var parser = Parser()
    for scalar in scalars {
      guard parser.consume(scalar) else { return nil }
    }
    return parser.finish()
  }

  /// The value of a single digit in any script, or nil.
  // Every numeral is one Unicode scalar, so these switch on its value: comparing Characters
  // would normalise each one, and they run for every character of every answer and display.

  static func digitValue(_ character: Character) -> UInt128? { scalar(of: character).flatMap(digitValue) }

  static func digitValue(_ scalar: Unicode.Scalar) -> UInt128? {
    switch scalar.value {
    case 0x30...0x39: UInt128(scalar.value - 0x30)  // 0–9
    case 0xFF10...0xFF19: UInt128(scalar.value - 0xFF10)  // ０–９
    case 0x3007, 0x96F6: 0  // 〇 零
    case 0x4E00, 0x58F1: 1  // 一 壱
    case 0x4E8C, 0x5F10: 2  // 二 弐
    case 0x4E09, 0x53C2: 3  // 三 参
    case 0x56DB: 4  // 四
    case 0x4E94: 5  // 五
    case 0x516D: 6  // 六
    case 0x4E03: 7  // 七
    case 0x516B: 8  // 八
    case 0x4E5D: 9  // 九
    default: nil
    }
  }

  static func smallUnit(_ character: Character) -> UInt128? { scalar(of: character).flatMap(smallUnit) }

  static func smallUnit(_ scalar: Unicode.Scalar) -> UInt128? {
    switch scalar.value {
    case 0x5341, 0x62FE: 10  // 十 拾
    case 0x767E: 100  // 百
    case 0x5343: 1000  // 千
    default: nil
    }
  }

  static func largeUnit(_ character: Character) -> UInt128? { scalar(of: character).flatMap(largeUnit) }

  static func largeUnit(_ scalar: Unicode.Scalar) -> UInt128? {
    switch scalar.value {
    case 0x4E07, 0x842C: 10_000  // 万 萬
    case 0x5104: 100_000_000  // 億
    case 0x5146: 1_000_000_000_000  // 兆
    case 0x4EAC: 10_000_000_000_000_000  // 京
    default: nil
    }
  }

  /// Whether a scalar can be part of a written number (see `isPartOfNumber`).
  package static func isPartOfNumber(_ scalar: Unicode.Scalar) -> Bool {
    digitValue(scalar) != nil || smallUnit(scalar) != nil || largeUnit(scalar) != nil || scalar == "," || scalar == "，"
  }

  /// The character's scalar, when it has exactly one.
  private static func scalar(of character: Character) -> Unicode.Scalar? {
    var scalars = character.unicodeScalars.makeIterator()
    guard let first = scalars.next(), scalars.next() == nil else { return nil }
    return first
  }

  /// A left-to-right reader: digit runs, 十/百/千 within a group, 万/億/兆/京 closing a group.
  private struct Parser {
    var total: UInt128 = 0
    var group: UInt128 = 0
    var run: UInt128?
    var runLength = 0
    var runHasSeparator = false
    var digitsSinceSeparator = 0
    var lastSmallUnit: UInt128 = 10_000
    var lastLargeUnit: UInt128 = .max
    var endedWithSeparator = false

    mutating func consume(_ character: Unicode.Scalar) -> Bool {
      if let digit = KanjiNumeral.digitValue(character) {
        runLength += 1
        digitsSinceSeparator += 1
        guard runLength <= 21 else { return false }
        run = (run ?? 0) * 10 + digit
        endedWithSeparator = false
        return true
      }
      if character == "," || character == "，" {
        // Separators group Arabic digits by three: 1,500 and 12,345,678.
        guard run != nil, !endedWithSeparator, digitsSinceSeparator <= 3,
          !runHasSeparator || digitsSinceSeparator == 3
        else { return false }
        runHasSeparator = true
        digitsSinceSeparator = 0
        endedWithSeparator = true
        return true
      }
      if let unit = KanjiNumeral.smallUnit(character) {
        guard closeRun(), unit < lastSmallUnit else { return false }
        let multiplier = run ?? 1
        guard multiplier >= 1, multiplier <= 9 else { return false }
        group += multiplier * unit
        lastSmallUnit = unit
        resetRun()
        return true
      }
      if let unit = KanjiNumeral.largeUnit(character) {
        guard closeRun(), unit < lastLargeUnit else { return false }
        let value = group + (run ?? 0)
        guard value > 0, value < 10_000 else { return false }
        total += value * unit
        group = 0
        lastSmallUnit = 10_000
        lastLargeUnit = unit
        resetRun()
        return true
      }
      return false
    }

    /// Checks the digit run just read fits where it stands.
    mutating func closeRun() -> Bool {
      if endedWithSeparator { return false }
      if runHasSeparator && digitsSinceSeparator != 3 { return false }
      if let run, lastSmallUnit < 10_000, run >= lastSmallUnit { return false }
      return true
    }

    mutating func resetRun() {
      run = nil
      runLength = 0
      runHasSeparator = false
      digitsSinceSeparator = 0
    }

    mutating func finish() -> UInt128? {
      guard closeRun() else { return nil }
      if run == nil && group == 0 && total == 0 && lastLargeUnit == .max && lastSmallUnit == 10_000 {
        return nil
      }
      if let run, lastLargeUnit != .max, run >= 10_000, group == 0 { return nil }
      let value = total + group + (run ?? 0)
      return value <= JapaneseNumber.maximum ? value : nil
    }
  }
}
