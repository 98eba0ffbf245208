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

  /// Kanji and value of each unit, largest first.
  static let all: [(symbol: Character, value: UInt128)] = [
    ("京", 10_000_000_000_000_000), ("兆", 1_000_000_000_000), ("億", 100_000_000), ("万", 10_000),
  ]
}
