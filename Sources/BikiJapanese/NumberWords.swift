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
    segments.reserveCapacity(16)
    let high =
      value <= UInt128(UInt64.max) ? UInt64(value) / 10_000_000_000_000_000 : UInt64(value / 10_000_000_000_000_000)
    let low =
      value <= UInt128(UInt64.max) ? UInt64(value) % 10_000_000_000_000_000 : UInt64(value % 10_000_000_000_000_000)
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

  /// Appends a four-digit group (1 ≤ group ≤ 9999) and then its unit (an index into
  /// `LargeUnits.inOrder`: 万, 億, 兆, 京).
  private mutating func appendGroup(_ group: UInt64, unit: Int?) {
    let index = Int(group)
    let isAlone = segments.isEmpty
    let table = GroupWords.table
    if let head = table.head(index) { segments.append(head) }
    let key = table.key(index)
    guard let unit else {
      // The counting forms し and く end only numbers below 20 (4, 14, 9, 19); しち ends any.
      segments.append(isAlone && index < 20 ? table.finalBare(index) : table.finalCompound(index))
      let ones = index % 10
      finalDigit = ones > 0 ? ones : nil
      finalKey = key
      finalUnit = nil
      return
    }
    finalDigit = nil
    // 万/億/兆/京 join their group as a counter joins a number (いっちょう, はっけい), except that a
    // unit's 千 form (いっせんまん) is for a bare 千 only: 二千万 is に + せん + まん.
    let unitReading = LargeUnits.readings[unit]
    if let forms = LargeUnits.forms[unit][LargeUnits.slot(for: key)], !(key == 1000 && table.hasMultiplier(index)) {
      segments.append(forms)
      finalUnit = (unitReading.standard, true)
    } else {
      segments.append(table.final(index))
      segments.append(unitReading)
      finalUnit = (unitReading.standard, false)
    }
    finalKey = LargeUnits.values[unit]
  }
}

/// A four-digit group as two segments: everything before its final component (multiplier
/// included: 1200 is せんに + ひゃく), and the final component, which counters and units change.
struct GroupWords: Sendable, Equatable {
  var head: ReadingSegment?
  var final: ReadingSegment
  /// `final` when it ends a bare number below 20: a ones digit also accepts し, しち, く.
  var finalBare: ReadingSegment
  /// `final` when it ends a longer bare number: 7 also accepts しち; 4 and 9 are よん, きゅう.
  var finalCompound: ReadingSegment
  var key: UInt64
  var hasMultiplier: Bool

  /// Every group 1–9999 (index 0 unused), computed once on first use and shared read-only.
  static let table = Table.spelled()

  /// The groups read from their multiples of ten: a group that is not one is the whole
  /// reading of the multiple of ten below it (さんびゃくにじゅう) and a ones digit, so only the
  /// thousand multiples are spelled out and kept. The first reading in every process builds
  /// this table, so its cost is start-up time, on the way to a server's first answer.
  struct Table: Sendable {
    /// Each multiple of ten, by `group / 10`, field by field so a lookup copies only what it reads.
    private var roundHeads: [ReadingSegment?] = []
    private var roundFinals: [ReadingSegment] = []
    private var roundKeys: [UInt64] = []
    private var roundMultiplied: [Bool] = []
    /// The whole reading of each multiple of ten, the head of the nine groups after it; nil
    /// for 0, whose followers are bare digits.
    private var followerHeads: [ReadingSegment?] = []

    static func spelled() -> Table {
      var table = Table()
      table.roundHeads.reserveCapacity(1000)
      table.roundFinals.reserveCapacity(1000)
      table.roundKeys.reserveCapacity(1000)
      table.roundMultiplied.reserveCapacity(1000)
      table.followerHeads.reserveCapacity(1000)
      for tens in 0..<1000 {
        let round = GroupWords(UInt64(tens * 10))
        table.roundHeads.append(round.head)
        table.roundFinals.append(round.final)
        table.roundKeys.append(round.key)
        table.roundMultiplied.append(round.hasMultiplier)
        table.followerHeads.append(
          tens == 0
            ? nil
            : round.head.map { head in
              ReadingSegment(
                distinct: head.alternatives.flatMap { variant in round.final.alternatives.map { variant + $0 } })
            } ?? round.final)
      }
      return table
    }

    /// Everything before the group's final component.
    func head(_ group: Int) -> ReadingSegment? {
      group % 10 == 0 ? roundHeads[group / 10] : followerHeads[group / 10]
    }

    /// The final component, which counters and units change.
    func final(_ group: Int) -> ReadingSegment {
      group % 10 == 0 ? roundFinals[group / 10] : Kana.digit[group % 10]
    }

    /// The final component ending a bare number below 20 (し, しち, く accepted).
    func finalBare(_ group: Int) -> ReadingSegment {
      group % 10 == 0 ? roundFinals[group / 10] : Kana.countingDigit[group % 10]
    }

    /// The final component ending a longer bare number (only しち besides).
    func finalCompound(_ group: Int) -> ReadingSegment {
      group % 10 == 0 ? roundFinals[group / 10] : Kana.compoundFinalDigit[group % 10]
    }

    func key(_ group: Int) -> UInt64 { group % 10 == 0 ? roundKeys[group / 10] : UInt64(group % 10) }

    func hasMultiplier(_ group: Int) -> Bool { group % 10 == 0 && roundMultiplied[group / 10] }

    /// The group `index` as a whole.
    subscript(index: Int) -> GroupWords {
      GroupWords(
        head: head(index), final: final(index), finalBare: finalBare(index), finalCompound: finalCompound(index),
        key: key(index), hasMultiplier: hasMultiplier(index))
    }

    var count: Int { roundKeys.count * 10 }
  }

  init(_ group: UInt64) {
    var parts: [(segment: ReadingSegment, key: UInt64, multiplier: ReadingSegment?)] = []
    let thousands = Int(group / 1000)
    let hundreds = Int(group / 100 % 10)
    let tens = Int(group / 10 % 10)
    let ones = Int(group % 10)
    switch thousands {
    case 0: break
    case 1: parts.append((Kana.sen, 1000, nil))
    case 3: parts.append((Kana.sanzen, 3000, nil))
    case 8: parts.append((Kana.hassen, 8000, nil))
    default: parts.append((Kana.sen, 1000, Kana.digit[thousands]))
    }
    switch hundreds {
    case 0: break
    case 1: parts.append((Kana.hyaku, 100, nil))
    case 3: parts.append((Kana.sanbyaku, 300, nil))
    case 6: parts.append((Kana.roppyaku, 600, nil))
    case 8: parts.append((Kana.happyaku, 800, nil))
    default: parts.append((Kana.hyaku, 100, Kana.digit[hundreds]))
    }
    switch tens {
    case 0: break
    case 1: parts.append((Kana.juu, 10, nil))
    default: parts.append((Kana.juu, 10, Kana.tensMultiplier[tens]))
    }
    if ones > 0 { parts.append((Kana.digit[ones], UInt64(ones), nil)) }
    guard let last = parts.popLast() else {
      // Only index 0, which no number uses.
      self.init(
        head: nil, final: ReadingSegment(""), finalBare: ReadingSegment(""), finalCompound: ReadingSegment(""), key: 0,
        hasMultiplier: false)
      return
    }
    // Spell the head's variants directly (at most two: なな|しち for 70), for a fast first use.
    var variants = [""]
    var isEmpty = true
    for segment in parts.flatMap({ [$0.multiplier, $0.segment] }) + [last.multiplier] {
      guard let segment else { continue }
      isEmpty = false
      variants =
        segment.alternates.isEmpty
        ? variants.map { $0 + segment.standard }
        : variants.flatMap { variant in segment.alternatives.map { variant + $0 } }
    }
    self.init(
      head: isEmpty ? nil : ReadingSegment(distinct: variants),
      final: last.segment, finalBare: ones > 0 ? Kana.countingDigit[ones] : last.segment,
      finalCompound: ones > 0 ? Kana.compoundFinalDigit[ones] : last.segment, key: last.key,
      hasMultiplier: last.multiplier != nil)
  }

  private init(
    head: ReadingSegment?, final: ReadingSegment, finalBare: ReadingSegment, finalCompound: ReadingSegment, key: UInt64,
    hasMultiplier: Bool
  ) {
    self.head = head
    self.final = final
    self.finalBare = finalBare
    self.finalCompound = finalCompound
    self.key = key
    self.hasMultiplier = hasMultiplier
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
  ].map { ReadingSegment($0) }
  /// Digits that end a bare number of 20 or more: only 7 keeps its other reading (にじゅうしち).
  static let compoundFinalDigit: [ReadingSegment] = [
    [""], ["いち"], ["に"], ["さん"], ["よん"], ["ご"], ["ろく"], ["なな", "しち"], ["はち"], ["きゅう"],
  ].map { ReadingSegment($0) }
  /// Multipliers of 十: 七十 is ななじゅう or しちじゅう.
  static let tensMultiplier: [ReadingSegment] = [
    [""], [""], ["に"], ["さん"], ["よん"], ["ご"], ["ろく"], ["なな", "しち"], ["はち"], ["きゅう"],
  ].map { ReadingSegment($0) }
  static let juu = ReadingSegment("じゅう")
  static let hyaku = ReadingSegment("ひゃく")
  static let sanbyaku = ReadingSegment("さんびゃく")
  static let roppyaku = ReadingSegment("ろっぴゃく")
  static let happyaku = ReadingSegment("はっぴゃく")
  static let sen = ReadingSegment("せん")
  static let sanzen = ReadingSegment("さんぜん")
  static let hassen = ReadingSegment("はっせん")
}
