/// 万, 億, 兆 and 京 join the four-digit group before them as counters join a number.
/// Sources: NHK日本語発音アクセント新辞典 (number appendix); see docs/readings.md.
enum LargeUnits {
  static let man = Counter(
    id: "man", symbols: ["万"], reading: "まん", kind: .unit,
    finalForms: [1000: ["いっせんまん", "せんまん"]])
  static let oku = Counter(
    id: "oku", symbols: ["億"], reading: "おく", kind: .unit,
    finalForms: [1000: ["いっせんおく", "せんおく"]])
  static let chou = Counter(
    id: "chou", symbols: ["兆"], reading: "ちょう", kind: .unit,
    finalForms: [
      1: ["いっちょう"], 8: ["はっちょう"], 10: ["じゅっちょう", "じっちょう"],
      1000: ["いっせんちょう", "せんちょう"],
    ])
  static let kei = Counter(
    id: "kei", symbols: ["京"], reading: "けい", kind: .unit,
    finalForms: [
      1: ["いっけい"], 6: ["ろっけい"], 8: ["はっけい"], 10: ["じゅっけい", "じっけい"],
      100: ["ひゃっけい"], 1000: ["いっせんけい", "せんけい"],
    ])

  /// 万, 億, 兆, 京 in that order, for `forms` and `readings`.
  static let inOrder = [man, oku, chou, kei]
  static let values: [UInt64] = [10_000, 100_000_000, 1_000_000_000_000, 10_000_000_000_000_000]
  static let readings: [ReadingSegment] = inOrder.map(\.readingSegment)
  /// Each unit's changed forms by `slot(for:)` of the group's final component, so that reading
  /// a number never copies a `Counter`.
  static let forms: [[ReadingSegment?]] = inOrder.map { unit in slotKeys.map { unit.finalSegment(for: $0) } }
  static let slotKeys: [UInt64] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 300, 600, 800, 1000, 3000, 8000]

  static func slot(for key: UInt64) -> Int {
    switch key {
    case 0...10: Int(key)
    case 100: 11
    case 300: 12
    case 600: 13
    case 800: 14
    case 1000: 15
    case 3000: 16
    default: 17
    }
  }

  /// Kanji and value of each unit, largest first.
  static let all: [(symbol: Character, value: UInt128)] = [
    ("京", 10_000_000_000_000_000), ("兆", 1_000_000_000_000), ("億", 100_000_000), ("万", 10_000),
  ]
}
