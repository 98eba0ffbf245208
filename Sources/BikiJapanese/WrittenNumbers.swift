/// The numbers a text shows, for checking an answer against what a learner sees: each run of
/// numerals (digits of any width with separators, kanji numerals with their units), 元 before 年
/// as 1, and for an era year its Gregorian year as well (令和元年 shows 1 and 2019).
public enum WrittenNumbers {
  public static func values(in text: String) -> Set<UInt128> {
    var values = Set<UInt128>()
    let characters = Array(text)
    var index = 0
    while index < characters.count {
      guard KanjiNumeral.isPartOfNumber(characters[index]) || characters[index] == "元" else {
        index += 1
        continue
      }
      let start = index
      if characters[index] == "元" {
        index += 1
        guard index < characters.count, characters[index] == "年" else { continue }
        record(1, startingAt: start, in: characters, into: &values)
        continue
      }
      while index < characters.count, KanjiNumeral.isPartOfNumber(characters[index]) { index += 1 }
      // Separators at the edges belong to the text around the number ("1, 2").
      let run = String(characters[start..<index]).trimmingCharacters(in: [",", "，"])
      if let value = KanjiNumeral.parse(Substring(run)) { record(value, startingAt: start, in: characters, into: &values) }
    }
    return values
  }

  /// A value, and its Gregorian year when an era name comes just before it and 年 after it.
  private static func record(_ value: UInt128, startingAt start: Int, in characters: [Character], into values: inout Set<UInt128>) {
    values.insert(value)
    let before = String(characters[max(0, start - 2)..<start])
    var end = start
    while end < characters.count, characters[end] != "年", end - start < 40 { end += 1 }
    guard end < characters.count, characters[end] == "年", let era = Era.named(before), value >= 1, value <= 10_000 else { return }
    values.insert(UInt128(era.gregorianYear(Int(value))))
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
    String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
  }
}
