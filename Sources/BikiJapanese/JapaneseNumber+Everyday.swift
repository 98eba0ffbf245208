/// Readings of numbers that are not a whole count: decimals, fractions, numbers below zero and
/// times on the 24-hour clock. The phrase reader (`biki read`) and packs' number parts both read
/// through these, so a pack's question and `biki read` of its display never disagree.
/// Sources in docs/readings.md ("Everyday numbers").
extension JapaneseNumber {
  /// The most digits after a decimal point Biki reads: a reading of more is not something people say.
  static let maximumDecimalPlaces = 10

  /// A decimal: the whole part as before a point (いちてん, and the colloquial いってん; じゅってん
  /// |じってん), the digits after it one by one (0 れい|ぜろ), then the counter's own reading,
  /// which a decimal does not change (1.5本 いちてんごほん).
  package static func decimalReading(whole: UInt128, fraction: [UInt8], counter: Counter?) throws(ReadingError)
    -> Reading
  {
    guard fraction.count <= maximumDecimalPlaces, fraction.allSatisfy({ $0 <= 9 }) else {
      throw .unreadable(
        String(whole) + ".", reason: "a decimal has at most \(maximumDecimalPlaces) digits after the point")
    }
    var parts = try reading(of: whole, with: .decimalPoint).parts
    for digit in fraction { parts.append(ReadingSegment(distinct: Counter.decimalDigits[Int(digit)])) }
    if let counter { parts += try plain(counter, after: String(whole) + "." + fraction.map(String.init).joined()) }
    return Reading(parts: parts)
  }

  /// A fraction, denominator first as Japanese says it: 3分の1 さんぶんのいち, 100分の1
  /// ひゃくぶんのいち; the counter after it keeps its own reading (2分の1カップ にぶんのいちかっぷ).
  package static func fractionReading(numerator: UInt128, denominator: UInt128, counter: Counter?) throws(ReadingError)
    -> Reading
  {
    guard denominator > 0 else {
      throw .unreadable("\(denominator)分の\(numerator)", reason: "a fraction's denominator is at least 1")
    }
    var parts = try said(denominator).parts
    parts.append(ReadingSegment("ぶんの"))
    parts += try said(numerator).parts
    if let counter { parts += try plain(counter, after: "\(denominator)分の\(numerator)") }
    return Reading(parts: parts)
  }

  /// A time on the 24-hour clock (16:05): the hour as 時 reads it, then the minutes; :00 adds
  /// nothing, :30 is はん or さんじゅっぷん|さんじっぷん.
  package static func clockReading(hour: Int, minute: Int) throws(ReadingError) -> Reading {
    guard (0...24).contains(hour), (0...59).contains(minute), hour < 24 || minute == 0 else {
      throw .unreadable(
        "\(hour):\(minute < 10 ? "0" : "")\(minute)", reason: "a time has hours 0–24, minutes 00–59, and 24:00 at most")
    }
    var parts = try reading(of: UInt128(hour), with: .hour).parts
    switch minute {
    case 0: break
    case 30: parts.append(ReadingSegment(["はん", "さんじゅっぷん", "さんじっぷん"], uncommon: ["さんじっぷん"]))
    default: parts += try reading(of: UInt128(minute), with: .minute).parts
    }
    return Reading(parts: parts)
  }

  /// A number as said inside a phrase (a fraction, a score): the standard reading, without the
  /// forms used in counting aloud (し, しち, く: 4分の1 is よんぶんのいち, 9分の1 きゅうぶんのいち);
  /// 0 is れい or ぜろ.
  static func said(_ value: UInt128) throws(ReadingError) -> Reading {
    let full = try reading(of: value)
    return value == 0 ? full : Reading(full.standard)
  }

  /// A number below zero, as said: マイナス before it (-5度 まいなすごど).
  package static func negative(_ magnitude: Reading) -> Reading {
    Reading("まいなす") + magnitude
  }

  /// A counter's reading with no sound change, as after a decimal or a fraction; nil for a
  /// counter that counts whole things only (つ, months) or writes a number whole.
  static func plainReading(of counter: Counter) -> [ReadingSegment]? {
    guard counter.validValues == nil, counter.writtenWhole.isEmpty else { return nil }
    var parts = [counter.readingSegment]
    if let ending = counter.optionalEndingSegment { parts.append(ending) }
    return parts
  }

  /// `plainReading(of:)` after `number`, or why there is none.
  private static func plain(_ counter: Counter, after number: String) throws(ReadingError) -> [ReadingSegment] {
    guard let parts = plainReading(of: counter) else {
      throw .unreadable(
        number + counter.symbol, reason: "\(counter.symbol) counts whole things: it takes no decimal or fraction")
    }
    return parts
  }
}
