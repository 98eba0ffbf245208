/// A reading a learner has to know beyond counting: a sound change or a reading of its own
/// (8本 はっぽん, 300 さんびゃく, 20日 はつか, 4時 よじ, 令和元年 がんねん). Every question names the
/// forms it exercises, so practice can be scheduled by form rather than by question.
///
/// `id` names the form where it is met (`本/final:8`); `rule` names what is remembered, and is
/// shared by forms the data says follow the same rule: 8本 はっぽん, 8杯 はっぱい and 8匹 はっぴき are
/// all `final:8:はっ+h→p`, so missing one schedules the others; 8個 はっこ (`final:8:はっ+k=k`) is a
/// rule of its own.
package struct ReadingForm: Hashable, Sendable, Comparable, CustomStringConvertible {
  package var id: String
  package var rule: String

  package init(id: String, rule: String? = nil) {
    self.id = id
    self.rule = rule ?? id
  }

  package var description: String { id }

  package static func < (a: ReadingForm, b: ReadingForm) -> Bool { (a.id, a.rule) < (b.id, b.rule) }
}

package enum ReadingForms {
  /// The forms reading `value` exercises, bare or with `counter`, as `JapaneseNumber.reading`
  /// reads it: the number's own sound changes (さんびゃく, はっせん, いっちょう) and the counter's
  /// whole-value, final-component or zero form when one applies.
  package static func of(_ value: UInt128, counter: Counter? = nil) -> [ReadingForm] {
    guard value <= JapaneseNumber.maximum else { return [] }
    if value == 0 {
      guard let counter, counter.zeroForms != nil else { return [] }
      return [ReadingForm(id: "\(counter.symbol)/zero")]
    }
    if let counter, value <= UInt128(UInt64.max), counter.wholeForms[UInt64(value)] != nil {
      let label = counter.kind == .date ? "date" : "whole"
      return [ReadingForm(id: "\(counter.symbol)/\(label):\(value)")]
    }
    var forms: [ReadingForm] = []
    var finalKey: UInt64 = 0
    // Four-digit groups, largest first, as NumberWords reads them.
    let groups: [(UInt64, Int?)] = [
      (UInt64(value / 10_000_000_000_000_000), 3), (UInt64(value / 1_000_000_000_000 % 10_000), 2), (UInt64(value / 100_000_000 % 10_000), 1),
      (UInt64(value / 10_000 % 10_000), 0), (UInt64(value % 10_000), nil),
    ]
    for (group, unit) in groups where group > 0 {
      let hundreds = group / 100 % 10, thousands = group / 1000
      if [3, 6, 8].contains(hundreds) { forms.append(ReadingForm(id: "百/after:\(hundreds)")) }
      if [3, 8].contains(thousands) { forms.append(ReadingForm(id: "千/after:\(thousands)")) }
      let key = GroupWords.table.keys[Int(group)]
      guard let unit else {
        finalKey = key
        continue
      }
      if LargeUnits.forms[unit][LargeUnits.slot(for: key)] != nil, !(key == 1000 && GroupWords.table.hasMultiplier[Int(group)]) {
        let symbol = LargeUnits.inOrder[unit].symbol
        forms.append(ReadingForm(id: "\(symbol)/final:\(key)", rule: rule(key: key, base: LargeUnits.inOrder[unit].reading, counter: LargeUnits.inOrder[unit])))
      }
      finalKey = LargeUnits.values[unit]
    }
    if let counter, counter.finalSegment(for: finalKey) != nil {
      forms.append(ReadingForm(id: "\(counter.symbol)/final:\(finalKey)", rule: rule(key: finalKey, base: counter.reading, counter: counter)))
    }
    return forms
  }

  /// 元年 (がんねん), the first year of any era.
  package static func firstYear(of era: Era) -> ReadingForm {
    ReadingForm(id: "era:\(era.name)/1", rule: "era:first-year")
  }

  /// What a counter's final-component form does to the counter, when it is the usual pattern: a
  /// changed number before the counter's reading, whose first kana may change row (はっ + ほ→ぽ).
  /// Two counters whose forms for a key do the same share the rule.
  static func rule(key: UInt64, base: String, counter: Counter) -> String? {
    guard let form = counter.finalSegment(for: key)?.alternatives.first else { return nil }
    let baseScalars = Array(base.unicodeScalars), formScalars = Array(form.unicodeScalars)
    guard let first = baseScalars.first, formScalars.count >= baseScalars.count,
      formScalars.suffix(baseScalars.count - 1).elementsEqual(baseScalars.dropFirst())
    else { return nil }
    let changed = formScalars[formScalars.count - baseScalars.count]
    guard let from = row(of: first), let to = row(of: changed) else { return nil }
    var prefix = ""
    prefix.unicodeScalars.append(contentsOf: formScalars.prefix(formScalars.count - baseScalars.count))
    return "final:\(key):\(prefix)+\(from)\(from == to ? "=" : "→")\(to)"
  }

  /// The consonant row of a kana whose row a sound change can move (h, b, p, k, g, s, z, t, d),
  /// or the kana itself for any other.
  private static func row(of kana: Unicode.Scalar) -> String? {
    let rows: [(String, String)] = [
      ("h", "はひふへほ"), ("b", "ばびぶべぼ"), ("p", "ぱぴぷぺぽ"), ("k", "かきくけこ"), ("g", "がぎぐげご"),
      ("s", "さしすせそ"), ("z", "ざじずぜぞ"), ("t", "たちつてと"), ("d", "だぢづでど"),
    ]
    for (name, kanas) in rows where kanas.unicodeScalars.contains(kana) { return name }
    return String(kana)
  }
}
