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
  package var forms: [ReadingForm]

  package init(
    topicID: String, seed: UInt64, display: String, kanjiDisplay: String, spoken: String? = nil, reading: Reading,
    answer: Answer, forms: [ReadingForm] = []
  ) {
    self.forms = forms
    self.topicID = topicID
    self.seed = seed
    self.display = display
    self.kanjiDisplay = kanjiDisplay
    self.spoken = spoken ?? reading.standard
    self.reading = reading
    self.answer = answer
  }

  /// What the learner is shown for `skill` (for listening, what is spoken; clients voice it).
  package func prompt(for skill: Skill) -> String {
    switch skill {
    case .listening: spoken
    case .reading: kanjiDisplay
    case .kana: display
    }
  }

  /// The answer as it is revealed for `skill`.
  package func expected(for skill: Skill) -> String {
    switch skill {
    case .listening, .reading: answer.display
    case .kana: reading.description
    }
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
  package var acceptedAffixes: [String]
  /// Whether the number is written with thousands separators (¥1,500, but 2024年).
  package var isGrouped: Bool

  package init(value: Int64, prefix: String = "", postfix: String = "", acceptedAffixes: [String] = [], isGrouped: Bool = true) {
    self.value = value
    self.prefix = prefix
    self.postfix = postfix
    self.acceptedAffixes = acceptedAffixes
    self.isGrouped = isGrouped
  }

  /// The answer as written: `¥1,500`, `3本`, `2024年`.
  package var display: String { prefix + (isGrouped ? NumberFormatting.grouped(value) : String(value)) + postfix }
}

package enum NumberFormatting {
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
