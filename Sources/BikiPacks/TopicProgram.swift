import BikiCore
import BikiJapanese

/// A validated topic ready to generate: variables resolved to slots, counters to values,
/// expressions to slot lookups. A question is a pure function of (program, index).
struct TopicProgram: Sendable {
  enum Source: Sendable {
    case range(min: Int64, max: Int64, step: Int64)
    /// The items, and each one's reading: the declared one first, then every other form Biki
    /// reads the item's text with (5×9 ごっくしじゅうご, ごっくよんじゅうご too).
    case choice([ChoiceItem], readings: [Reading])
    case eraYear([(era: Era, year: Int)])
    case counters([Counter])
    /// Things to count: a number part that takes this variable as its counter counts one.
    case things([Thing])

    /// How many values the source takes; nil when that is more than a `UInt64` holds
    /// (a range from near Int64.min to near Int64.max with step 1).
    var count: UInt64? {
      switch self {
      case .range(let min, let max, let step): Source.rangeCount(min: min, max: max, step: step)
      case .choice(let items, _): UInt64(items.count)
      case .eraYear(let pairs): UInt64(pairs.count)
      case .counters(let counters): UInt64(counters.count)
      case .things(let things): UInt64(things.count)
      }
    }

    /// The values min, min+step, … up to max, counted without overflow: the distance between
    /// any two Int64 values fits a UInt64. Nil for an empty or uncountable range.
    static func rangeCount(min: Int64, max: Int64, step: Int64) -> UInt64? {
      guard min <= max, step > 0 else { return nil }
      let distance = UInt64(bitPattern: max &- min)
      let (count, overflow) = (distance / UInt64(step)).addingReportingOverflow(1)
      return overflow ? nil : count
    }
  }

  /// A thing and the counters it takes, the usual one first.
  struct Thing: Sendable {
    var name: String
    var reading: String
    var meaning: String
    var counters: [Counter]
    /// How many of `counters` are usual; the rest are less usual.
    var usualCount: Int
  }

  /// Independent variables, the first varying slowest; their slots are 0..<sources.count.
  var sources: [Source]
  /// Derived variables in evaluation order, each writing the slot after the previous.
  var derived: [SlotExpression]
  var parts: [Part]
  var answer: SlotExpression
  var answerPrefix: String
  var answerPostfix: String
  var acceptedAffixes: [String]
  var answerIsGrouped: Bool
  var answerShape: AnswerShape = .whole

  /// What the answer's value stands for.
  enum AnswerShape: Sendable {
    case whole
    case decimal(places: Int)
    case fraction(denominator: SlotExpression, slashed: Bool)
    /// Minutes after midnight, typed 16:05.
    case clock
  }

  enum Part: Sendable {
    case text(String, Reading)
    case number(SlotExpression, counter: CounterSource?, style: NumberStyle)
    case money(SlotExpression)
    case choice(slot: Int)
    case eraYear(slot: Int)
    /// Minutes after midnight, shown as a 24-hour clock shows them (16:05).
    case clock(SlotExpression)
  }

  enum NumberStyle: Equatable, Sendable {
    case grouped, plain, kanjiDigits
    /// Digit by digit, as phone numbers are read, shown with at least `width` digits.
    case digits(width: Int)
    /// The value ÷ 10^places, shown with that many digits after the point (36.5).
    case decimal(places: Int, grouped: Bool)
    /// The value over a denominator: 3分の1, or 1/3 when `slashed`.
    case fraction(denominator: SlotExpression, slashed: Bool)

    init(_ name: String, width: Int?) {
      switch name {
      case "plain": self = .plain
      case "kanjiDigits": self = .kanjiDigits
      case "digits": self = .digits(width: width ?? 1)
      default: self = .grouped
      }
    }
  }

  /// A counter fixed by the pack, or chosen per question by a `counters` variable.
  enum CounterSource: Sendable {
    case fixed(Counter)
    case variable(slot: Int)
  }

  func counter(_ source: CounterSource, _ slots: [Int64]) throws(ExpressionError) -> Counter {
    switch source {
    case .fixed(let counter): return counter
    case .variable(let slot):
      switch sources[slot] {
      case .counters(let counters): return counters[Int(slots[slot])]
      case .things(let things): return things[Int(slots[slot])].counters[0]
      default: throw .notACounter
      }
    }
  }

  /// The thing a question counts, when a number part takes a `things` variable as its counter.
  func countedThing(_ slots: [Int64]) throws -> CountedThing? {
    for case .number(let expression, .variable(let slot)?, let style) in parts {
      guard case .things(let things) = sources[slot] else { continue }
      let thing = things[Int(slots[slot])]
      let count = try expression.evaluate(self, slots)
      var phrases: [CountedPhrase] = []
      for (index, counter) in thing.counters.enumerated() {
        var ignored = ShownDate()
        let (display, kanji, reading) = try render(count, counter: counter, style: style, date: &ignored, slots: slots)
        phrases.append(
          CountedPhrase(
            display: display, kanjiDisplay: kanji, reading: reading, symbols: counter.symbols,
            isUncommon: index >= thing.usualCount))
      }
      return CountedThing(
        name: thing.name, reading: thing.reading, meaning: thing.meaning, count: count, phrases: phrases)
    }
    return nil
  }

  /// How many questions there are: the product of the sources' counts, or nil when it
  /// overflows. Validation and parameters keep it below `maximumSpace`.
  var spaceSize: UInt64? { Self.spaceSize(of: sources) }

  static func spaceSize(of sources: [Source]) -> UInt64? {
    var product: UInt64 = 1
    for source in sources {
      guard let count = source.count else { return nil }
      let (next, overflow) = product.multipliedReportingOverflow(by: count)
      if overflow { return nil }
      product = next
    }
    return product
  }

  /// The most questions a topic may have: question indices then fit an Int64 slot.
  static let maximumSpace = UInt64(Int64.max)

  /// Slot values for the question at `index`: choices hold their item index and era years
  /// their pair index in the slot; `value(of:)` turns them into numbers.
  func slots(at index: UInt64) throws(ExpressionError) -> [Int64] {
    var slots = [Int64](repeating: 0, count: sources.count + derived.count)
    var remainder = index
    for position in sources.indices.reversed() {
      // Every count is below `maximumSpace`, so the index within a source fits an Int64.
      let count = sources[position].count ?? 1
      slots[position] = Int64(truncatingIfNeeded: remainder % count)
      remainder /= count
    }
    for (offset, expression) in derived.enumerated() {
      slots[sources.count + offset] = try expression.evaluate(self, slots)
    }
    return slots
  }

  /// The number a slot stands for: a range value, a choice's value, an era year's Gregorian year.
  func value(of slot: Int, _ slots: [Int64]) -> Int64 {
    guard slot < sources.count else { return slots[slot] }
    switch sources[slot] {
    case .range(let min, _, let step):
      // min + i·step lies within min…max, so the wrapped result is the exact one even when
      // an intermediate product would overflow.
      return min &+ slots[slot] &* step
    case .choice(let items, _): return items[Int(slots[slot])].value
    case .eraYear(let pairs):
      let pair = pairs[Int(slots[slot])]
      return Int64(pair.era.gregorianYear(pair.year))
    case .counters, .things:
      return slots[slot]
    }
  }

  func eraYear(of slot: Int, _ slots: [Int64]) -> (era: Era, year: Int)? {
    guard slot < sources.count, case .eraYear(let pairs) = sources[slot] else { return nil }
    return pairs[Int(slots[slot])]
  }

  func question(topicID: String, index: UInt64) throws(GenerationError) -> Question {
    do {
      return try question(topicID: topicID, index: index, from: try rendered(at: index))
    } catch {
      throw GenerationError(topicID: topicID, reason: Self.reason(error))
    }
  }

  /// The question at `index` and, for the reading check, its parts as shown (nil where they
  /// cannot be read): each part is rendered once for both, as rendering is most of the cost
  /// of checking a question.
  func checkedQuestion(topicID: String, index: UInt64, reader: PhraseReader) throws(GenerationError) -> (
    question: Question, pieces: [ShownPiece]?
  ) {
    do {
      let parts = try rendered(at: index)
      return (try question(topicID: topicID, index: index, from: parts), try? shownPieces(parts, reader: reader))
    } catch {
      throw GenerationError(topicID: topicID, reason: Self.reason(error))
    }
  }

  private static func reason(_ error: any Error) -> String {
    switch error {
    case let error as ExpressionError: error.description
    case let error as ReadingError: error.description
    default: "\(error)"
    }
  }

  /// Each part of the question at `index` as shown, in order, and the slots they show.
  struct RenderedParts {
    var slots: [Int64]
    var parts: [(display: String, kanji: String, reading: Reading)]
    /// What the parts showing a date found, together.
    var date: ShownDate
  }

  func rendered(at index: UInt64) throws -> RenderedParts {
    let slots = try slots(at: index)
    var date = ShownDate()
    var rendered: [(display: String, kanji: String, reading: Reading)] = []
    rendered.reserveCapacity(parts.count)
    for part in parts { rendered.append(try render(part, slots, date: &date)) }
    return RenderedParts(slots: slots, parts: rendered, date: date)
  }

  private func question(topicID: String, index: UInt64, from rendered: RenderedParts) throws -> Question {
    let slots = rendered.slots
    var display = ""
    var kanji = ""
    var reading: Reading?
    // The counted phrase without the text parts around it, when there are any.
    var phrase: Reading?
    var hasText = false
    for (part, shown) in zip(parts, rendered.parts) {
      display += shown.display
      kanji += shown.kanji
      reading = reading.map { $0 + shown.reading } ?? shown.reading
      if case .text = part {
        hasText = true
      } else {
        phrase = phrase.map { $0 + shown.reading } ?? shown.reading
      }
    }
    if let problem = rendered.date.problem { throw ReadingError.unreadable(display, reason: problem) }
    let (value, shape) = try answer(slots)
    // The counter a question shows is the one its answer may carry (七通: 7通, never 7本).
    var affixes = acceptedAffixes
    for case .number(_, .variable(let slot)?, _) in parts {
      affixes += try counter(.variable(slot: slot), slots).symbols
    }
    // A count written whole is never written with its counter (十, never 10つ): the answer is
    // the number alone, and the counter is not accepted after it.
    var postfix = answerPostfix
    for case .number(let expression, let source?, _) in parts {
      let counter = try self.counter(source, slots)
      guard let shown = try? expression.evaluate(self, slots), shown >= 0, counter.writtenWhole[UInt64(shown)] != nil
      else { continue }
      affixes.removeAll { counter.symbols.contains($0) }
      if counter.symbols.contains(postfix) { postfix = "" }
    }
    return Question(
      topicID: topicID, seed: index, display: display, kanjiDisplay: kanji, reading: reading ?? Reading(""),
      answer: Answer(
        value: value, prefix: answerPrefix, postfix: postfix, acceptedAffixes: affixes,
        isGrouped: answerIsGrouped, shape: shape), counted: try countedThing(slots),
      phraseReading: hasText ? phrase : nil)
  }

  /// The forms the question at `index` exercises (none when it cannot be made).
  func forms(index: UInt64) -> [ReadingForm] {
    guard let slots = try? slots(at: index) else { return [] }
    var forms: [ReadingForm] = []
    for part in parts {
      switch part {
      case .text, .choice, .clock, .number(_, _, .decimal), .number(_, _, .fraction): break
      case .number(let expression, let counterSource, _):
        guard let value = try? expression.evaluate(self, slots), value >= 0 else { continue }
        let counter = counterSource.flatMap { try? self.counter($0, slots) }
        forms += counter.map { ReadingForms.of(UInt128(value), counter: $0) } ?? ReadingForms.of(UInt128(value))
      case .money(let expression):
        guard let value = try? expression.evaluate(self, slots), value >= 0 else { continue }
        forms += ReadingForms.of(UInt128(value), counter: .yen)
      case .eraYear(let slot):
        guard let pair = eraYear(of: slot, slots) else { continue }
        forms +=
          pair.year == 1 ? [ReadingForms.firstYear(of: pair.era)] : ReadingForms.of(UInt128(pair.year), counter: .year)
      }
    }
    return forms
  }

  func render(_ part: Part, _ slots: [Int64], date: inout ShownDate) throws -> (String, String, Reading) {
    switch part {
    case .text(let text, let reading):
      return (text, text, reading)
    case .number(let expression, let counterSource, let style):
      let counter = try counterSource.map { source throws(ExpressionError) in try self.counter(source, slots) }
      return try render(try expression.evaluate(self, slots), counter: counter, style: style, date: &date, slots: slots)
    case .money(let expression):
      let value = try expression.evaluate(self, slots)
      guard value >= 0 else {
        throw ReadingError.unreadable(String(value), reason: "negative amounts have no reading here")
      }
      return (
        "¥" + NumberFormatting.grouped(value), JapaneseNumber.kanji(UInt128(value)) + "円",
        try JapaneseNumber.reading(of: UInt128(value), with: .yen)
      )
    case .choice(let slot):
      guard case .choice(let items, let readings) = sources[slot] else { throw ExpressionError.notAChoice }
      let index = Int(slots[slot])
      return (items[index].text, items[index].text, readings[index])
    case .eraYear(let slot):
      guard let pair = eraYear(of: slot, slots) else { throw ExpressionError.notAnEraYear("eraYear") }
      date.era = pair
      let first = pair.year == 1
      let reading = first ? Reading("がんねん") : try JapaneseNumber.reading(of: UInt128(pair.year), with: .year)
      return (
        pair.era.name + (first ? "元年" : "\(pair.year)年"),
        pair.era.name + (first ? "元年" : JapaneseNumber.kanji(UInt128(pair.year)) + "年"),
        Reading(pair.era.reading) + reading
      )
    case .clock(let expression):
      let minutes = try expression.evaluate(self, slots)
      guard (0..<24 * 60).contains(minutes) else {
        throw ReadingError.unreadable(
          String(minutes), reason: "a time of day is 0 to 1439 minutes after midnight (0:00 to 23:59)")
      }
      let hour = minutes / 60
      let minute = minutes % 60
      let kanji =
        JapaneseNumber.kanji(UInt128(hour)) + "時" + (minute == 0 ? "" : JapaneseNumber.kanji(UInt128(minute)) + "分")
      return (
        NumberFormatting.clock(minutes: minutes), kanji,
        try JapaneseNumber.clockReading(hour: Int(hour), minute: Int(minute))
      )
    }
  }

  /// The answer as typed for the question with these slots.
  func answer(_ slots: [Int64]) throws(ExpressionError) -> (value: Int64, shape: Answer.Shape) {
    let value = try answer.evaluate(self, slots)
    switch answerShape {
    case .whole: return (value, .whole)
    case .decimal(let places): return (value, .decimal(places: places))
    case .fraction(let denominator, let slashed):
      return (value, .fraction(denominator: try denominator.evaluate(self, slots), slashed: slashed))
    case .clock: return (value, .clock)
    }
  }
}

extension TopicProgram {
  /// A number as shown with digits, in kanji, and read, with its counter if it has one.
  func render(_ value: Int64, counter: Counter?, style: NumberStyle, date: inout ShownDate, slots: [Int64] = []) throws
    -> (String, String, Reading)
  {
    let symbol = counter?.symbol ?? ""
    if value < 0, let counter, counter.symbols.contains("円") {
      throw ReadingError.unreadable(String(value) + symbol, reason: "an amount of money is never below zero")
    }
    switch style {
    case .decimal(let places, let grouped):
      let (whole, digits) = NumberFormatting.decimalParts(value.magnitude, places: places)
      let reading = try JapaneseNumber.decimalReading(whole: UInt128(whole), fraction: digits, counter: counter)
      let kanji = JapaneseNumber.kanji(UInt128(whole)) + "・" + String(digits.map { Self.kanjiDigits[Int($0)] })
      return signed(
        value < 0, NumberFormatting.decimal(value, places: places, grouped: grouped) + symbol, kanji + symbol, reading)
    case .fraction(let denominatorExpression, let slashed):
      let denominator = try denominatorExpression.evaluate(self, slots)
      guard value >= 0, denominator >= 1 else {
        throw ReadingError.unreadable(
          "\(value)/\(denominator)", reason: "a fraction has a numerator of 0 or more and a denominator of 1 or more")
      }
      let reading = try JapaneseNumber.fractionReading(
        numerator: UInt128(value), denominator: UInt128(denominator), counter: counter)
      let kanji = JapaneseNumber.kanji(UInt128(denominator)) + "分の" + JapaneseNumber.kanji(UInt128(value))
      return ((slashed ? "\(value)/\(denominator)" : "\(denominator)分の\(value)") + symbol, kanji + symbol, reading)
    default: break
    }
    if value < 0 {
      guard value != .min else { throw ReadingError.tooLarge(String(value)) }
      // Below zero, as temperatures are: -5度 まいなすごど. Not a date, an hour, a count written
      // whole, or a number read digit by digit.
      guard style == .grouped || style == .plain,
        counter.map({ $0.kind != .date && $0.kind != .time && $0.validValues == nil && $0.writtenWhole.isEmpty })
          ?? true
      else {
        throw ReadingError.unreadable(
          String(value) + symbol,
          reason: "\(counter.map { "a number with \($0.symbol)" } ?? "a number in this style") is never below zero")
      }
      let (display, kanji, reading) = try render(-value, counter: counter, style: style, date: &date)
      return signed(true, "-" + display, kanji, reading)
    }
    if case .digits(let width) = style {
      var shown = String(value)
      if shown.count < width { shown = String(repeating: "0", count: width - shown.count) + shown }
      return (shown, shown, JapaneseNumber.digitByDigit(shown.utf8.map { $0 - 0x30 }))
    }
    let digits = style == .grouped ? NumberFormatting.grouped(value) : String(value)
    let kanji =
      style == .kanjiDigits ? JapaneseNumber.kanjiDigits(UInt128(value)) : JapaneseNumber.kanji(UInt128(value))
    if let counter { date.note(value, counter: counter) }
    if let written = counter?.writtenWhole[UInt64(value)], let counter {
      return (written, written, try JapaneseNumber.reading(of: UInt128(value), with: counter))
    }
    let reading =
      try counter.map { try JapaneseNumber.reading(of: UInt128(value), with: $0) }
      ?? JapaneseNumber.reading(of: UInt128(value))
    return (digits + symbol, kanji + symbol, reading)
  }

  /// A number below zero as shown in digits (already signed), in kanji (マイナス五度) and read.
  private func signed(_ negative: Bool, _ display: String, _ kanji: String, _ reading: Reading) -> (
    String, String, Reading
  ) {
    negative ? (display, "マイナス" + kanji, JapaneseNumber.negative(reading)) : (display, kanji, reading)
  }

  private static let kanjiDigits: [Character] = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
}

/// The year, month and day a question shows, so a question never shows a date that did not
/// exist (9月31日, 令和元年4月30日).
struct ShownDate {
  var era: (era: Era, year: Int)?
  var year: Int?
  var month: Int?
  var day: Int?

  mutating func note(_ value: Int64, counter: Counter) {
    guard counter.kind == .date, let value = Int(exactly: value) else { return }
    switch counter.id {
    case Counter.year.id: year = value
    case Counter.month.id: month = value
    case Counter.dayOfMonth.id: day = value
    default: break
    }
  }

  /// Why the date shown is not one, if it is not.
  var problem: String? {
    let gregorian = era.map { $0.era.gregorianYear($0.year) } ?? year
    if let month, let day, let length = CalendarDate.daysIn(month: month, year: gregorian), day > length {
      return "\(month)月\(day)日 is not a date: \(month)月 has \(length) days" + (gregorian.map { " in \($0)" } ?? "")
    }
    if let (era, year) = era, !era.contains(year: year, month: month, day: day) {
      let written =
        "\(era.name)\(year == 1 ? "元" : String(year))年" + (month.map { "\($0)月" } ?? "") + (day.map { "\($0)日" } ?? "")
      return "\(written) did not exist: \(era.name) began on \(era.start)"
        + (era.successor.map { " and ended before \($0.start)" } ?? "")
    }
    return nil
  }
}

/// An `Expression` with its variables resolved to slots.
indirect enum SlotExpression: Sendable, Equatable {
  case literal(Int64)
  case slot(Int)
  case negate(SlotExpression)
  case binary(Expression.Operator, SlotExpression, SlotExpression)
  case gregorian(slot: Int)
  case eraYear(slot: Int)

  /// Nil when a variable it reads has no slot (its definition had errors).
  init?(_ expression: Expression, slots: [String: Int]) {
    switch expression {
    case .literal(let value): self = .literal(value)
    case .variable(let name):
      guard let slot = slots[name] else { return nil }
      self = .slot(slot)
    case .unary(let operand):
      guard let operand = SlotExpression(operand, slots: slots) else { return nil }
      self = .negate(operand)
    case .binary(let op, let left, let right):
      guard let left = SlotExpression(left, slots: slots), let right = SlotExpression(right, slots: slots) else {
        return nil
      }
      self = .binary(op, left, right)
    case .call(let function, let name):
      guard let slot = slots[name] else { return nil }
      self = function == .gregorian ? .gregorian(slot: slot) : .eraYear(slot: slot)
    }
  }

  func evaluate(_ program: TopicProgram, _ slots: [Int64]) throws(ExpressionError) -> Int64 {
    switch self {
    case .literal(let value): return value
    case .slot(let slot): return program.value(of: slot, slots)
    case .negate(let operand):
      let (result, overflow) = Int64(0).subtractingReportingOverflow(try operand.evaluate(program, slots))
      if overflow { throw .overflow }
      return result
    case .binary(let op, let left, let right):
      let a = try left.evaluate(program, slots)
      let b = try right.evaluate(program, slots)
      let (result, overflow): (Int64, Bool)
      switch op {
      case .add: (result, overflow) = a.addingReportingOverflow(b)
      case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
      case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
      case .divide:
        guard b != 0 else { throw .divisionByZero }
        (result, overflow) = a.dividedReportingOverflow(by: b)
      case .remainder:
        guard b != 0 else { throw .divisionByZero }
        (result, overflow) = a.remainderReportingOverflow(dividingBy: b)
      }
      if overflow { throw .overflow }
      return result
    case .gregorian(let slot):
      guard let pair = program.eraYear(of: slot, slots) else { throw .notAnEraYear("gregorian") }
      return Int64(pair.era.gregorianYear(pair.year))
    case .eraYear(let slot):
      guard let pair = program.eraYear(of: slot, slots) else { throw .notAnEraYear("eraYear") }
      return Int64(pair.year)
    }
  }
}
