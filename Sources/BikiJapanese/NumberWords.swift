/// A number as the words it is spoken in, ready to be joined with a counter.
///
/// `head` is everything before the final component; `finalKey` names that component (see
/// `Counter`), `final` is its reading when it ends the number bare, and `finalBeforeCounter`
/// its reading before a counter, where the counting alternates し, しち and く are not used
/// (9円 is きゅうえん, never くえん; counters that do use them say so in their forms).
struct NumberWords: Sendable {
  var head: [[String]]
  var finalKey: UInt64
  var final: [String]
  var finalBeforeCounter: [String]
  /// When the number ends in 万/億/兆/京, that unit's kana: a counter's form for the unit
  /// (本: 万 → まんぼん) replaces only this part, keeping what precedes it (いち in いちまんぼん).
  var finalUnit: String?

  /// The largest number read: 9999京 9999兆 9999億 9999万 9999.
  static let limit: UInt128 = 100_000_000_000_000_000_000

  /// The words of `value` (1 ≤ value < 10²⁰); zero has no words, only readings of its own.
  init(_ value: UInt128) {
    precondition(value > 0 && value < NumberWords.limit)
    let high = UInt64(value / 10_000_000_000_000_000)  // the 京 group
    let low = UInt64(value % 10_000_000_000_000_000)
    let groups: [(UInt64, Counter?)] = [
      (high, LargeUnits.kei),
      (low / 1_000_000_000_000, LargeUnits.chou),
      (low / 100_000_000 % 10_000, LargeUnits.oku),
      (low / 10_000 % 10_000, LargeUnits.man),
      (low % 10_000, nil),
    ]
    var head: [[String]] = []
    var last: Morpheme?
    for (group, unit) in groups where group > 0 {
      if let previous = last { head.append(contentsOf: previous.segments) }
      var morphemes = Morpheme.group(group)
      if let unit {
        // 万/億/兆/京 join their group exactly as a counter joins a number (いっちょう, はっけい).
        let unitMorpheme = morphemes.removeLast().joined(with: unit)
        for morpheme in morphemes { head.append(contentsOf: morpheme.segments) }
        last = unitMorpheme
      } else {
        for morpheme in morphemes.dropLast() { head.append(contentsOf: morpheme.segments) }
        last = morphemes.last
      }
    }
    let final = last!
    head.append(contentsOf: final.prefix)
    self.head = head
    self.finalKey = final.key
    self.final = final.bare
    self.finalBeforeCounter = final.body
    self.finalUnit = final.unit
  }

  /// The bare number's reading.
  var reading: Reading { Reading(segments: head + [final]) }

  /// The reading of the number joined with `counter`, ignoring whole-value forms.
  func joined(with counter: Counter) -> Reading {
    if let forms = counter.finalForms[finalKey] {
      guard let unit = finalUnit else { return Reading(segments: head + [forms]) }
      let stems = Reading.unique(finalBeforeCounter.map { String($0.dropLast(unit.count)) })
      return Reading(segments: head + [stems, forms])
    }
    return Reading(segments: head + [finalBeforeCounter.map { $0 + counter.reading }])
  }
}

/// One spoken component of a number: an optional multiplier prefix (に in にひゃく) and a body.
struct Morpheme: Sendable {
  var key: UInt64
  var prefix: [[String]]
  var body: [String]
  /// The body when it ends the whole number (adds the counting alternates し, しち, く).
  var bare: [String]
  /// The unit's kana when this morpheme ends in 万, 億, 兆 or 京.
  var unit: String?

  init(key: UInt64, prefix: [[String]] = [], body: [String], bare: [String]? = nil, unit: String? = nil) {
    self.key = key
    self.prefix = prefix
    self.body = body
    self.bare = bare ?? body
    self.unit = unit
  }

  var segments: [[String]] { prefix + [body] }

  /// This component followed by a large unit, as one morpheme keyed by the unit.
  func joined(with unit: Counter) -> Morpheme {
    // A unit's 千 form (いっせんまん) is for a bare 千 only: 二千万 is に + せんまん.
    let declared = key == 1000 && !prefix.isEmpty ? nil : unit.finalForms[key]
    let body = declared ?? self.body.map { $0 + unit.reading }
    return Morpheme(key: unitValue(unit), prefix: prefix, body: body, unit: unit.reading)
  }

  private func unitValue(_ unit: Counter) -> UInt64 {
    switch unit.id {
    case LargeUnits.man.id: 10_000
    case LargeUnits.oku.id: 100_000_000
    case LargeUnits.chou.id: 1_000_000_000_000
    default: 10_000_000_000_000_000
    }
  }

  /// The morphemes of a four-digit group (1 ≤ group ≤ 9999), highest place first.
  static func group(_ group: UInt64) -> [Morpheme] {
    var morphemes: [Morpheme] = []
    morphemes.reserveCapacity(4)
    let thousands = group / 1000, hundreds = group / 100 % 10, tens = group / 10 % 10, ones = group % 10
    switch thousands {
    case 0: break
    case 1: morphemes.append(Morpheme(key: 1000, body: Kana.sen))
    case 3: morphemes.append(Morpheme(key: 3000, body: Kana.sanzen))
    case 8: morphemes.append(Morpheme(key: 8000, body: Kana.hassen))
    default: morphemes.append(Morpheme(key: 1000, prefix: [Kana.multiplier[Int(thousands)]], body: Kana.sen))
    }
    switch hundreds {
    case 0: break
    case 1: morphemes.append(Morpheme(key: 100, body: Kana.hyaku))
    case 3: morphemes.append(Morpheme(key: 300, body: Kana.sanbyaku))
    case 6: morphemes.append(Morpheme(key: 600, body: Kana.roppyaku))
    case 8: morphemes.append(Morpheme(key: 800, body: Kana.happyaku))
    default: morphemes.append(Morpheme(key: 100, prefix: [Kana.multiplier[Int(hundreds)]], body: Kana.hyaku))
    }
    switch tens {
    case 0: break
    case 1: morphemes.append(Morpheme(key: 10, body: Kana.juu))
    default: morphemes.append(Morpheme(key: 10, prefix: [Kana.tensMultiplier[Int(tens)]], body: Kana.juu))
    }
    if ones > 0 {
      morphemes.append(Morpheme(key: ones, body: Kana.digit[Int(ones)], bare: Kana.countingDigit[Int(ones)]))
    }
    return morphemes
  }
}

/// The kana of number words, as constants so readings share storage instead of allocating.
enum Kana {
  static let zero = ["れい", "ぜろ"]
  /// Digits before a counter or a larger unit: よん, なな, きゅう.
  static let digit: [[String]] = [
    [], ["いち"], ["に"], ["さん"], ["よん"], ["ご"], ["ろく"], ["なな"], ["はち"], ["きゅう"],
  ]
  /// Digits that end a bare number, where counting forms are also in use (し, しち, く).
  static let countingDigit: [[String]] = [
    [], ["いち"], ["に"], ["さん"], ["よん", "し"], ["ご"], ["ろく"], ["なな", "しち"], ["はち"], ["きゅう", "く"],
  ]
  /// Multipliers of 百 and 千.
  static let multiplier: [[String]] = digit
  /// Multipliers of 十: 七十 is ななじゅう or しちじゅう.
  static let tensMultiplier: [[String]] = [
    [], [], ["に"], ["さん"], ["よん"], ["ご"], ["ろく"], ["なな", "しち"], ["はち"], ["きゅう"],
  ]
  static let juu = ["じゅう"]
  static let hyaku = ["ひゃく"]
  static let sanbyaku = ["さんびゃく"]
  static let roppyaku = ["ろっぴゃく"]
  static let happyaku = ["はっぴゃく"]
  static let sen = ["せん"]
  static let sanzen = ["さんぜん"]
  static let hassen = ["はっせん"]
}
