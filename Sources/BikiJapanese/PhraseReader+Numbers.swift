/// The numbers a phrase shows, read by the same tokens as its reading, so what Biki says a
/// text reads and what it says the text's numbers are can never disagree.
extension PhraseReader {
  /// Every number `text` shows, in order, with its shape, its unit and its sign: `38.6度` is one
  /// decimal, `1時間30分` two whole numbers, `16:05発` one time of day, `090-1234-5678` three
  /// codes, `令和5年` the year 5 of 令和. Throws where the text cannot be read at all.
  package func numbers(in text: String) throws(ReadingError) -> [WrittenNumber] {
    try readWithNumbers(text).numbers
  }

  /// The reading of `text` and the numbers it shows, from one pass of the tokenizer.
  package func readWithNumbers(_ text: String) throws(ReadingError) -> (reading: Reading, numbers: [WrittenNumber]) {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty else { throw .unreadable(text, reason: "it is empty") }
    if let reading = try EverydayNumbers.reading(of: trimmed) {
      return (reading, EverydayNumbers.numbers(of: trimmed))
    }
    let tokens = try PhraseTokenizer(catalog: catalog).tokens(of: trimmed)
    let reading = try PhraseInterpreter(catalog: catalog, text: trimmed, kind: nil).reading(of: tokens)
    return (reading, try Self.numbers(of: tokens, text: trimmed))
  }

  private static func numbers(of tokens: [PhraseToken], text: String) throws(ReadingError) -> [WrittenNumber] {
    var numbers: [WrittenNumber] = []
    var negative = false
    var era: Era?
    func add(_ magnitude: UInt128, _ shape: NumberShape, _ unit: String?) throws(ReadingError) {
      guard let value = Int64(exactly: magnitude) else { throw .tooLarge(String(magnitude)) }
      numbers.append(WrittenNumber(value: negative ? -value : value, shape: shape, unit: unit, era: era))
      negative = false
      era = nil
    }
    for token in tokens {
      switch token {
      case .prefix(let word):
        if let named = Era.named(word) { era = named }
        if PhraseTokenizer.belowZero.contains(word) { negative = true }
      case .firstYear(let fiscal): try add(1, .whole, fiscal ? "年度" : "年")
      case .word: continue
      // 半 (9時半) halves what is before it; と (1と2分の1) joins a whole number to a fraction.
      case .number(_, "半"): continue
      case .number(let value, let symbol): try add(value, .whole, symbol == "と" ? nil : symbol)
      case .decimal(let whole, let fraction, let unit, let symbol):
        let (value, places) = try scaled(whole, fraction: fraction, by: unit, text: text)
        try add(value, places == 0 ? .whole : .decimal(places: places), symbol)
      case .fraction(let denominator, let numerator, let slashed, let symbol):
        guard let below = Int64(exactly: denominator) else { throw .tooLarge(String(denominator)) }
        try add(numerator, .fraction(denominator: below, slashed: slashed), symbol)
      case .clock(let hour, let minute, let symbol):
        try add(UInt128(hour * 60 + minute), .clock, symbol)
      case .code(let digits, let symbol):
        try add(digits.reduce(UInt128(0)) { $0 * 10 + UInt128($1) }, .code(width: digits.count), symbol)
      }
    }
    return numbers
  }

  /// A decimal with a large unit after it as the number it is: 1.2億 is 120,000,000, a whole
  /// number; 1.23456万 is 12,345.6.
  private static func scaled(_ whole: UInt128, fraction: [UInt8], by unit: String?, text: String) throws(ReadingError)
    -> (UInt128, Int)
  {
    var value = whole
    for digit in fraction {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      guard !overflow else { throw .tooLarge(text) }
      value = shifted + UInt128(digit)
    }
    var places = fraction.count
    var zeros = ["万": 4, "億": 8, "兆": 12][unit ?? ""] ?? 0
    while zeros > 0 {
      if places > 0 {
        places -= 1
      } else {
        let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
        guard !overflow else { throw .tooLarge(text) }
        value = shifted
      }
      zeros -= 1
    }
    return (value, places)
  }
}

extension EverydayNumbers {
  /// The numbers of a text whose whole shape `reading(of:)` has read as one of daily life's: a
  /// phone number's groups as codes, an address's as whole numbers, a time, a score's two
  /// sides, a line of 九九's factors (and its product, when written).
  static func numbers(of text: String) -> [WrittenNumber] {
    let scalars = Array(text.unicodeScalars)
    var numbers: [WrittenNumber] = []
    var digits: [UInt8] = []
    func endGroup(code: Bool) {
      guard !digits.isEmpty else { return }
      let value = digits.reduce(Int64(0)) { $0 * 10 + Int64($1) }
      numbers.append(WrittenNumber(value: value, shape: code ? .code(width: digits.count) : .whole))
      digits = []
    }
    if scalars.contains(where: { $0 == ":" || $0 == "：" }) {
      let values = scalars.split { $0 == ":" || $0 == "：" }.map {
        $0.compactMap(digit).reduce(0) { $0 * 10 + Int64($1) }
      }
      // reading(of:) read it as a clock: an hour and two digits of minutes.
      guard values.count == 2 else { return [] }
      return [WrittenNumber(value: values[0] * 60 + values[1], shape: .clock)]
    }
    // Groups joined by hyphens: a phone number or postcode (a leading 0, or 〒) by digit.
    let byDigit = scalars.first == "〒" || scalars.first.flatMap(digit) == 0
    let isGroups = scalars.allSatisfy { digit($0) != nil || $0 == "〒" || ["-", "－", "‐", "−"].contains($0) }
    for scalar in scalars where scalar != "〒" {
      if let value = digit(scalar) {
        digits.append(value)
      } else {
        endGroup(code: isGroups && byDigit)
      }
    }
    endGroup(code: isGroups && byDigit)
    return numbers
  }
}
