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
  /// whole-value, final-component or zero form when one applies. Every form is named in advance
  /// (here and in `Counter`), so this only looks them up: it runs for every question made.
  package static func of(_ value: UInt128) -> [ReadingForm] { forms(of: value, named: nil) }

  package static func of(_ value: UInt128, counter: Counter) -> [ReadingForm] {
    forms(of: value, named: counter.formNames)
  }

  /// Takes the counter's names (one object), not an optional `Counter`: making that optional
  /// copied, and so retained, every field of the counter for every question.
  private static func forms(of value: UInt128, named counter: Counter.FormNames?) -> [ReadingForm] {
    guard value <= JapaneseNumber.maximum else { return [] }
    if value == 0 { return counter?.zero.map { [$0] } ?? [] }
    if let counter, value <= UInt128(UInt64.max), let whole = counter.whole[UInt64(value)] { return [whole] }
    var forms: [ReadingForm] = []
    var finalKey: UInt64 = 0
    // Four-digit groups, largest first, as NumberWords reads them.
    func visit(_ group: UInt64, unit: Int?) {
      guard group > 0 else { return }
      if let form = hundreds[Int(group / 100 % 10)] { forms.append(form) }
      if let form = thousands[Int(group / 1000)] { forms.append(form) }
      let key = GroupWords.table.key(Int(group))
      guard let unit else {
        finalKey = key
        return
      }
      if LargeUnits.forms[unit][LargeUnits.slot(for: key)] != nil,
        !(key == 1000 && GroupWords.table.hasMultiplier(Int(group))),
        let form = LargeUnits.inOrder[unit].formNames.final[key]
      {
        forms.append(form)
      }
      finalKey = LargeUnits.values[unit]
    }
    visit(UInt64(value / 10_000_000_000_000_000), unit: 3)
    visit(UInt64(value / 1_000_000_000_000 % 10_000), unit: 2)
    visit(UInt64(value / 100_000_000 % 10_000), unit: 1)
    visit(UInt64(value / 10_000 % 10_000), unit: 0)
    visit(UInt64(value % 10_000), unit: nil)
    if let counter, let form = counter.final[finalKey] { forms.append(form) }
    return forms
  }

  /// さんびゃく, ろっぴゃく, はっぴゃく; さんぜん, はっせん: by the digit before 百 and 千.
  private static let hundreds: [ReadingForm?] = (0...9).map {
    [3, 6, 8].contains($0) ? ReadingForm(id: "百/after:\($0)") : nil
  }
  private static let thousands: [ReadingForm?] = (0...9).map {
    [3, 8].contains($0) ? ReadingForm(id: "千/after:\($0)") : nil
  }

  /// 元年 (がんねん), the first year of any era.
  package static func firstYear(of era: Era) -> ReadingForm {
    ReadingForm(id: "era:\(era.name)/1", rule: "era:first-year")
  }

  /// What a counter's final-component form does to the counter, when it is the usual pattern: a
  /// changed number before the counter's reading, whose first kana may change row (はっ + ほ→ぽ).
  /// Two counters whose forms for a key do the same share the rule.
  static func rule(key: UInt64, base: String, form: String?) -> String? {
    guard let form else { return nil }
    let baseScalars = Array(base.unicodeScalars)
    let formScalars = Array(form.unicodeScalars)
    guard let first = baseScalars.first, formScalars.count >= baseScalars.count,
      formScalars.suffix(baseScalars.count - 1).elementsEqual(baseScalars.dropFirst())
    else { return nil }
    let changed = formScalars[formScalars.count - baseScalars.count]
    guard let from = row(of: first), let to = row(of: changed) else { return nil }
    // Cut from the form's own text: appending the scalars one by one to a new string cost
    // more than the rest of this function.
    let scalars = form.unicodeScalars
    let prefix = String(scalars[..<scalars.index(scalars.startIndex, offsetBy: formScalars.count - baseScalars.count)])
    return "final:\(key):\(prefix)+\(from)\(from == to ? "=" : "→")\(to)"
  }

  /// The consonant row of a kana whose row a sound change can move (h, b, p, k, g, s, z, t, d),
  /// or the kana itself for any other.
  private static func row(of kana: Unicode.Scalar) -> String? {
    rows[kana] ?? String(kana)
  }

  /// Each kana of those rows, by its row: looked up, where searching the rows' spellings for
  /// every counter's every form was most of building the standard counter catalog, which the
  /// first reading in a process waits for.
  private static let rows: [Unicode.Scalar: String] = {
    let spelled: [(String, String)] = [
      ("h", "はひふへほ"), ("b", "ばびぶべぼ"), ("p", "ぱぴぷぺぽ"), ("k", "かきくけこ"), ("g", "がぎぐげご"),
      ("s", "さしすせそ"), ("z", "ざじずぜぞ"), ("t", "たちつてと"), ("d", "だぢづでど"),
    ]
    var rows: [Unicode.Scalar: String] = [:]
    for (name, kanas) in spelled {
      for kana in kanas.unicodeScalars { rows[kana] = name }
    }
    return rows
  }()
}
