/// What kind of phrase a text is, when the text alone is ambiguous (1日: a day, or the 1st?).
package enum PhraseKind: String, CaseIterable, Sendable {
  case number, money, duration, date, time, counter
}

/// Reads written phrases aloud in kana: `8本`, `¥1,500`, `令和元年`, `午後4時`, `9時半`,
/// `5月5日`, `1時間30分`, `三百五十`.
package struct PhraseReader: Sendable {
  package var catalog: CounterCatalog

  package init(catalog: CounterCatalog = .standard) {
    self.catalog = catalog
  }

  package func read(_ text: String, as kind: PhraseKind? = nil) throws(ReadingError) -> Reading {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty else { throw .unreadable(text, reason: "it is empty") }
    let tokens = try PhraseTokenizer(catalog: catalog).tokens(of: trimmed)
    return try PhraseInterpreter(catalog: catalog, text: trimmed, kind: kind).reading(of: tokens)
  }
}

/// One piece of a phrase: a word before numbers (午後, 令和, ¥) or a number with what follows it.
enum PhraseToken: Equatable {
  case prefix(String)
  case number(UInt128, symbol: String?)
  /// 元年: the first year of an era.
  case firstYear
}

struct PhraseTokenizer {
  let catalog: CounterCatalog
  static let prefixes = ["午前", "午後", "¥", "￥"] + Era.all.map(\.name)
  static let extraSymbols = ["半"]
  static let prefixIndex = FirstScalarIndex(prefixes)

  func tokens(of text: String) throws(ReadingError) -> [PhraseToken] {
    var tokens: [PhraseToken] = []
    var rest = Substring(text)
    let symbols = catalog.symbolIndex
    while !rest.isEmpty {
      if let prefix = PhraseTokenizer.prefixIndex.longestPrefix(of: rest) {
        tokens.append(.prefix(prefix))
        rest = rest.dropFirst(prefix.count)
        continue
      }
      if rest.hasPrefix("元年") {
        tokens.append(.firstYear)
        rest = rest.dropFirst(2)
        continue
      }
      if rest.hasPrefix("半") {
        tokens.append(.number(0, symbol: "半"))
        rest = rest.dropFirst()
        continue
      }
      let numeral = rest.prefix { PhraseTokenizer.isNumeral($0) }
      guard !numeral.isEmpty else {
        throw .unreadable(text, reason: "'\(rest.prefix(1))' is not a number, unit or counter Biki knows")
      }
      guard let value = KanjiNumeral.parse(numeral) else {
        if numeral.allSatisfy({ $0.isNumber || $0 == "," || $0 == "，" }), numeral.filter(\.isNumber).count > 20 {
          throw .tooLarge(numeral.filter(\.isNumber))
        }
        throw .unreadable(text, reason: "'\(numeral)' is not a well-formed number")
      }
      rest = rest.dropFirst(numeral.count)
      let symbol = symbols.longestPrefix(of: rest) ?? PhraseTokenizer.extraSymbols.first { rest.hasPrefix($0) }
      if let symbol { rest = rest.dropFirst(symbol.count) }
      tokens.append(.number(value, symbol: symbol))
    }
    return tokens
  }

  static func isNumeral(_ character: Character) -> Bool { KanjiNumeral.isPartOfNumber(character) }
}

/// Turns tokens into a reading, choosing which counter an ambiguous symbol means.
struct PhraseInterpreter {
  let catalog: CounterCatalog
  let text: String
  let kind: PhraseKind?

  func reading(of tokens: [PhraseToken]) throws(ReadingError) -> Reading {
    var parts: [Reading] = []
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
          parts.append(Reading(named.reading))
        } else if word == "¥" || word == "￥" {
          guard index + 1 < tokens.count, case .number(let value, let symbol) = tokens[index + 1],
            symbol == nil || symbol == "円", tokens.count == index + 2
          else { throw fail("¥ must be followed by an amount alone, as in ¥1,500") }
          return try JapaneseNumber.reading(of: value, with: .yen)
        } else {
          guard meridiem == nil, index + 1 < tokens.count, case .number(_, "時") = tokens[index + 1] else {
            throw fail("\(word) must be followed by an hour, as in \(word)4時")
          }
          meridiem = word
          parts.append(Reading(word == "午前" ? "ごぜん" : "ごご"))
        }
      case .firstYear:
        guard let era else { throw fail("元年 needs an era before it, as in 令和元年") }
        date.year = era.gregorianYear(1)
        date.eraYear = 1
        parts.append(Reading("がんねん"))
        previousSymbol = "年"
      case .number(let value, let symbol):
        parts.append(try reading(value, symbol, after: previousSymbol, era: era, date: &date, meridiem: meridiem, isAlone: tokens.count == 1))
        previousSymbol = symbol
      }
    }
    if let era, let year = date.eraYear, !era.contains(year: year, month: date.month, day: date.day) {
      let written = "\(era.name)\(year == 1 ? "元" : String(year))年" + (date.month.map { "\($0)月" } ?? "") + (date.day.map { "\($0)日" } ?? "")
      throw fail("\(written) did not exist: \(era.name) \(Self.span(of: era))")
    }
    guard let first = parts.first else { throw fail("it is empty") }
    return parts.dropFirst().reduce(first, +)
  }

  /// When an era ran, for messages: "ran from 1989-01-08 to 2019-04-30".
  static func span(of era: Era) -> String {
    guard let next = era.successor else { return "began on \(era.start)" }
    return "ran from \(era.start) to the day before \(next.start)"
  }

  private func reading(
    _ value: UInt128, _ symbol: String?, after previous: String?, era: Era?,
    date: inout WrittenDate, meridiem: String?, isAlone: Bool
  ) throws(ReadingError) -> Reading {
    guard let symbol else {
      guard isAlone else { throw fail("\(value) needs a unit or counter after it here") }
      if kind == .money { return try JapaneseNumber.reading(of: value, with: .yen) }
      return try JapaneseNumber.reading(of: value)
    }
    if kind == .number { throw fail("a number alone was expected, without \(symbol)") }
    switch symbol {
    case "半":
      // A half after a time or a span: 9時半, 1時間半, 1年半, 2ヶ月半.
      let halves = ["時", "時間", "年"] + (catalog.counter(id: "months")?.symbols ?? [])
      guard let previous, halves.contains(previous), !(previous == "年" && era != nil) else {
        throw fail("半 follows an hour or a span, as in 9時半, 1時間半 or 1年半")
      }
      return Reading("はん")
    case "年":
      if let era {
        guard value >= 1 else { throw fail("\(era.name)\(value)年 did not exist: era years start at 元年") }
        // An open era's years are bounded only so the arithmetic stays small.
        guard value <= 10_000, era.contains(year: Int(value)) else {
          let end = era.lastYear.map { "\(era.name) ended in \(era.name)\($0)年 (\(era.gregorianYear($0)))" } ?? "that is too far ahead"
          throw fail("\(era.name)\(value)年 did not exist: \(end)")
        }
        date.year = era.gregorianYear(Int(value))
        date.eraYear = Int(value)
      } else {
        // A year too large for a calendar is still a number to read, just not a date to check.
        date.year = Int(exactly: value)
      }
      return try JapaneseNumber.reading(of: value, with: .year)
    case "月":
      if kind == .duration { throw fail("月 names a month; a number of months is written ヶ月") }
      date.month = value <= 12 ? Int(value) : nil
      return try JapaneseNumber.reading(of: value, with: .month)
    case "日":
      if kind == .date || previous == "月" {
        try checkDay(value, date)
        date.day = Int(exactly: value)
        return try JapaneseNumber.reading(of: value, with: .dayOfMonth)
      }
      return try JapaneseNumber.reading(of: value, with: .day)
    case "時":
      if kind == .duration { throw fail("時 is a time of day; a number of hours is written 時間") }
      if meridiem != nil, value > 12 { throw fail("午前 and 午後 take hours 0–12, not \(value)") }
      return try JapaneseNumber.reading(of: value, with: .hour)
    case "分", "秒":
      if previous == "時" || previous == "分", value > 59 { throw fail("\(value)\(symbol) is not a time: 0–59") }
      return try JapaneseNumber.reading(of: value, with: symbol == "分" ? .minute : .second)
    default:
      if kind == .money, symbol != "円" { throw fail("an amount in 円 was expected, not \(symbol)") }
      guard let counter = catalog.counters(symbol: symbol).first else {
        throw fail("\(symbol) is not a unit or counter Biki knows")
      }
      return try JapaneseNumber.reading(of: value, with: counter)
    }
  }

  private func checkDay(_ day: UInt128, _ date: WrittenDate) throws(ReadingError) {
    guard let month = date.month, let length = CalendarDate.daysIn(month: month, year: date.year), day >= 1 else { return }
    if day > UInt128(length) { throw fail("\(month)月\(day)日 is not a date: \(month)月 has \(length) days") }
  }

  private func fail(_ reason: String) -> ReadingError {
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
  var isYear: Bool {
    switch self {
    case .firstYear: true
    case .number(_, let symbol): symbol == "年"
    case .prefix: false
    }
  }
}

extension StringProtocol {
  func trimmingWhitespace() -> String {
    // Most texts have nothing to trim; they are returned without a copy.
    if let first = unicodeScalars.first, let last = unicodeScalars.last, !first.properties.isWhitespace, !last.properties.isWhitespace {
      return String(self)
    }
    let scalars = unicodeScalars.drop { $0.properties.isWhitespace }
    var end = scalars.endIndex
    while end > scalars.startIndex, scalars[scalars.index(before: end)].properties.isWhitespace {
      end = scalars.index(before: end)
    }
    return String(String.UnicodeScalarView(scalars[scalars.startIndex..<end]))
  }
}

/// Words grouped by their first Unicode scalar, longest first, so finding which word a text
/// starts with compares only the few that could match instead of every word.
struct FirstScalarIndex: Sendable {
  private let words: [Unicode.Scalar: [String]]

  init(_ words: [String]) {
    var grouped: [Unicode.Scalar: [String]] = [:]
    for word in words { if let first = word.unicodeScalars.first { grouped[first, default: []].append(word) } }
    self.words = grouped.mapValues { $0.sorted { ($0.count, $0) > ($1.count, $1) } }
  }

  func longestPrefix(of text: Substring) -> String? {
    guard let first = text.unicodeScalars.first, let candidates = words[first] else { return nil }
    return candidates.first { text.hasPrefix($0) }
  }
}
