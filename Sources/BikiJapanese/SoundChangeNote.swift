/// One sentence naming the reading a form turns on, for a learner who missed it: "6 before 本
/// becomes ろっ, and ほん becomes ぽん: ろっぽん". Made from the same data the reading is made
/// from (a counter's final and whole forms, the digits before 百 and 千), so it never says
/// other than what Biki accepts; nil for a form it has no sentence for.
package enum SoundChangeNote {
  /// A form's id taken apart: `本/final:6` is 本, final, 6. Ids come from the history too, so
  /// anything else is nil, never a guess.
  private struct FormID {
    var symbol: String
    var place: String
    var key: UInt64

    init?(_ id: String) {
      let parts = id.split(separator: "/", maxSplits: 1)
      guard parts.count == 2 else { return nil }
      let place = parts[1].split(separator: ":", maxSplits: 1)
      guard place.count == 2, let key = UInt64(place[1]) else { return nil }
      (symbol, self.place, self.key) = (String(parts[0]), String(place[0]), key)
    }
  }

  package static func sentence(for form: ReadingForm, catalog: CounterCatalog = .standard) -> String? {
    guard let id = FormID(form.id) else { return nil }
    let (symbol, key) = (id.symbol, id.key)
    if id.place == "after" { return hundredsAndThousands[form.id] }
    guard let counter = catalog.counters(symbol: symbol).first else { return nil }
    switch id.place {
    case "final":
      // The final part of a larger number: 6, or 百 and 千 as they stand at the end of 100, 1000.
      let number = key <= 10 ? String(key) : JapaneseNumber.kanji(UInt128(key))
      guard let whole = counter.finalForms[key]?.first else { return nil }
      return finalSentence(number: number, key: key, symbol: symbol, base: counter.reading, whole: whole)
    case "whole", "date":
      guard let whole = counter.wholeForms[key]?.first else { return nil }
      return "\(key)\(symbol) has a reading of its own: \(whole)"
    default: return nil
    }
  }

  /// The number's part and the counter's part of `whole` (ろっ and ぽん of ろっぽん), each named
  /// where it differs from how it reads alone.
  private static func finalSentence(number: String, key: UInt64, symbol: String, base: String, whole: String)
    -> String?
  {
    let (wholeKana, baseKana) = (Array(whole), Array(base))
    guard wholeKana.count > baseKana.count else { return nil }
    let numberPart = String(wholeKana.prefix(wholeKana.count - baseKana.count))
    let counterPart = String(wholeKana.suffix(baseKana.count))
    // Against the number's usual reading alone: 4 is よん, so よにん's よ is a change.
    let alone = (try? JapaneseNumber.reading(of: UInt128(key)))?.standard
    let numberChanges = alone != numberPart
    switch (numberChanges, counterPart != base) {
    case (true, true):
      return "\(number) before \(symbol) becomes \(numberPart), and \(base) becomes \(counterPart): \(whole)"
    case (true, false): return "\(number) before \(symbol) becomes \(numberPart): \(whole)"
    case (false, true): return "After \(number), \(base) becomes \(counterPart): \(whole)"
    case (false, false): return nil
    }
  }

  /// The form named by what it reads, for a learner's stats: 6本 ろっぽん for `本/final:6`, 4人
  /// よにん, 20日 はつか, 300 さんびゃく; nil for a form it cannot name so.
  package static func example(forID text: String, catalog: CounterCatalog = .standard) -> String? {
    guard let id = FormID(text) else { return nil }
    if id.place == "after" {
      // Only the digit before 百 or 千 (3 for 300).
      guard (1...9).contains(id.key), let unit: UInt64 = ["百": 100, "千": 1000][id.symbol],
        let reading = try? JapaneseNumber.reading(of: UInt128(id.key * unit))
      else { return nil }
      return "\(id.key * unit) \(reading.standard)"
    }
    guard let counter = catalog.counters(symbol: id.symbol).first else { return nil }
    let forms = id.place == "final" ? counter.finalForms[id.key] : counter.wholeForms[id.key]
    guard let reading = forms?.first else { return nil }
    return "\(id.key)\(id.symbol) \(reading)"
  }

  /// 百 and 千 after 3, 6 and 8.
  private static let hundredsAndThousands = [
    "百/after:3": "After 3, 百 becomes びゃく: さんびゃく",
    "百/after:6": "6 before 百 becomes ろっ, and 百 becomes ぴゃく: ろっぴゃく",
    "百/after:8": "8 before 百 becomes はっ, and 百 becomes ぴゃく: はっぴゃく",
    "千/after:3": "After 3, 千 becomes ぜん: さんぜん",
    "千/after:8": "8 before 千 becomes はっ: はっせん",
  ]
}
