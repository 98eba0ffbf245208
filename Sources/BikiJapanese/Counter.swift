/// A unit or counter word and how numbers join it, as data.
///
/// A number read before a counter is split into its head and its final component (the last
/// thing spoken: a digit, 十, 百, 三百, 千, 万, …). Most counters simply follow the number's
/// reading; the ones that change declare it:
/// - `wholeForms`: the whole phrase for a whole value (1人 ひとり, 20日 はつか, 3つ みっつ);
/// - `finalForms`: the final component joined with the counter, kept after any head
///   (本: 1 → いっぽん, so 21本 is にじゅう + いっぽん; 10 → じゅっぽん|じっぽん, so 110本 is ひゃく + じゅっぽん).
///
/// Final components are keyed by value: 1–9 for the ones digit; 10 for 十 (whatever its
/// multiplier: 20本 is に + じゅっぽん); 100, 300, 600, 800 for 百 (300/600/800 change their own
/// sound: さんびゃく, ろっぴゃく, はっぴゃく); 1000, 3000, 8000 for 千; 10⁴, 10⁸, 10¹², 10¹⁶ for
/// 万, 億, 兆, 京. When 300/600/800 are not declared they follow the 100 form (ひゃっぽん gives
/// さんびゃっぽん), and 3000/8000 follow a 1000 form that starts with せん (せんぼん gives さんぜんぼん).
package struct Counter: Hashable, Sendable {
  package static func == (lhs: Counter, rhs: Counter) -> Bool {
    if lhs.storage === rhs.storage { return true }
    return (lhs.id, lhs.symbols, lhs.reading, lhs.kind, lhs.note) == (
      rhs.id, rhs.symbols, rhs.reading, rhs.kind, rhs.note
    )
      && lhs.wholeForms == rhs.wholeForms && lhs.finalForms == rhs.finalForms && lhs.zeroForms == rhs.zeroForms
      && lhs.validValues == rhs.validValues && lhs.optionalEnding == rhs.optionalEnding
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(symbols)
    hasher.combine(finalForms)
  }

  /// Every field, in one shared box that never changes: a counter is copied wherever a number is
  /// read with it (once per question), and a copy of a dozen strings, arrays and dictionaries
  /// retained each of them; now it retains the box. The few changes (`written`) make a new box.
  private var storage: Storage

  /// Stable id, e.g. `hon`, `dayOfMonth`; symbols can be shared (日 as a count and as a date).
  package var id: String {
    get { storage.id }
    set { storage = storage.copy(id: newValue) }
  }
  /// How it is written after a number; the first is the canonical spelling (ヶ月, か月, カ月).
  package var symbols: [String] {
    get { storage.symbols }
    set { storage = storage.copy(symbols: newValue) }
  }
  /// The reading when nothing changes: ほん, えん, がつ.
  package var reading: String { storage.reading }
  package var kind: Kind { storage.kind }
  package var wholeForms: [UInt64: [String]] { storage.wholeForms }
  package var finalForms: [UInt64: [String]] { storage.finalForms }
  /// Readings of zero with this counter; nil uses ぜろ/れい + reading.
  var zeroForms: [String]? { storage.zeroForms }
  /// Values that can be read at all (months 1–12, つ 1–10); nil for any value.
  package var validValues: ClosedRange<UInt64>? { storage.validValues }
  /// Where these forms come from, for docs/readings.md and lint messages.
  var note: String { storage.note }
  /// Whole values written without the counter: 10 with つ is 十 (とお), never 10つ.
  package var writtenWhole: [UInt64: String] { storage.writtenWhole }
  /// Kana a speaker may add after every reading, saying a symbol's word in full: 3km is
  /// さんきろ, or さんきろめーとる.
  var optionalEnding: String? {
    get { storage.optionalEnding }
    set { storage = storage.copy(optionalEnding: newValue) }
  }
  /// `optionalEnding` as a segment: nothing (the standard), or the ending.
  var optionalEndingSegment: ReadingSegment? { storage.optionalEndingSegment }
  /// `reading` as a segment, built once so readings can share it.
  var readingSegment: ReadingSegment { storage.readingSegment }
  /// The forms its readings exercise (see `ReadingForm`), named once here so that naming a
  /// question's forms costs a lookup, not a string built per question.
  var formNames: FormNames { storage.formNames }

  final class FormNames: Sendable {
    let final: [UInt64: ReadingForm]
    let whole: [UInt64: ReadingForm]
    let zero: ReadingForm?

    init(final: [UInt64: ReadingForm], whole: [UInt64: ReadingForm], zero: ReadingForm?) {
      self.final = final
      self.whole = whole
      self.zero = zero
    }
  }

  /// Constants only: a class's `var` is checked for exclusive access at every read. One
  /// constant per fact of a counter (its symbols, readings, forms by whole value and by final
  /// component, zero, valid values) and the segments made from them once, so reading a number
  /// builds none: that is why there are more than a dozen.
  private final class Storage: Sendable {
    let id: String
    let symbols: [String]
    let reading: String
    let kind: Kind
    let wholeForms: [UInt64: [String]]
    let finalForms: [UInt64: [String]]
    let zeroForms: [String]?
    let validValues: ClosedRange<UInt64>?
    let note: String
    let writtenWhole: [UInt64: String]
    let optionalEnding: String?
    let optionalEndingSegment: ReadingSegment?
    let readingSegment: ReadingSegment
    /// `finalForms` as segments: keys 0–10 by index (the common case, no hashing), the rest hashed.
    let smallFinalSegments: [ReadingSegment?]
    let largeFinalSegments: [UInt64: ReadingSegment]
    let formNames: FormNames

    init(
      id: String, symbols: [String], reading: String, kind: Kind, wholeForms: [UInt64: [String]],
      finalForms: [UInt64: [String]],
      zeroForms: [String]?, validValues: ClosedRange<UInt64>?, note: String, writtenWhole: [UInt64: String],
      optionalEnding: String?, optionalEndingSegment: ReadingSegment?, readingSegment: ReadingSegment,
      smallFinalSegments: [ReadingSegment?], largeFinalSegments: [UInt64: ReadingSegment], formNames: FormNames
    ) {
      self.id = id
      self.symbols = symbols
      self.reading = reading
      self.kind = kind
      self.wholeForms = wholeForms
      self.finalForms = finalForms
      self.zeroForms = zeroForms
      self.validValues = validValues
      self.note = note
      self.writtenWhole = writtenWhole
      self.optionalEnding = optionalEnding
      self.optionalEndingSegment = optionalEndingSegment
      self.readingSegment = readingSegment
      self.smallFinalSegments = smallFinalSegments
      self.largeFinalSegments = largeFinalSegments
      self.formNames = formNames
    }

    /// This box with the fields given changed.
    func copy(id: String? = nil, symbols: [String]? = nil, optionalEnding: String?? = nil) -> Storage {
      let ending = optionalEnding ?? self.optionalEnding
      return Storage(
        id: id ?? self.id, symbols: symbols ?? self.symbols, reading: reading, kind: kind, wholeForms: wholeForms,
        finalForms: finalForms, zeroForms: zeroForms, validValues: validValues, note: note, writtenWhole: writtenWhole,
        optionalEnding: ending, optionalEndingSegment: ending.map { ReadingSegment(distinct: ["", $0]) },
        readingSegment: readingSegment, smallFinalSegments: smallFinalSegments, largeFinalSegments: largeFinalSegments,
        formNames: formNames)
    }
  }

  package enum Kind: String, Hashable, Sendable, CaseIterable {
    case money, duration, date, time, counter, age, unit
    /// A number that names rather than counts: class 1組 いちくみ, not one set ひとくみ.
    case name
  }

  package init(
    id: String, symbols: [String], reading: String, kind: Kind,
    wholeForms: [UInt64: [String]] = [:], finalForms: [UInt64: [String]] = [:],
    zeroForms: [String]? = nil, validValues: ClosedRange<UInt64>? = nil, note: String = "",
    writtenWhole: [UInt64: String] = [:], formLabel: String? = nil
  ) {
    let wholeForms = wholeForms.mapValues(Reading.unique)
    let finalForms = Counter.derivingHundredsAndThousands(finalForms).mapValues(Reading.unique)
    let segments = finalForms.mapValues { ReadingSegment($0, uncommon: Counter.uncommonForms($0)) }
    // A counter that shares its symbol with another (分 as a tenth, ぶ, beside minutes) names its
    // forms apart, so practice schedules them apart.
    let symbol = formLabel ?? symbols.first ?? id
    let wholeLabel = kind == .date ? "date" : "whole"
    let formNames = FormNames(
      final: Dictionary(
        uniqueKeysWithValues: finalForms.map { key, forms in
          (
            key,
            ReadingForm(
              id: "\(symbol)/final:\(key)", rule: ReadingForms.rule(key: key, base: reading, form: forms.first))
          )
        }),
      whole: Dictionary(
        uniqueKeysWithValues: wholeForms.keys.map { ($0, ReadingForm(id: "\(symbol)/\(wholeLabel):\($0)")) }),
      zero: zeroForms == nil ? nil : ReadingForm(id: "\(symbol)/zero"))
    storage = Storage(
      id: id, symbols: symbols, reading: reading, kind: kind, wholeForms: wholeForms, finalForms: finalForms,
      zeroForms: zeroForms.map(Reading.unique), validValues: validValues, note: note, writtenWhole: writtenWhole,
      optionalEnding: nil, optionalEndingSegment: nil, readingSegment: ReadingSegment(reading),
      smallFinalSegments: (0...10).map { segments[UInt64($0)] }, largeFinalSegments: segments.filter { $0.key > 10 },
      formNames: formNames)
  }

  /// The final components a number can end in, the only keys `finalForms` is looked up by.
  package static let finalKeys: Set<UInt64> = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 300, 600, 800, 1000, 3000, 8000, 10_000, 100_000_000, 1_000_000_000_000,
    10_000_000_000_000_000,
  ]

  /// The form of the final component `key` joined with this counter, if it changes.
  func finalSegment(for key: UInt64) -> ReadingSegment? {
    key <= 10 ? storage.smallFinalSegments[Int(key)] : storage.largeFinalSegments[key]
  }

  /// The canonical spelling.
  package var symbol: String { symbols[0] }

  /// Whether this is that very counter of the catalog, not merely one with the same fields:
  /// one comparison, where `==` compares strings.
  func isIdentical(to other: Counter) -> Bool { storage === other.storage }

  /// The same counter written otherwise, with an ending a speaker may add: km is キロ, or キロメートル.
  func written(id: String, symbols: [String], optionalEnding: String) -> Counter {
    var counter = self
    counter.id = id
    counter.symbols = symbols
    counter.optionalEnding = optionalEnding
    return counter
  }

  /// The same counter with a suffix on every reading: 分 → 分間, 日 → 日間.
  func suffixed(id: String, symbols: [String], kana: String, kind: Kind? = nil) -> Counter {
    let extend: ([String]) -> [String] = { $0.map { $0 + kana } }
    return Counter(
      id: id, symbols: symbols, reading: reading + kana, kind: kind ?? self.kind,
      wholeForms: wholeForms.mapValues(extend), finalForms: finalForms.mapValues(extend),
      zeroForms: zeroForms.map(extend), validValues: validValues, note: note)
  }

  /// The forms of a count accepted but less usual today: 10 said じっ where the standard says
  /// じゅっ (じっぽん, じっぷん: NHK's dictionary has put じゅっ first since 2016, and it is what
  /// most speakers say), and 7 said しち where the standard says なな (しちにん beside ななにん).
  /// Where the standard itself is the older form (じっぱ for 10羽, しちじ for 7時), the other is
  /// not marked: both are usual there. See docs/readings.md.
  static func uncommonForms(_ forms: [String]) -> Set<String> {
    guard let standard = forms.first else { return [] }
    var uncommon = Set<String>()
    for (usual, older) in [("じゅっ", "じっ"), ("なな", "しち")] where standard.hasPrefix(usual) {
      let older = older + standard.dropFirst(usual.count)
      if forms.dropFirst().contains(older) { uncommon.insert(older) }
    }
    return uncommon
  }

  private static func derivingHundredsAndThousands(_ forms: [UInt64: [String]]) -> [UInt64: [String]] {
    var forms = forms
    if let hundred = forms[100] {
      for (key, head) in [(300, "さんびゃ"), (600, "ろっぴゃ"), (800, "はっぴゃ")] where forms[UInt64(key)] == nil {
        forms[UInt64(key)] = hundred.map { head + $0.dropFirst(2) }
      }
    }
    if let thousand = forms[1000] {
      for (key, head) in [(3000, "さんぜん"), (8000, "はっせん")] where forms[UInt64(key)] == nil {
        let derived = thousand.filter { $0.hasPrefix("せん") }.map { head + $0.dropFirst(2) }
        if !derived.isEmpty { forms[UInt64(key)] = derived }
      }
    }
    return forms
  }
}
