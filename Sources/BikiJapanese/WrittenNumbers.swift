/// The numbers a text shows, for checking an answer against what a learner sees: each run of
/// numerals (digits of any width with separators, kanji numerals with their units), 元 before 年
/// as 1, and for an era year its Gregorian year as well (令和元年 shows 1 and 2019).
package enum WrittenNumbers {
  package static func values(in text: String) -> [UInt128] {
    // Numerals, 元, 年 and era names are single scalars: no need to form Characters.
    text.withScalars { scalars in
      // Room for a number and its Gregorian year: growing the array cost a second allocation.
      var values: [UInt128] = []
      values.reserveCapacity(2)
      var index = 0
      while index < scalars.count {
        let start = index
        if scalars[index] == "元" {
          index += 1
          if index < scalars.count, scalars[index] == "年" { record(1, startingAt: start, in: scalars, into: &values) }
          continue
        }
        guard KanjiNumeral.isPartOfNumber(scalars[index]) else {
          index += 1
          continue
        }
        while index < scalars.count, KanjiNumeral.isPartOfNumber(scalars[index]) { index += 1 }
        // Separators at the edges belong to the text around the number ("1, 2").
        var run = scalars[start..<index]
        while let first = run.first, first == "," || first == "，" { run = run.dropFirst() }
        while let last = run.last, last == "," || last == "，" { run = run.dropLast() }
        if let value = digits(run) ?? KanjiNumeral.parse(scalars: run) {
          record(value, startingAt: start, in: scalars, into: &values)
        }
      }
      return values
    }
  }

  /// A value, and its Gregorian year when an era name comes just before it and 年 after it.
  /// A run of digits and separators only (1,500 or １５００), read without forming a string: the
  /// common case, for every question a plugin writes. Nil for anything else.
  private static func digits(_ run: Slice<UnsafeBufferPointer<Unicode.Scalar>>) -> UInt128? {
    var value: UInt128 = 0
    var sawDigit = false
    for scalar in run {
      let digit: UInt32
      switch scalar.value {
      case 0x30...0x39: digit = scalar.value - 0x30
      case 0xFF10...0xFF19: digit = scalar.value - 0xFF10
      case 0x2C, 0xFF0C: continue
      default: return nil
      }
      sawDigit = true
      guard value < UInt128(UInt64.max) else { return nil }
      value = value * 10 + UInt128(digit)
    }
    return sawDigit ? value : nil
  }

  private static func record(
    _ value: UInt128, startingAt start: Int, in scalars: UnsafeBufferPointer<Unicode.Scalar>,
    into values: inout [UInt128]
  ) {
    values.append(value)
    guard start >= 2, value >= 1, value <= 10_000 else { return }
    var end = start
    while end < scalars.count, scalars[end] != "年", end - start < 40 { end += 1 }
    guard end < scalars.count, scalars[end] == "年" else { return }
    guard let era = eraNames.first(where: { $0.first == scalars[start - 2] && $0.second == scalars[start - 1] })?.era
    else { return }
    values.append(UInt128(era.gregorianYear(Int(value))))
  }

  /// Era names are two scalars: compared in place, without forming a string per number.
  private static let eraNames: [(first: Unicode.Scalar, second: Unicode.Scalar, era: Era)] = Era.all.compactMap { era in
    let scalars = Array(era.name.unicodeScalars)
    return scalars.count == 2 ? (scalars[0], scalars[1], era) : nil
  }
}
