/// Parses the ways a number is written in Japanese text into its value:
/// kanji numerals (三百五十, 千五百, 一億二千万), kanji digits (二〇二四), Arabic and full-width
/// digits (1500, １５００), grouped digits (1,500, 1，500) and mixtures (3万5千, 1億2000万).
public enum KanjiNumeral {
  /// Whether a character can be part of a written number: digits of any width, kanji
  /// numerals and their units, and thousands separators.
  public static func isPartOfNumber(_ character: Character) -> Bool {
    digitValue(character) != nil || smallUnit(character) != nil || largeUnit(character) != nil || character == "," || character == "，"
  }

  static let digits: [Character] = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"]

  /// The value of `text`, or nil when it is not a well-formed number (or exceeds 10²⁰ − 1).
  public static func parse<S: StringProtocol>(_ text: S) -> UInt128? {
    var parser = Parser()
    for character in text {
      guard parser.consume(character) else { return nil }
    }
    return parser.finish()
  }

  /// The value of a single digit in any script, or nil.
  static func digitValue(_ character: Character) -> UInt128? {
    switch character {
    case "0"..."9", "０"..."９": character.wholeNumberValue.map { UInt128($0) }
    case "〇", "零": 0
    case "一", "壱": 1
    case "二", "弐": 2
    case "三", "参": 3
    case "四": 4
    case "五": 5
    case "六": 6
    case "七": 7
    case "八": 8
    case "九": 9
    default: nil
    }
  }

  static func smallUnit(_ character: Character) -> UInt128? {
    switch character {
    case "十", "拾": 10
    case "百": 100
    case "千": 1000
    default: nil
    }
  }

  static func largeUnit(_ character: Character) -> UInt128? {
    switch character {
    case "万", "萬": 10_000
    case "億": 100_000_000
    case "兆": 1_000_000_000_000
    case "京": 10_000_000_000_000_000
    default: nil
    }
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

    mutating func consume(_ character: Character) -> Bool {
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
