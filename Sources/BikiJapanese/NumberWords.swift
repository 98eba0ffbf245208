/// A number as the segments it is spoken in, ready to be joined with a counter.
///
/// Segments are shared constants (`Kana`, a counter's forms), so building a reading allocates
/// one array and no strings. The last segment is the number's final component, named by
/// `finalKey` (see `Counter`); a counter that changes that component replaces the segment,
/// and one that does not is appended as a segment of its own.
struct NumberWords {
  private(set) var segments: [ReadingSegment] = []
  private(set) var finalKey: UInt64 = 0
  /// The last segment is a ones digit in its bare form (with し, しち, く): before a counter it
  /// takes the plain form (9円 is きゅうえん, never くえん).
  private var finalDigit: Int?
  /// The number ends in 万, 億, 兆 or 京: the unit's kana, and whether a sound change merged it
  /// into the segment before (いっちょう) instead of standing alone (まん).
  private var finalUnit: (reading: String, merged: Bool)?

  /// The largest number read, plus one: 10²⁰ (a group of 京).
  static let limit: UInt128 = 100_000_000_000_000_000_000

  /// The words of `value` (1 ≤ value < 10²⁰); zero has no words, only readings of its own.
  init(_ value: UInt128) {
    precondition(value > 0 && value < NumberWords.limit)
    segments.reserveCapacity(32)
    let high = value <= UInt128(UInt64.max) ? UInt64(value) / 10_000_000_000_000_000 : UInt64(value / 10_000_000_000_000_000)
    let low = value <= UInt128(UInt64.max) ? UInt64(value) % 10_000_000_000_000_000 : UInt64(value % 10_000_000_000_000_000)
    if high > 0 { appendGroup(high, unit: 3) }
    let chou = low / 1_000_000_000_000
    if chou > 0 { appendGroup(chou, unit: 2) }
    let oku = low / 100_000_000 % 10_000
    if oku > 0 { appendGroup(oku, unit: 1) }
    let man = low / 10_000 % 10_000
    if man > 0 { appendGroup(man, unit: 0) }
    let ones = low % 10_000
    if ones > 0 { appendGroup(ones, unit: nil) }
  }

  /// The bare number's reading.
  var reading: Reading { Reading(parts: segments) }

  /// The reading of the number joined with `counter`, ignoring whole-value forms.
  func joined(with counter: Counter) -> Reading {
    var result = segments
    let last = result.count - 1
    if let forms = counter.finalSegment(for: finalKey) {
      if let unit = finalUnit, unit.merged {
        // A counter's 万 form (まんぼん) follows what the unit merged with: いっせん|せん + まんぼん.
        result[last] = ReadingSegment(result[last].alternatives.map { String($0.dropLast(unit.reading.count)) })
        result.append(forms)
      } else {
        result[last] = forms
      }
    } else {
      if let digit = finalDigit { result[last] = Kana.digit[digit] }
      result.append(counter.readingSegment)
    }
    return Reading(parts: result)
  }

  /// Appends a four-digit group (1 ≤ group ≤ 9999), highest place first, then its unit
  /// (an index into `LargeUnits.inOrder`: 万, 億, 兆, 京).
  private mutating func appendGroup(_ group: UInt64, unit: Int?) {
    var key: UInt64 = 0
    var hasMultiplier = false
    let thousands = Int(group / 1000), hundreds = Int(group / 100 % 10), tens = Int(group / 10 % 10)
    let ones = Int(group % 10)
    finalDigit = nil
    switch thousands {
    case 0: break
    case 1: append(Kana.sen, key: 1000, multiplier: nil, &key, &hasMultiplier)
    case 3: append(Kana.sanzen, key: 3000, multiplier: nil, &key, &hasMultiplier)
    case 8: append(Kana.hassen, key: 8000, multiplier: nil, &key, &hasMultiplier)
    default: append(Kana.sen, key: 1000, multiplier: Kana.digit[thousands], &key, &hasMultiplier)
    }
    switch hundreds {
    case 0: break
    case 1: append(Kana.hyaku, key: 100, multiplier: nil, &key, &hasMultiplier)
    case 3: append(Kana.sanbyaku, key: 300, multiplier: nil, &key, &hasMultiplier)
    case 6: append(Kana.roppyaku, key: 600, multiplier: nil, &key, &hasMultiplier)
    case 8: append(Kana.happyaku, key: 800, multiplier: nil, &key, &hasMultiplier)
    default: append(Kana.hyaku, key: 100, multiplier: Kana.digit[hundreds], &key, &hasMultiplier)
    }
    switch tens {
    case 0: break
    case 1: append(Kana.juu, key: 10, multiplier: nil, &key, &hasMultiplier)
    default: append(Kana.juu, key: 10, multiplier: Kana.tensMultiplier[tens], &key, &hasMultiplier)
    }
    if ones > 0 {
      // Only the very end of a number takes the counting alternates (し, しち, く).
      append(unit == nil ? Kana.countingDigit[ones] : Kana.digit[ones], key: UInt64(ones), multiplier: nil, &key, &hasMultiplier)
      if unit == nil { finalDigit = ones }
    }
    guard let unit else {
      finalKey = key
      finalUnit = nil
      return
    }
    // 万/億/兆/京 join their group as a counter joins a number (いっちょう, はっけい), except that a
    // unit's 千 form (いっせんまん) is for a bare 千 only: 二千万 is に + せん + まん.
    let unitReading = LargeUnits.readings[unit]
    if let forms = LargeUnits.forms[unit][LargeUnits.slot(for: key)], !(key == 1000 && hasMultiplier) {
      segments[segments.count - 1] = forms
      finalUnit = (unitReading.standard, true)
    } else {
      segments.append(unitReading)
      finalUnit = (unitReading.standard, false)
    }
    finalKey = LargeUnits.values[unit]
  }

  private mutating func append(
    _ body: ReadingSegment, key newKey: UInt64, multiplier: ReadingSegment?, _ key: inout UInt64,
    _ hasMultiplier: inout Bool
  ) {
    if let multiplier { segments.append(multiplier) }
    segments.append(body)
    key = newKey
    hasMultiplier = multiplier != nil
  }
}

/// The kana of number words, as constants so readings share storage instead of allocating.
enum Kana {
  static let zero = ["れい", "ぜろ"]
  /// Digits before a counter, a larger place or a unit: よん, なな, きゅう.
  static let digit: [ReadingSegment] = ["", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう"]
    .map(ReadingSegment.init)
  /// Digits that end a bare number, where counting forms are also in use (し, しち, く).
  static let countingDigit: [ReadingSegment] = [
    [""], ["いち"], ["に"], ["さん"], ["よん", "し"], ["ご"], ["ろく"], ["なな", "しち"], ["はち"], ["きゅう", "く"],
  ].map(ReadingSegment.init)
  /// Multipliers of 十: 七十 is ななじゅう or しちじゅう.
  static let tensMultiplier: [ReadingSegment] = [
    [""], [""], ["に"], ["さん"], ["よん"], ["ご"], ["ろく"], ["なな", "しち"], ["はち"], ["きゅう"],
  ].map(ReadingSegment.init)
  static let juu = ReadingSegment("じゅう")
  static let hyaku = ReadingSegment("ひゃく")
  static let sanbyaku = ReadingSegment("さんびゃく")
  static let roppyaku = ReadingSegment("ろっぴゃく")
  static let happyaku = ReadingSegment("はっぴゃく")
  static let sen = ReadingSegment("せん")
  static let sanzen = ReadingSegment("さんぜん")
  static let hassen = ReadingSegment("はっせん")
}
