/// The shapes a number takes after its first numeral: a point and digits (36.5), 分の or a slash
/// and a numerator (3分の1, 1/3), a colon and minutes (16:05), or leading zeros (0857, a code).
extension PhraseTokenizer {
  /// Digits after a point (`36.5`, `0.01`), or kanji digits after 中黒 as kanji write a decimal
  /// (`三十八・六`), then a large unit and a counter; nil when no point follows the number. Ten
  /// digits after the point at most.
  func decimal(
    _ whole: UInt128, numeral: Slice<UnsafeBufferPointer<Unicode.Scalar>>, at position: inout Int,
    in scalars: UnsafeBufferPointer<Unicode.Scalar>, symbols: FirstScalarIndex
  ) throws(ReadingError) -> PhraseToken? {
    guard position + 1 < scalars.count else { return nil }
    let digit: (Unicode.Scalar) -> UInt8?
    switch scalars[position] {
    case ".", "．":
      digit = EverydayNumbers.digit
      guard numeral.allSatisfy({ EverydayNumbers.digit($0) != nil || $0 == "," || $0 == "，" }) else {
        guard digit(scalars[position + 1]) != nil else { return nil }
        throw .unreadable(
          String(String.UnicodeScalarView(scalars)), reason: "a decimal is written in digits, as in 36.5")
      }
    case "・":
      // Only between kanji numerals: 1・2 in digits is a list, not a decimal.
      guard numeral.allSatisfy({ EverydayNumbers.digit($0) == nil }) else { return nil }
      digit = { KanjiNumeral.digitValue($0).map { UInt8($0) } }
    default: return nil
    }
    guard digit(scalars[position + 1]) != nil else { return nil }
    var end = position + 1
    var fraction: [UInt8] = []
    while end < scalars.count, let next = digit(scalars[end]) {
      fraction.append(next)
      end += 1
    }
    guard fraction.count <= 10 else {
      throw .unreadable(String(String.UnicodeScalarView(scalars)), reason: "more than ten digits after the point")
    }
    position = end
    var unit: String?
    if position < scalars.count, ["万", "億", "兆"].contains(scalars[position]) {
      unit = String(scalars[position])
      position += 1
    }
    let symbol = symbols.longestPrefix(of: scalars[position...])
    position += symbol?.length ?? 0
    return .decimal(whole, fraction: fraction, unit: unit, symbol: symbol?.word)
  }

  /// `分の` and a numerator after a denominator (3分の1, 100分の1), or a slash and a
  /// denominator after a numerator (1/3), with what follows; nil when neither follows.
  func fraction(
    _ first: UInt128, at position: inout Int, in scalars: UnsafeBufferPointer<Unicode.Scalar>,
    symbols: FirstScalarIndex
  ) throws(ReadingError) -> PhraseToken? {
    let slashed: Bool
    if position + 2 < scalars.count, scalars[position] == "分", scalars[position + 1] == "の",
      KanjiNumeral.isPartOfNumber(scalars[position + 2])
    {
      slashed = false
    } else if position + 1 < scalars.count, scalars[position] == "/" || scalars[position] == "／",
      EverydayNumbers.digit(scalars[position + 1]) != nil
    {
      slashed = true
    } else {
      return nil
    }
    let start = position + (slashed ? 1 : 2)
    var end = start
    while end < scalars.count, KanjiNumeral.isPartOfNumber(scalars[end]) { end += 1 }
    guard let second = KanjiNumeral.parse(scalars: scalars[start..<end]) else {
      throw .unreadable(String(String.UnicodeScalarView(scalars)), reason: "a fraction is written as 3分の1 or 1/3")
    }
    let (denominator, numerator) = slashed ? (second, first) : (first, second)
    guard denominator > 0 else {
      throw .unreadable(String(String.UnicodeScalarView(scalars)), reason: "a fraction's denominator is at least 1")
    }
    position = end
    let symbol = symbols.longestPrefix(of: scalars[position...])
    position += symbol?.length ?? 0
    return .fraction(denominator: denominator, numerator: numerator, slashed: slashed, symbol: symbol?.word)
  }

  /// An hour of one or two digits, a colon and two digits of minutes (16:05, 0:15), with what
  /// follows (16:05発); nil when no colon follows the hour.
  func clock(
    _ numeral: Slice<UnsafeBufferPointer<Unicode.Scalar>>, at position: inout Int,
    in scalars: UnsafeBufferPointer<Unicode.Scalar>, symbols: FirstScalarIndex
  ) throws(ReadingError) -> PhraseToken? {
    guard position < scalars.count, scalars[position] == ":" || scalars[position] == "：" else { return nil }
    let hourDigits = numeral.compactMap(EverydayNumbers.digit)
    let minutes = scalars[(position + 1)...].prefix { EverydayNumbers.digit($0) != nil }.compactMap(
      EverydayNumbers.digit)
    guard hourDigits.count == numeral.count, (1...2).contains(hourDigits.count), minutes.count == 2 else {
      throw .unreadable(
        String(String.UnicodeScalarView(scalars)), reason: "a time is written with two digits of minutes, as in 16:05")
    }
    position += 3
    let symbol = symbols.longestPrefix(of: scalars[position...])
    position += symbol?.length ?? 0
    return .clock(
      hour: hourDigits.reduce(0) { $0 * 10 + Int($1) }, minute: Int(minutes[0]) * 10 + Int(minutes[1]),
      symbol: symbol?.word)
  }

  /// Digits with a leading zero (0857, 007): a code, read digit by digit as phone numbers and
  /// postcodes are, never a quantity (a count is not written with a leading zero). Nil for a
  /// numeral that is not such a run, or that a point follows (0.5 is a decimal).
  func code(_ numeral: Slice<UnsafeBufferPointer<Unicode.Scalar>>, next: Unicode.Scalar?) -> [UInt8]? {
    guard numeral.count >= 2, next != "." && next != "．" else { return nil }
    let digits = numeral.compactMap(EverydayNumbers.digit)
    guard digits.count == numeral.count, digits.first == 0 else { return nil }
    return digits
  }
}
