import BikiJapanese

/// One generated question: what is shown, what is spoken, how it is read, and what is accepted.
/// A pure function of (topic, parameters, seed).
package struct Question: Hashable, Sendable {
  package var topicID: String
  /// Reproduces this question: the generator's `question(seed:)` gives it back.
  package var seed: UInt64
  /// Shown for the kana skill, with digits: `¥1,500`, `3本`, `午後4時`.
  package var display: String
  /// Shown for the reading skill, in kanji numerals: `千五百円`, `三本`, `午後四時`.
  package var kanjiDisplay: String
  /// Text for speech: the standard reading.
  package var spoken: String
  /// Every accepted reading, standard first.
  package var reading: Reading
  package var answer: Answer
  /// The sound changes and special readings it exercises (8本 はっぽん: `本/final:8`), for
  /// scheduling practice by form.
  package var forms: [ReadingForm] {
    get { practice.forms }
    set { practice.forms = newValue }
  }
  /// What is counted, for the "which counter?" skill; nil when the question counts no thing.
  package var counted: CountedThing? {
    get { practice.counted }
    set { practice.counted = newValue }
  }
  /// The reading of the counted phrase alone, without the words around it (はっぱい in お茶8杯,
  /// read おちゃはっぱい): a kana answer may leave those words out. Nil when there are none.
  var phraseReading: Reading? {
    get { practice.phraseReading }
    set { practice.phraseReading = newValue }
  }
  /// The three held as one field: given a ninth field of its own, the optimizer no longer built a
  /// `Question` in place but copied and destroyed every one it made, a retain and a release per
  /// string (numbers questions 7 % slower).
  private var practice: PracticeFields

  package init(
    topicID: String, seed: UInt64, display: String, kanjiDisplay: String, spoken: String? = nil, reading: Reading,
    answer: Answer, forms: [ReadingForm] = [], counted: CountedThing? = nil, phraseReading: Reading? = nil
  ) {
    let spoken = spoken ?? reading.standard
    self.topicID = topicID
    self.seed = seed
    self.display = display
    self.kanjiDisplay = kanjiDisplay
    self.spoken = spoken
    self.reading = reading
    self.answer = answer
    self.practice = PracticeFields(forms: forms, counted: counted, phraseReading: phraseReading)
  }

  /// What the learner is shown for `skill` (for listening, what is spoken; clients voice it).
  package func prompt(for skill: Skill) -> String {
    switch skill {
    case .listening: spoken
    case .reading: kanjiDisplay
    case .kana: display
    case .counter: counted?.prompt ?? display
    }
  }

  /// The answer as it is revealed for `skill`.
  package func expected(for skill: Skill) -> String {
    switch skill {
    case .listening, .reading: answer.display
    case .kana: reading.description
    case .counter: counted?.expected ?? reading.description
    }
  }
}

/// A thing and how many of it, with every counted phrase that says so: うさぎ × 3 is 3匹
/// (さんびき) or 3羽 (さんわ).
package struct CountedThing: Hashable, Sendable {
  /// As it is written: 鉛筆.
  package var name: String
  /// Its reading in hiragana: えんぴつ.
  package var reading: String
  /// In English, for learners: pencil.
  package var meaning: String
  package var count: Int64
  /// One per counter the thing takes, the usual one first.
  var phrases: [CountedPhrase]

  package init(name: String, reading: String, meaning: String, count: Int64, phrases: [CountedPhrase]) {
    self.name = name
    self.reading = reading
    self.meaning = meaning
    self.count = count
    self.phrases = phrases
  }

  /// The counters the thing is usually counted with, by their canonical symbols (本 for 鉛筆).
  package var usualCounters: [String] {
    phrases.filter { !$0.isUncommon }.compactMap(\.symbols.first)
  }

  /// 鉛筆 (えんぴつ, pencil) × 5
  package var prompt: String {
    "\(name) (\(reading)\(meaning.isEmpty ? "" : ", " + meaning)) × \(count)"
  }

  /// 3匹 or 3羽 (さんびき or さんば); the less usual after them: 3本 or 3発 (さんぼん or さんぱつ);
  /// less usual: 3弾 (さんだん)
  package var expected: String {
    func listed(_ phrases: [CountedPhrase]) -> String {
      phrases.map(\.display).joined(separator: " or ") + " ("
        + phrases.map(\.reading.standard).joined(separator: " or ")
        + ")"
    }
    let usual = phrases.filter { !$0.isUncommon }
    let uncommon = phrases.filter(\.isUncommon)
    return listed(usual) + (uncommon.isEmpty ? "" : "; less usual: " + listed(uncommon))
  }
}

/// What a question carries for practice beyond the question itself.
private struct PracticeFields: Hashable, Sendable {
  var forms: [ReadingForm]
  var counted: CountedThing?
  var phraseReading: Reading?
}

/// The count said with one counter: 5本, 五本, ごほん.
package struct CountedPhrase: Hashable, Sendable {
  var display: String
  var kanjiDisplay: String
  package var reading: Reading
  /// Every way the counter is written (ヶ国, か国, カ国 …).
  var symbols: [String]
  /// A counter a native speaker accepts but seldom uses for the thing: accepted, and marked so.
  package var isUncommon: Bool

  package init(display: String, kanjiDisplay: String, reading: Reading, symbols: [String], isUncommon: Bool = false) {
    self.display = display
    self.kanjiDisplay = kanjiDisplay
    self.reading = reading
    self.symbols = symbols
    self.isUncommon = isUncommon
  }
}

/// The numeric answer to a question, with what may be typed around it.
package struct Answer: Hashable, Sendable, Codable {
  package var value: Int64
  /// Shown before the input field, e.g. `¥`.
  package var prefix: String
  /// Shown after the input field, e.g. `円`, `本`, `時`.
  package var postfix: String
  /// Anything else the learner may type before or after the number: ￥, 円, か月 ….
  var acceptedAffixes: [String]
  /// Whether the number is written with thousands separators (¥1,500, but 2024年).
  var isGrouped: Bool
  /// What kind of number `value` stands for.
  package var shape: Shape

  /// The one model of a number's shapes, shared with the reader and every check.
  package typealias Shape = NumberShape

  package init(
    value: Int64, prefix: String = "", postfix: String = "", acceptedAffixes: [String] = [], isGrouped: Bool = true,
    shape: Shape = .whole
  ) {
    self.value = value
    self.prefix = prefix
    self.postfix = postfix
    self.acceptedAffixes = acceptedAffixes
    self.isGrouped = isGrouped
    self.shape = shape
  }

  /// The answer as written: `¥1,500`, `3本`, `2024年`, `36.5度`, `3分の1`, `16:05`.
  package var display: String { prefix + number + postfix }

  /// The number alone, as written.
  var number: String {
    switch shape {
    case .whole: isGrouped ? NumberFormatting.grouped(value) : String(value)
    case .decimal(let places): NumberFormatting.decimal(value, places: places, grouped: isGrouped)
    case .fraction(let denominator, let slashed): slashed ? "\(value)/\(denominator)" : "\(denominator)分の\(value)"
    case .clock: NumberFormatting.clock(minutes: value)
    case .code(let width): WrittenNumber(value: value, shape: .code(width: width)).description
    }
  }
}

package enum NumberFormatting {
  /// `value` ÷ 10^places with exactly `places` digits after the point: 365, 1 → 36.5; 5, 2 →
  /// 0.05; -5, 1 → -0.5.
  package static func decimal(_ value: Int64, places: Int, grouped: Bool) -> String {
    guard places > 0 else { return grouped ? self.grouped(value) : String(value) }
    let (whole, fraction) = decimalParts(value.magnitude, places: places)
    // A whole part of a scaled Int64 is at most Int64.max / 10: it fits.
    let wholeText = grouped ? self.grouped(Int64(whole)) : String(whole)
    return (value < 0 ? "-" : "") + wholeText + "."
      + String(decoding: fraction.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
  }

  /// A magnitude ÷ 10^places as its whole part and the digits after the point, leading zeros
  /// kept: 365, 1 → (36, [5]); 5, 2 → (0, [0, 5]). `places` is 1–18.
  package static func decimalParts(_ magnitude: UInt64, places: Int) -> (whole: UInt64, fraction: [UInt8]) {
    var fraction = [UInt8](repeating: 0, count: places)
    var rest = magnitude
    for index in fraction.indices.reversed() {
      fraction[index] = UInt8(rest % 10)
      rest /= 10
    }
    return (rest, fraction)
  }

  /// Minutes after midnight as a 24-hour clock shows them: 965 → 16:05, 5 → 0:05.
  package static func clock(minutes: Int64) -> String {
    let minute = minutes % 60
    return "\(minutes / 60):" + (minute < 10 ? "0" : "") + String(minute)
  }

  /// Digits grouped by three with commas, as prices and counts are written: 1,500.
  package static func grouped(_ value: Int64) -> String {
    // Filled from the right into a fixed buffer: this runs for every question shown.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
      var magnitude = value.magnitude
      var index = 32
      var digits = 0
      repeat {
        if digits > 0 && digits % 3 == 0 {
          index -= 1
          buffer[index] = UInt8(ascii: ",")
        }
        index -= 1
        buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        digits += 1
      } while magnitude > 0
      if value < 0 {
        index -= 1
        buffer[index] = UInt8(ascii: "-")
      }
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[index..<32]), as: UTF8.self)
    }
  }
}
