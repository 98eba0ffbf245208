/// Readings and kanji numerals of integers from 0 to 10²⁰ − 1 (through 京).
package enum JapaneseNumber {
  /// The largest number that can be read: 9999京9999兆9999億9999万9999.
  static let maximum: UInt128 = NumberWords.limit - 1

  /// Builds the tables every reading shares (each group's words, the large units, the
  /// standard counters) now rather than at the first reading. They are built once per
  /// process, and a few milliseconds each: start-up builds them on one thread while another
  /// compiles the packs that will need them.
  package static func prepareTables() {
    _ = GroupWords.table
    _ = LargeUnits.readings
    _ = CounterCatalog.standard
  }

  /// The reading of a bare number: 4 → よん|し, 300 → さんびゃく, 1兆 → いっちょう.
  package static func reading(of value: UInt128) throws(ReadingError) -> Reading {
    guard value <= maximum else { throw .tooLarge(String(value)) }
    if value == 0 { return Reading(alternatives: Kana.zero) }
    return NumberWords(value).reading
  }

  /// Digits said one by one, as in phone numbers and postcodes: 0857 ぜろはちごなな (れい, にい,
  /// ごお also). Each digit must be 0–9.
  package static func digitByDigit(_ digits: [UInt8]) -> Reading {
    Reading(parts: digits.map { ReadingSegment(distinct: EverydayNumbers.spokenDigits[Int(min($0, 9))]) })
  }

  /// The reading of a number joined with a unit or counter: 8本 → はっぽん|はちほん.
  package static func reading(of value: UInt128, with counter: Counter) throws(ReadingError) -> Reading {
    let reading = try joined(value, counter)
    guard let ending = counter.optionalEndingSegment else { return reading }
    return Reading(parts: reading.parts + [ending])
  }

  private static func joined(_ value: UInt128, _ counter: Counter) throws(ReadingError) -> Reading {
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
    if value > 31, value % 10 == 4, counter.isIdentical(to: .day) || counter.isIdentical(to: .days) {
      return NumberWords(value).joined(with: counter.isIdentical(to: .day) ? .dayPastMonth : .daysPastMonth)
    }
    return NumberWords(value).joined(with: counter)
  }

  /// Kanji numerals with place words: 350 → 三百五十, 2024 → 二千二十四, 120000000 → 一億二千万.
  package static func kanji(_ value: UInt128) -> String {
    if value == 0 { return "〇" }
    // Every kanji here is three UTF-8 bytes. The longest numeral has five groups of at most seven
    // kanji (九千九百九十九) and four units: 39 kanji, 117 bytes.
    return String(unsafeUninitializedCapacity: 117) { buffer in
      var length = 0
      func append(_ kanji: (UInt8, UInt8, UInt8)) {
        buffer[length] = kanji.0
        buffer[length + 1] = kanji.1
        buffer[length + 2] = kanji.2
        length += 3
      }
      func appendGroup(_ group: UInt64) {
        for (place, symbol) in [(UInt64(1000), KanjiBytes.sen), (100, KanjiBytes.hyaku), (10, KanjiBytes.juu)] {
          let digit = Int(group / place % 10)
          guard digit > 0 else { continue }
          if digit > 1 { append(KanjiBytes.digits[digit]) }
          append(symbol)
        }
        if group % 10 > 0 { append(KanjiBytes.digits[Int(group % 10)]) }
      }
      var remainder = value
      for (index, unit) in LargeUnits.all.enumerated() {
        let group = remainder / unit.value
        remainder %= unit.value
        if group > 0 {
          appendGroup(UInt64(group))
          append(KanjiBytes.units[index])
        }
      }
      if remainder > 0 { appendGroup(UInt64(remainder)) }
      return length
    }
  }

  /// Kanji digits one by one, as years are often written: 2024 → 二〇二四.
  package static func kanjiDigits(_ value: UInt128) -> String {
    String(String(value).map { KanjiNumeral.digits[Int($0.asciiValue! - 48)] })
  }

}

/// Why a number or phrase has no reading.
package enum ReadingError: Error, Equatable, Sendable, CustomStringConvertible {
  case tooLarge(String)
  case outOfRange(UInt128, counter: String, valid: ClosedRange<UInt64>)
  case unreadable(String, reason: String)

  package var description: String {
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

/// UTF-8 bytes of the kanji numerals, for formatting without building strings piece by piece.
/// 十, 百 and 千 are written without 一 (千万, not 一千万; the parser accepts both).
private enum KanjiBytes {
  static func bytes(_ kanji: Character) -> (UInt8, UInt8, UInt8) {
    let utf8 = Array(String(kanji).utf8)
    return (utf8[0], utf8[1], utf8[2])
  }

  static let digits = KanjiNumeral.digits.map(bytes)
  static let juu = bytes("十")
  static let hyaku = bytes("百")
  static let sen = bytes("千")
  /// 京, 兆, 億, 万: the order of `LargeUnits.all`.
  static let units = LargeUnits.all.map { bytes($0.symbol) }
}
