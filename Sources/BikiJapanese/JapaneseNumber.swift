/// Readings and kanji numerals of integers from 0 to 10²⁰ − 1 (through 京).
public enum JapaneseNumber {
  /// The largest number that can be read: 9999京9999兆9999億9999万9999.
  public static let maximum: UInt128 = NumberWords.limit - 1

  /// The reading of a bare number: 4 → よん|し, 300 → さんびゃく, 1兆 → いっちょう.
  public static func reading(of value: UInt128) throws(ReadingError) -> Reading {
    guard value <= maximum else { throw .tooLarge(String(value)) }
    if value == 0 { return Reading(alternatives: Kana.zero) }
    return NumberWords(value).reading
  }

  /// The reading of a number joined with a unit or counter: 8本 → はっぽん|はちほん.
  public static func reading(of value: UInt128, with counter: Counter) throws(ReadingError) -> Reading {
    guard value <= maximum else { throw .tooLarge(String(value)) }
    if let valid = counter.validValues, value > UInt128(valid.upperBound) || value < UInt128(valid.lowerBound) {
      throw .outOfRange(value, counter: counter.symbol, valid: valid)
    }
    if value == 0 {
      return Reading(alternatives: counter.zeroForms ?? Kana.zero.reversed().map { $0 + counter.reading })
    }
    if !counter.wholeForms.isEmpty, value <= UInt128(UInt64.max), let whole = counter.wholeForms[UInt64(value)] {
      return Reading(parts: [ReadingSegment(whole)])
    }
    return NumberWords(value).joined(with: counter)
  }

  /// Kanji numerals with place words: 350 → 三百五十, 2024 → 二千二十四, 120000000 → 一億二千万.
  public static func kanji(_ value: UInt128) -> String {
    if value == 0 { return "〇" }
    var text = ""
    var remainder = value
    for (symbol, unit) in LargeUnits.all {
      let group = remainder / unit
      remainder %= unit
      if group > 0 {
        text += groupKanji(UInt64(group))
        text.append(symbol)
      }
    }
    if remainder > 0 { text += groupKanji(UInt64(remainder)) }
    return text
  }

  /// Kanji digits one by one, as years are often written: 2024 → 二〇二四.
  public static func kanjiDigits(_ value: UInt128) -> String {
    String(String(value).map { KanjiNumeral.digits[Int($0.asciiValue! - 48)] })
  }

  /// A group below 10,000. 十, 百 and 千 are written without 一 (千万, not 一千万; the parser
  /// accepts both).
  private static func groupKanji(_ group: UInt64) -> String {
    var text = ""
    let places: [(UInt64, Character?)] = [(1000, "千"), (100, "百"), (10, "十"), (1, nil)]
    for (place, symbol) in places {
      let digit = group / place % 10
      guard digit > 0 else { continue }
      if let symbol {
        if digit > 1 { text.append(KanjiNumeral.digits[Int(digit)]) }
        text.append(symbol)
      } else {
        text.append(KanjiNumeral.digits[Int(digit)])
      }
    }
    return text
  }
}

/// Why a number or phrase has no reading.
public enum ReadingError: Error, Equatable, Sendable, CustomStringConvertible {
  case tooLarge(String)
  case outOfRange(UInt128, counter: String, valid: ClosedRange<UInt64>)
  case unreadable(String, reason: String)

  public var description: String {
    switch self {
    case .tooLarge(let value):
      "\(value) is too large: readings go up to 9999京9999兆9999億9999万9999 (10^20 − 1)"
    case .outOfRange(let value, let counter, let valid):
      "\(value)\(counter) has no reading: \(counter) counts only \(valid.lowerBound)–\(valid.upperBound)"
    case .unreadable(let text, let reason):
      "cannot read '\(text)': \(reason)"
    }
  }
}
