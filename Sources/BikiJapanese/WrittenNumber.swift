/// What kind of number a value stands for, as it is written. One list for every path that
/// shows, reads or judges a number: a pack's parts and answers, a plugin's answers, the phrase
/// reader and the answer checker.
package enum NumberShape: Hashable, Sendable, Codable {
  case whole
  /// The value ÷ 10^places: 365 with 1 place is 36.5.
  case decimal(places: Int)
  /// The value is the numerator: 1 over 3, written 3分の1, or 1/3 when `slashed` (how it is
  /// written, not what it is: two fractions are the same number either way).
  case fraction(denominator: Int64, slashed: Bool)
  /// The value is minutes after midnight, written as a 24-hour clock shows them: 965 is 16:05.
  case clock
  /// Digits said one by one (a phone number's group, a postcode, 0857), at least `width` of
  /// them: the value is what they spell, the width keeps their leading zeros.
  case code(width: Int)

  /// For messages: "a decimal with 1 digit after the point".
  package var name: String {
    switch self {
    case .whole: "a whole number"
    case .decimal(let places): "a decimal with \(places) digit\(places == 1 ? "" : "s") after the point"
    case .fraction: "a fraction"
    case .clock: "a time of day"
    case .code(let width): "a code of \(width) digit\(width == 1 ? "" : "s") read one by one"
    }
  }

  /// Whether two shapes write the same kind of number: a fraction is one whether it is written
  /// 3分の1 or 1/3.
  package func isSameKind(as other: NumberShape) -> Bool {
    switch (self, other) {
    case (.fraction(let mine, _), .fraction(let theirs, _)): mine == theirs
    default: self == other
    }
  }
}

/// A number as a learner sees it: its value and shape, the unit or counter written after it,
/// and for a year the era it is counted in. What the phrase reader finds in a text
/// (`PhraseReader.numbers(in:)`), and what an answer is compared with.
package struct WrittenNumber: Hashable, Sendable, CustomStringConvertible {
  /// Below zero when the number is shown with a sign Biki reads (-5度, マイナス5度, 氷点下5度).
  package var value: Int64
  package var shape: NumberShape
  /// The unit or counter after it, as written (本, 度, 円, 時間); nil for none.
  package var unit: String?
  /// The era a year is counted in (令和5年): the same year as its Gregorian one (2023年).
  package var era: Era?

  package init(value: Int64, shape: NumberShape = .whole, unit: String? = nil, era: Era? = nil) {
    self.value = value
    self.shape = shape
    self.unit = unit
    self.era = era
  }

  /// Whether `value` in `shape` is this number: the same kind of number and the same value, or
  /// for an era's year its Gregorian year (令和5年 is 2023).
  package func isSame(value other: Int64, shape otherShape: NumberShape) -> Bool {
    guard shape.isSameKind(as: otherShape) else { return false }
    if other == value { return true }
    guard let era, shape == .whole, let year = Int(exactly: value), year >= 1 else { return false }
    return Int64(era.gregorianYear(year)) == other
  }

  /// Whether its digits are said one by one.
  package var isCode: Bool {
    if case .code = shape { true } else { false }
  }

  /// As written in digits, for messages: 38.6度, -5度, 3分の1, 16:05, 0857.
  package var description: String {
    let sign = value < 0 ? "-" : ""
    let magnitude = value.magnitude
    let number: String
    switch shape {
    case .whole: number = sign + String(magnitude)
    case .decimal(let places):
      var digits = String(magnitude)
      if digits.count <= places { digits = String(repeating: "0", count: places - digits.count + 1) + digits }
      number = sign + digits.dropLast(places) + "." + digits.suffix(places)
    case .fraction(let denominator, let slashed):
      number = slashed ? "\(sign)\(magnitude)/\(denominator)" : "\(sign)\(denominator)分の\(magnitude)"
    case .clock: number = "\(magnitude / 60):" + (magnitude % 60 < 10 ? "0" : "") + String(magnitude % 60)
    case .code(let width):
      let digits = String(magnitude)
      number = String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return (era?.name ?? "") + number + (unit ?? "")
  }
}
