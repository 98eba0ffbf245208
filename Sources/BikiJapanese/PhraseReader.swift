import Glibc

/// What kind of phrase a text is, when the text alone is ambiguous (1日: a day, or the 1st?
/// 1組: one set, or class 1?).
package enum PhraseKind: String, CaseIterable, Sendable {
  case number, money, duration, date, time, counter
  /// A number that names: class 1組 いちくみ.
  case name
}

/// Reads written phrases aloud in kana: `8本`, `¥1,500`, `令和元年`, `午後4時`, `9時半`,
/// `5月5日`, `1時間30分`, `三百五十`.
package struct PhraseReader: Sendable {
  var catalog: CounterCatalog

  package init(catalog: CounterCatalog = .standard) {
    self.catalog = catalog
  }

  package func read(_ text: String, as kind: PhraseKind? = nil) throws(ReadingError) -> Reading {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty else { throw .unreadable(text, reason: "it is empty") }
    if let whole = try EverydayNumbers.reading(of: trimmed) { return whole }
    let tokens = try PhraseTokenizer(catalog: catalog).tokens(of: trimmed)
    return try PhraseInterpreter(catalog: catalog, text: trimmed, kind: kind).reading(of: tokens)
  }
}

/// One piece of a phrase: a word before numbers (午後, 令和, ¥) or a number with what follows it.
enum PhraseToken: Equatable {
  case prefix(String)
  case number(UInt128, symbol: String?)
  /// 36.5度, 1.2億円: the whole part, the digits after the point, a large unit (万, 億, 兆) and
  /// what follows.
  case decimal(UInt128, fraction: [UInt8], unit: String?, symbol: String?)
  /// 3分の1 or 1/3 (`slashed`): denominator, numerator, and what follows them.
  case fraction(denominator: UInt128, numerator: UInt128, slashed: Bool, symbol: String?)
  /// 16:05: the hour, the minutes, and what follows (16:05発).
  case clock(hour: Int, minute: Int, symbol: String?)
  /// 0857: digits said one by one, and what follows.
  case code([UInt8], symbol: String?)
  /// 元年 (or 元年度, the first fiscal year): the first year of an era, and what follows 元.
  case firstYear(fiscal: Bool)
  /// A word read with the numbers around it (税込, 以上, 〜): one of `PhraseWords.table`.
  case word(String)
}

struct PhraseTokenizer {
  let catalog: CounterCatalog
  static let prefixes =
    ["午前", "午後"] + Array(PhraseTokenizer.currencies.keys) + Era.all.map(\.name) + Array(PhraseTokenizer.signs.keys)
  /// Currency signs written before an amount, and the unit each is read as after it.
  static let currencies: [String: Counter] = [
    "¥": .yen, "￥": .yen, "$": .dollar, "＄": .dollar, "€": .euro, "£": .pounds, "￡": .pounds,
  ]
  /// Words before a number that add their own reading: a sign, a place below zero, an ordinal,
  /// a road, an age before the common era.
  static let signs: [String: String] = [
    "マイナス": "まいなす", "-": "まいなす", "−": "まいなす", "－": "まいなす", "氷点下": "ひょうてんか", "零下": "れいか",
    "第": "だい", "国道": "こくどう", "紀元前": "きげんぜん",
  ]
  /// The signs that put the number after them below zero (of `signs`; 第 and 国道 do not).
  static let belowZero: Set<String> = ["マイナス", "-", "−", "－", "氷点下", "零下"]
  static let prefixIndex = FirstScalarIndex(prefixes)
  static let firstYear = FirstScalarIndex(["元年", "元年度"])
  /// A half, after a time or a span (9時半), or alone after a counter's number.
  static let half = FirstScalarIndex(["半"])

  // Scalars, not Characters: every numeral, symbol and prefix is compared scalar by scalar,
  // where comparing Strings would normalise at every mismatch.
  func tokens(of text: String) throws(ReadingError) -> [PhraseToken] {
    try text.withScalars(composingSoundMarks: true) { scalars throws(ReadingError) in
      var tokens: [PhraseToken] = []
      var position = 0
      let symbols = catalog.symbolIndex
      while position < scalars.count {
        let rest = scalars[position...]
        // A digit starts a number; anything else may start a word before or around one.
        if EverydayNumbers.digit(scalars[position]) == nil,
          let (token, length) = Self.word(at: rest, after: tokens.last)
        {
          tokens.append(token)
          position += length
          continue
        }
        let numeralEnd = rest.firstIndex { !KanjiNumeral.isPartOfNumber($0) } ?? scalars.endIndex
        let numeral = scalars[position..<numeralEnd]
        guard !numeral.isEmpty else {
          // Name the whole word Biki does not know: after 3 in 3通り that is 通り, not り (通 alone
          // is a counter, which is why the reader stopped after it).
          let unknown = rest.prefix { !KanjiNumeral.isPartOfNumber($0) && !$0.properties.isWhitespace }
          var word = String(String.UnicodeScalarView(unknown))
          let continuesAWord = unknown.first.map { $0.properties.isAlphabetic } ?? false
          if continuesAWord, case .number(_, let symbol?)? = tokens.last { word = symbol + word }
          let shown = word.count > 12 ? String(word.prefix(12)) + "…" : word
          if let sign = unknown.first, ShownText.isSignLike(sign), unknown.count == 1 {
            throw .unreadable(
              text, reason: "'\(shown)' before a number is not a sign Biki reads; below zero is written -, − or マイナス")
          }
          throw .unreadable(text, reason: "'\(shown)' is not a number, unit or counter Biki knows")
        }
        guard let value = KanjiNumeral.parse(scalars: numeral) else {
          let written = String(String.UnicodeScalarView(numeral))
          if written.allSatisfy({ $0.isNumber || $0 == "," || $0 == "，" }), written.filter(\.isNumber).count > 20 {
            throw .tooLarge(written.filter(\.isNumber))
          }
          throw .unreadable(text, reason: "'\(written)' is not a well-formed number")
        }
        position = numeralEnd
        if let clock = try clock(numeral, at: &position, in: scalars, symbols: symbols) {
          tokens.append(clock)
          continue
        }
        if let decimal = try decimal(value, numeral: numeral, at: &position, in: scalars, symbols: symbols) {
          tokens.append(decimal)
          continue
        }
        if let digits = code(numeral, next: position < scalars.count ? scalars[position] : nil) {
          let symbol = symbols.longestPrefix(of: scalars[position...])
          position += symbol?.length ?? 0
          tokens.append(.code(digits, symbol: symbol?.word))
          continue
        }
        if let fraction = try fraction(value, at: &position, in: scalars, symbols: symbols) {
          tokens.append(fraction)
          continue
        }
        // 1と2分の1: a whole number and a fraction.
        if position + 1 < scalars.count, scalars[position] == "と", KanjiNumeral.isPartOfNumber(scalars[position + 1]) {
          tokens.append(.number(value, symbol: "と"))
          position += 1
          continue
        }
        let symbol =
          symbols.longestPrefix(of: scalars[position...])
          ?? PhraseTokenizer.half.longestPrefix(of: scalars[position...])
        position += symbol?.length ?? 0
        tokens.append(.number(value, symbol: symbol?.word))
      }
      return tokens
    }
  }
}

extension PhraseTokenizer {
  /// The word `text` starts with, as a token, and its length in scalars: a range's dash between
  /// two times, a prefix (午後, ¥, 令和, a sign), a word of `PhraseWords` (bare or in brackets after a
  /// number: 1,100円(税込)), 元年, or 半.
  static func word(at text: Slice<UnsafeBufferPointer<Unicode.Scalar>>, after previous: PhraseToken?) -> (
    PhraseToken, Int
  )? {
    guard let first = text.first else { return nil }
    // 9:00-17:00: a dash between two times is a range, not a sign.
    if case .clock? = previous, ShownText.isSignLike(first), first != "▲", first != "△" { return (.word("〜"), 1) }
    if let prefix = prefixIndex.longestPrefix(of: text) { return (.prefix(prefix.word), prefix.length) }
    if first == "(" || first == "（", let word = PhraseWords.index.longestPrefix(of: text.dropFirst()),
      word.length + 1 < text.count, [")", "）"].contains(text[text.startIndex + word.length + 1])
    {
      return (.word(word.word), word.length + 2)
    }
    if let word = PhraseWords.index.longestPrefix(of: text) { return (.word(word.word), word.length) }
    if let word = firstYear.longestPrefix(of: text) { return (.firstYear(fiscal: word.length == 3), word.length) }
    if let word = half.longestPrefix(of: text) { return (.number(0, symbol: word.word), word.length) }
    return nil
  }
}

/// Turns tokens into a reading, choosing which counter an ambiguous symbol means.
struct PhraseInterpreter {
  let catalog: CounterCatalog
  let text: String
  let kind: PhraseKind?

  func reading(of tokens: [PhraseToken]) throws(ReadingError) -> Reading {
    var parts: [ReadingSegment] = []
    parts.reserveCapacity(tokens.count * 2)
    var previousSymbol: String?
    var era: Era?
    var date = WrittenDate()
    var meridiem: String?
    var index = 0
    while index < tokens.count {
      defer { index += 1 }
      switch tokens[index] {
      case .prefix(let word):
        if let named = Era.named(word) {
          guard index + 1 < tokens.count, tokens[index + 1].isYear else {
            throw fail("\(word) must be followed by a year (\(word)元年, \(word)5年)")
          }
          era = named
          parts.append(ReadingSegment(named.reading))
        } else if let currency = PhraseTokenizer.currencies[word] {
          // ¥1,500 and $100 say the unit after the amount: せんごひゃくえん, ひゃくどる.
          guard index + 1 < tokens.count, case .number(let value, let symbol) = tokens[index + 1],
            symbol == nil || symbol.map({ currency.symbols.contains($0) }) == true
          else { throw fail("\(word) must be followed by a whole amount, as in \(word)1,500") }
          parts += try JapaneseNumber.reading(of: value, with: currency).parts
          previousSymbol = currency.symbol
          index += 1
        } else if let sign = PhraseTokenizer.signs[word] {
          try checkSign(word, before: index + 1 < tokens.count ? tokens[index + 1] : nil)
          parts.append(ReadingSegment(sign))
        } else {
          guard meridiem == nil, index + 1 < tokens.count, case .number(_, "時") = tokens[index + 1] else {
            throw fail("\(word) must be followed by an hour, as in \(word)4時")
          }
          meridiem = word
          parts.append(ReadingSegment(word == "午前" ? "ごぜん" : "ごご"))
        }
      case .firstYear(let fiscal):
        let year = fiscal ? "年度" : "年"
        guard let era else { throw fail("元\(year) needs an era before it, as in 令和元\(year)") }
        date.year = era.gregorianYear(1)
        date.eraYear = 1
        parts.append(ReadingSegment(fiscal ? "がんねんど" : "がんねん"))
        previousSymbol = year
      case .number(let value, "と"):
        // 1と2分の1: the whole number, と, and the fraction after it.
        guard index + 1 < tokens.count, case .fraction = tokens[index + 1] else {
          throw fail("と joins a whole number and a fraction, as in 1と2分の1")
        }
        parts += try JapaneseNumber.reading(of: value).parts
        parts.append(ReadingSegment("と"))
        previousSymbol = "と"
      case .number(let value, nil) where Self.standsBare(at: index, in: tokens):
        // A number a word or a range reads without a counter (震度5, A4, 3〜5人, 20以上), as said;
        // the start of a range also as the counter after its end reads it (3〜5日 みっかからいつか).
        var scratch = date
        let counted = try rangeCounter(after: index, in: tokens).map { symbol throws(ReadingError) in
          try reading(value, symbol, after: previousSymbol, era: era, date: &scratch, meridiem: nil, isAlone: false)
        }
        let said = try JapaneseNumber.said(value)
        parts.append(ReadingSegment(counted.map { $0.all() + said.all() } ?? said.all()))
        previousSymbol = nil
      case .number(let value, let symbol):
        // A number alone, or after a sign (-3, マイナス3), is read bare.
        let isAlone = tokens.count == 1 || (tokens.count == 2 && index == 1 && tokens[0].isSign)
        parts += try reading(
          value, symbol, after: previousSymbol, era: era, date: &date, meridiem: meridiem, isAlone: isAlone
        ).parts
        previousSymbol = symbol
      case .word(let word):
        parts.append(ReadingSegment(try wordReading(word, at: index, in: tokens)))
        // Each end of a range has its own 午前 or 午後 (午前9時〜午後5時).
        if PhraseWords.table[word]?.place == .between || word == "から" { meridiem = nil }
        // After 毎月, 日 names the day of each month (毎月1日 まいつきついたち).
        if word == "毎月" { previousSymbol = "月" }
      case .decimal(let whole, let fraction, let unit, let symbol):
        parts += try decimalReading(whole, fraction: fraction, unit: unit, symbol: symbol)
        previousSymbol = symbol
      case .fraction(let denominator, let numerator, _, let symbol):
        parts += try JapaneseNumber.fractionReading(numerator: numerator, denominator: denominator, counter: nil).parts
        if let symbol { parts += try plainCounter(symbol) }
        previousSymbol = symbol
      case .clock(let hour, let minute, let symbol):
        parts += try JapaneseNumber.clockReading(hour: hour, minute: minute).parts
        if let symbol { parts += try plainCounter(symbol) }
        previousSymbol = symbol
      case .code(let digits, let symbol):
        // A counter after a code would read it as a quantity or not: which one is not written.
        if let symbol {
          throw fail("a number with a leading 0 is a code read digit by digit, and takes no \(symbol) after it")
        }
        parts += JapaneseNumber.digitByDigit(digits).parts
        previousSymbol = nil
      }
    }
    if let era, let year = date.eraYear, !era.contains(year: year, month: date.month, day: date.day) {
      let written =
        "\(era.name)\(year == 1 ? "元" : String(year))年" + (date.month.map { "\($0)月" } ?? "")
        + (date.day.map { "\($0)日" } ?? "")
      throw fail("\(written) did not exist: \(era.name) \(Self.span(of: era))")
    }
    guard !parts.isEmpty else { throw fail("it is empty") }
    return Reading(parts: parts)
  }

  /// What each sign needs after it: a number for マイナス, a temperature below zero for 氷点下
  /// and 零下, a counted number for 第 (第1位), a road number for 国道, a year for 紀元前.
  private func checkSign(_ word: String, before next: PhraseToken?) throws(ReadingError) {
    let symbol: String?
    switch next {
    case .number(_, let found)?, .decimal(_, _, _, let found)?, .fraction(_, _, _, let found)?: symbol = found
    default: throw fail("\(word) must be followed by a number")
    }
    switch word {
    case "氷点下", "零下":
      guard symbol.map({ "度" ~= Spelled($0) || "℃" ~= Spelled($0) }) == true else {
        throw fail("\(word) is followed by degrees, as in \(word)5度")
      }
    case "第":
      guard symbol != nil else { throw fail("第 is followed by a counted number, as in 第1位 or 第2回") }
    case "国道":
      guard symbol.map({ "号" ~= Spelled($0) || "号線" ~= Spelled($0) }) == true else {
        throw fail("国道 is followed by its number, as in 国道1号線")
      }
    case "紀元前":
      guard symbol.map({ "年" ~= Spelled($0) || "世紀" ~= Spelled($0) }) == true else {
        throw fail("紀元前 is followed by a year, as in 紀元前300年")
      }
    default:
      guard symbol.map({ !("と" ~= Spelled($0)) }) ?? true else { throw fail("\(word) must be followed by a number") }
    }
  }

  /// A decimal (`JapaneseNumber.decimalReading`), with a large unit between the digits and the
  /// counter: 1.2億円 いってんにおくえん.
  private func decimalReading(_ whole: UInt128, fraction: [UInt8], unit: String?, symbol: String?) throws(ReadingError)
    -> [ReadingSegment]
  {
    var parts = try JapaneseNumber.decimalReading(whole: whole, fraction: fraction, counter: nil).parts
    if let unit { parts.append(ReadingSegment(["万": "まん", "億": "おく", "兆": "ちょう"][unit] ?? "")) }
    if let symbol { parts += try plainCounter(symbol) }
    return parts
  }

  /// A counter's reading with no sound change, as after a decimal or a fraction. A symbol that
  /// both counts and names (日 a day or a date, 組 a set or a class) counts here: 1.5日.
  private func plainCounter(_ symbol: String) throws(ReadingError) -> [ReadingSegment] {
    let counters = catalog.counters(symbol: symbol)
    guard let counter = counters.first(where: { $0.kind != .date && $0.kind != .name }) ?? counters.first else {
      throw fail("\(symbol) is not a unit or counter Biki knows")
    }
    guard let parts = JapaneseNumber.plainReading(of: counter) else {
      throw fail("\(symbol) counts whole things: it takes no decimal or fraction")
    }
    return parts
  }

  /// When an era ran, for messages: "ran from 1989-01-08 to 2019-04-30".
  static func span(of era: Era) -> String {
    guard let next = era.successor else { return "began on \(era.start)" }
    return "ran from \(era.start) to the day before \(next.start)"
  }

  func reading(
    _ value: UInt128, _ symbol: String?, after previous: String?, era: Era?,
    date: inout WrittenDate, meridiem: String?, isAlone: Bool
  ) throws(ReadingError) -> Reading {
    guard let symbol else {
      guard isAlone else { throw fail("\(value) needs a unit or counter after it here") }
      if kind == .money { return try JapaneseNumber.reading(of: value, with: .yen) }
      return try JapaneseNumber.reading(of: value)
    }
    if kind == .number { throw fail("a number alone was expected, without \(symbol)") }
    switch Spelled(symbol) {
    case "半":
      // A half after a time, a span or a count: 9時半, 1時間半, 1年半, 1日半, 1歳半, 2杯半, 4畳半.
      // Not after what names one day or month (3月半, 5月1日半) or an era's year.
      guard let previous, !("月" ~= Spelled(previous)), date.day == nil || "時" ~= Spelled(previous),
        !("年" ~= Spelled(previous) && era != nil),
        !("半" ~= Spelled(previous))
      else {
        throw fail("半 follows an hour, a span or a count, as in 9時半, 1時間半, 1日半 or 2杯半")
      }
      return Reading("はん")
    case "年", "年度", "年代":
      if let era {
        guard value >= 1 else { throw fail("\(era.name)\(value)年 did not exist: era years start at 元年") }
        // An open era's years are bounded only so the arithmetic stays small.
        guard value <= 10_000, era.contains(year: Int(value)) else {
          let end =
            era.lastYear.map { "\(era.name) ended in \(era.name)\($0)年 (\(era.gregorianYear($0)))" }
            ?? "that is too far ahead"
          throw fail("\(era.name)\(value)年 did not exist: \(end)")
        }
        date.year = era.gregorianYear(Int(value))
        date.eraYear = Int(value)
      } else {
        // A year too large for a calendar is still a number to read, just not a date to check.
        date.year = Int(exactly: value)
      }
      switch Spelled(symbol) {
      case "年": return try JapaneseNumber.reading(of: value, with: .year)
      case "年度": return try JapaneseNumber.reading(of: value, with: .fiscalYear)
      default: return try JapaneseNumber.reading(of: value, with: .decades)
      }
    case "月":
      if kind == .duration { throw fail("月 names a month; a number of months is written ヶ月") }
      date.month = value <= 12 ? Int(value) : nil
      return try JapaneseNumber.reading(of: value, with: .month)
    case "日":
      if kind == .date || previous.map({ "月" ~= Spelled($0) }) == true {
        try checkDay(value, date)
        date.day = Int(exactly: value)
        return try JapaneseNumber.reading(of: value, with: .dayOfMonth)
      }
      return try JapaneseNumber.reading(of: value, with: .day)
    case "時":
      if kind == .duration { throw fail("時 is a time of day; a number of hours is written 時間") }
      if meridiem != nil, value > 12 { throw fail("午前 and 午後 take hours 0–12, not \(value)") }
      // A late-night timetable runs its day on past 24 (25時 is 1 a.m.).
      return try JapaneseNumber.reading(of: value, with: (25...30).contains(value) ? .lateHour : .hour)
    case "分", "秒":
      // After 割 (打率3割5分) or 度 (37度5分) 分 is a tenth, read ぶ, never minutes; after a
      // win or a loss (3勝2敗1分) it is a draw, which Biki does not read.
      if "分" ~= Spelled(symbol), let previous {
        if "割" ~= Spelled(previous) || "度" ~= Spelled(previous) {
          return try JapaneseNumber.reading(of: value, with: .tenthBu)
        }
        if "勝" ~= Spelled(previous) || "敗" ~= Spelled(previous) {
          throw fail("分 after \(previous) counts draws (引き分け), which Biki does not read")
        }
      }
      if let previous, "時" ~= Spelled(previous) || "分" ~= Spelled(previous), value > 59 {
        throw fail("\(value)\(symbol) is not a time: 0–59")
      }
      return try JapaneseNumber.reading(of: value, with: "分" ~= Spelled(symbol) ? .minute : .second)
    default:
      if kind == .money, !("円" ~= Spelled(symbol)) { throw fail("an amount in 円 was expected, not \(symbol)") }
      // A symbol both counts and names (組: sets, or a class): a name when asked for, and after a
      // school year (1年1組 いちねんいちくみ: class 1 of the first year).
      let classOfAYear = "組" ~= Spelled(symbol) && previous.map { "年" ~= Spelled($0) } == true && era == nil
      let names = kind == .name || (kind == nil && classOfAYear)
      let counters = catalog.counters(symbol: symbol)
      guard let counter = counters.first(where: { ($0.kind == .name) == names }) ?? counters.first else {
        throw fail("\(symbol) is not a unit or counter Biki knows")
      }
      let reading = try JapaneseNumber.reading(of: value, with: counter)
      return counter.isIdentical(to: .roomNumber) ? roomReading(value, reading) : reading
    }
  }

  private func checkDay(_ day: UInt128, _ date: WrittenDate) throws(ReadingError) {
    guard let month = date.month, let length = CalendarDate.daysIn(month: month, year: date.year), day >= 1 else {
      return
    }
    if day > UInt128(length) { throw fail("\(month)月\(day)日 is not a date: \(month)月 has \(length) days") }
  }

  func fail(_ reason: String) -> ReadingError {
    .unreadable(text, reason: reason)
  }
}

/// The parts of a date a phrase has written so far.
struct WrittenDate {
  /// Gregorian.
  var year: Int?
  /// The year within the era, when an era was written.
  var eraYear: Int?
  var month: Int?
  var day: Int?
}

extension PhraseToken {
  var isSign: Bool {
    if case .prefix(let word) = self { return PhraseTokenizer.signs[word] != nil }
    return false
  }

  var isYear: Bool {
    switch self {
    case .firstYear: true
    case .number(_, let symbol): symbol == "年" || symbol == "年度" || symbol == "年代"
    case .prefix, .decimal, .fraction, .clock, .code, .word: false
    }
  }
}

extension StringProtocol {
  func trimmingWhitespace() -> String {
    // Most texts have nothing to trim; they are returned without a copy.
    if let first = unicodeScalars.first, let last = unicodeScalars.last, !first.isWhiteSpace, !last.isWhiteSpace {
      return String(self)
    }
    let scalars = unicodeScalars.drop { $0.isWhiteSpace }
    var end = scalars.endIndex
    while end > scalars.startIndex, scalars[scalars.index(before: end)].isWhiteSpace {
      end = scalars.index(before: end)
    }
    return String(String.UnicodeScalarView(scalars[scalars.startIndex..<end]))
  }
}

extension Unicode.Scalar {
  /// Unicode's White_Space property, listed: looking the property up cost more than reading
  /// the rest of a short phrase. The list is stable (Unicode adds no new white space).
  var isWhiteSpace: Bool {
    switch value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
    default: false
    }
  }
}

/// A symbol or word as the catalog spells it, matched against others by its bytes: the
/// tokenizer hands out only the catalog's own spellings, and String's `==` would normalise
/// both sides at every mismatch.
struct Spelled {
  let text: String

  init(_ text: String) { self.text = text }

  static func ~= (pattern: String, value: Spelled) -> Bool {
    pattern.hasSameBytes(as: value.text)
  }
}

extension String {
  /// Whether both are spelled with the same UTF-8 bytes: equality without the Unicode
  /// normalisation `==` performs, for text known to be composed alike (generated kana, the
  /// catalog's own symbols).
  package func hasSameBytes(as other: String) -> Bool {
    // Copies share storage; `withUTF8` only needs them mutable to make a bridged string native.
    var mine = self
    var theirs = other
    return mine.withUTF8 { mine in
      theirs.withUTF8 { theirs in
        guard mine.count == theirs.count else { return false }
        guard let first = mine.baseAddress, let second = theirs.baseAddress else { return true }  // both empty
        return memcmp(first, second, mine.count) == 0
      }
    }
  }
}

/// Words grouped by their first Unicode scalar, longest first, so finding which word a text
/// starts with compares only the few that could match instead of every word, scalar by scalar.
/// The groups sit in an open-addressed table keyed by that scalar: hashing a scalar through
/// `Hasher` for a dictionary cost more than comparing the words.
struct FirstScalarIndex: Sendable {
  private typealias Group = (first: Unicode.Scalar, words: [(scalars: [Unicode.Scalar], word: String)])
  /// A power of two at least twice the number of groups, so every probe ends at an empty slot.
  private let slots: [Group?]

  init(_ words: [String]) {
    var grouped: [Unicode.Scalar: [(scalars: [Unicode.Scalar], word: String)]] = [:]
    for word in words {
      let scalars = Array(word.unicodeScalars)
      if let first = scalars.first { grouped[first, default: []].append((scalars, word)) }
    }
    var size = 2
    while size < grouped.count * 2 { size *= 2 }
    var slots = [Group?](repeating: nil, count: size)
    for (first, words) in grouped.sorted(by: { $0.key.value < $1.key.value }) {
      var slot = Self.slot(of: first, size: size)
      while slots[slot] != nil { slot = (slot + 1) & (size - 1) }
      slots[slot] = (first, words.sorted { ($0.scalars.count, $0.word) > ($1.scalars.count, $1.word) })
    }
    self.slots = slots
  }

  private static func slot(of scalar: Unicode.Scalar, size: Int) -> Int {
    Int(truncatingIfNeeded: (scalar.value &* 0x9E37_79B1) >> 7) & (size - 1)
  }

  /// The longest word `text` starts with, and its length in scalars.
  func longestPrefix(of text: Slice<UnsafeBufferPointer<Unicode.Scalar>>) -> (word: String, length: Int)? {
    guard let first = text.first else { return nil }
    var slot = Self.slot(of: first, size: slots.count)
    while let group = slots[slot] {
      if group.first == first {
        return group.words.first { text.starts(with: $0.scalars) }.map { ($0.word, $0.scalars.count) }
      }
      slot = (slot + 1) & (slots.count - 1)
    }
    return nil
  }
}
