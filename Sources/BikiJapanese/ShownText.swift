/// What a learner is shown, read whole: a question's display is taken apart into words its
/// author declared with their readings (税込 ぜいこみ, 日曜日 にちようび) and runs Biki reads itself
/// (¥286, 明治19年, 8本), and its reading is those readings in order. Nothing is skipped: text
/// that is neither a declared word nor read by Biki, a numeral Biki does not read (𝟗, ⑧, Ⅷ, 玖),
/// or a character that shows nothing (a zero-width joiner between 1 and 9) makes the display
/// unreadable, and its question is refused rather than taught with a reading nobody checked.
///
/// One set of rules for plugins' questions and packs' text parts, so both are held to the same.
package enum ShownText {
  /// A piece of a display its author reads aloud for Biki: no numerals, no invisible characters.
  /// A silent word (empty reading) may hold punctuation and symbols only (。, （, ・).
  package struct Word: Equatable, Sendable {
    package var text: String
    package var reading: String

    package init(text: String, reading: String) {
      self.text = text
      self.reading = reading
    }
  }

  /// A display read whole.
  package struct Read: Equatable, Sendable {
    /// Every reading of the whole display: the words' and Biki's, in order.
    package var reading: Reading
    /// The run that shows a number (`¥286`, `明治19年`), nil when the display shows none.
    package var numberRun: String?
  }

  package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
    /// A character that shows nothing, or looks like something it is not.
    case invisible(Unicode.Scalar)
    /// A numeral in a declared word: only Biki reads numbers.
    case numeralInWord(word: String, numeral: Unicode.Scalar)
    /// A word with no reading that is not punctuation.
    case silentWord(String)
    /// A reading that is not hiragana.
    case wordReading(word: String, reading: String)
    /// Text Biki cannot read that no word declares.
    case unreadable(run: String, reason: String)
    /// A declared word that Biki reads as part of the number beside it (本 after 9).
    case wordSplitsPhrase(word: String, phrase: String)
    /// More than one number shown: which one is the answer?
    case severalNumbers([String])
    /// Nothing to read at all.
    case empty

    package var description: String {
      switch self {
      case .invisible(let scalar):
        "it holds \(ShownText.name(scalar)), which shows nothing or passes for something else; a display shows only what it says"
      case .numeralInWord(let word, let numeral):
        "the declared word \"\(word)\" holds the numeral \(ShownText.name(numeral)); numbers are shown where Biki reads them, never inside a word"
      case .silentWord(let word):
        "the declared word \"\(word)\" has no reading, which only punctuation may have"
      case .wordReading(let word, let reading):
        "the declared word \"\(word)\" is read \"\(reading)\", which is not hiragana"
      case .unreadable(let run, let reason):
        "Biki does not read \"\(run)\" (\(reason)); declare the words it does not know with their readings (\"words\")"
      case .wordSplitsPhrase(let word, let phrase):
        "the declared word \"\(word)\" is part of \"\(phrase)\", which Biki reads as one phrase; leave it to Biki"
      case .severalNumbers(let runs):
        "it shows \(runs.count) numbers (\(runs.map { "\"\($0)\"" }.joined(separator: ", "))); a question shows the one it asks for"
      case .empty:
        "there is nothing in it to read"
      }
    }
  }

  /// `U+200D ZERO WIDTH JOINER`-style naming, so an invisible character can be found.
  static func name(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    let name = scalar.properties.name ?? scalar.properties.nameAlias
    let visible = scalar.properties.generalCategory.isVisible ? "'\(Character(scalar))' " : ""
    return visible + code + (name.map { " " + $0 } ?? "")
  }

  /// A scalar a display may not hold: control and format characters (zero-width joiners,
  /// direction marks), private and unassigned code points, enclosing marks (keycap 9⃣) and
  /// combining marks other than kana's sound marks.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .privateUse, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator, .enclosingMark: true
    case .nonspacingMark, .spacingMark: scalar.value != 0x3099 && scalar.value != 0x309A
    default: false
    }
  }

  static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .spaceSeparator }

  /// The first problem with a declared word, nil when it may be used.
  package static func problem(with word: Word) -> Problem? {
    guard !word.text.isEmpty else { return .silentWord(word.text) }
    for scalar in word.text.unicodeScalars {
      if isInvisible(scalar) { return .invisible(scalar) }
      if scalar.properties.numericType != nil { return .numeralInWord(word: word.text, numeral: scalar) }
    }
    if word.reading.isEmpty {
      let punctuation = word.text.unicodeScalars.allSatisfy { scalar in
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
          .otherPunctuation, .mathSymbol, .otherSymbol, .modifierSymbol, .spaceSeparator:
          true
        default: false
        }
      }
      return punctuation ? nil : .silentWord(word.text)
    }
    return KanaText.isKana(word.reading) ? nil : .wordReading(word: word.text, reading: word.reading)
  }

  /// The whole of `display` read: declared `words` where they stand (the longest first), the
  /// rest by `reader` (Biki's phrase reader, perhaps remembering what it read), spaces silent.
  package static func read(_ display: String, words: [Word], reader: (String) -> Result<Reading, ReadingError>) -> Result<Read, Problem> {
    for word in words {
      if let problem = problem(with: word) { return .failure(problem) }
    }
    // Most displays declare no words and hold no space: one run, read as it is, without taking
    // the text apart (this runs for every question a plugin writes).
    if words.isEmpty {
      var plain = true
      var showsNumber = false
      for scalar in display.unicodeScalars {
        if scalar.value < 0x80 {
          if scalar.value >= 0x30 && scalar.value <= 0x39 { showsNumber = true } else if scalar.value <= 0x20 || scalar.value == 0x7F { plain = false }
          continue
        }
        if isInvisible(scalar) { return .failure(.invisible(scalar)) }
        if isSpace(scalar) { plain = false }
        if scalar.properties.numericType != nil || scalar == "元" { showsNumber = true }
      }
      if plain {
        switch reader(display) {
        case .success(let reading): return .success(Read(reading: reading, numberRun: showsNumber ? display : nil))
        case .failure(let error): return .failure(.unreadable(run: display, reason: error.reason(for: display)))
        }
      }
    }
    let scalars = Array(display.unicodeScalars)
    if let hidden = scalars.first(where: isInvisible) { return .failure(.invisible(hidden)) }
    let candidates = words.map { (scalars: Array($0.text.unicodeScalars), word: $0) }.sorted { $0.scalars.count > $1.scalars.count }

    enum Piece {
      case word(Word)
      case run(String)
      case space
    }
    var pieces: [Piece] = []
    var run = String.UnicodeScalarView()
    func endRun() {
      guard !run.isEmpty else { return }
      pieces.append(.run(String(run)))
      run = String.UnicodeScalarView()
    }
    var index = 0
    while index < scalars.count {
      if let match = candidates.first(where: { $0.scalars.count <= scalars.count - index && scalars[index..<(index + $0.scalars.count)].elementsEqual($0.scalars) }) {
        endRun()
        pieces.append(.word(match.word))
        index += match.scalars.count
      } else if isSpace(scalars[index]) {
        endRun()
        pieces.append(.space)
        index += 1
      } else {
        run.append(scalars[index])
        index += 1
      }
    }
    endRun()

    var segments: [Reading] = []
    var numberRuns: [String] = []
    for (position, piece) in pieces.enumerated() {
      switch piece {
      case .space: continue
      case .word(let word):
        // A word Biki would read with the number beside it (本 after 9, ¥ before 286) would
        // let its author say how the number is read.
        if position > 0, case .run(let before) = pieces[position - 1] {
          for length in 1...word.text.unicodeScalars.count {
            let phrase = before + String(String.UnicodeScalarView(word.text.unicodeScalars.prefix(length)))
            if case .success = reader(phrase) { return .failure(.wordSplitsPhrase(word: word.text, phrase: phrase)) }
          }
        }
        if position + 1 < pieces.count, case .run(let after) = pieces[position + 1] {
          for length in 1...word.text.unicodeScalars.count {
            let phrase = String(String.UnicodeScalarView(word.text.unicodeScalars.suffix(length))) + after
            if case .success = reader(phrase) { return .failure(.wordSplitsPhrase(word: word.text, phrase: phrase)) }
          }
        }
        if !word.reading.isEmpty { segments.append(Reading(word.reading)) }
      case .run(let text):
        switch reader(text) {
        case .success(let reading): segments.append(reading)
        case .failure(let error): return .failure(.unreadable(run: text, reason: error.reason(for: text)))
        }
        if text.unicodeScalars.contains(where: { $0.properties.numericType != nil || $0 == "元" }) { numberRuns.append(text) }
      }
    }
    guard numberRuns.count <= 1 else { return .failure(.severalNumbers(numberRuns)) }
    guard var whole = segments.first else { return .failure(.empty) }
    for segment in segments.dropFirst() { whole = whole.appending(segment) }
    return .success(Read(reading: whole, numberRun: numberRuns.first))
  }
}

extension Unicode.GeneralCategory {
  /// Whether a character of this category can be shown as itself in a message.
  fileprivate var isVisible: Bool {
    switch self {
    case .control, .format, .privateUse, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator, .spaceSeparator, .nonspacingMark,
      .spacingMark, .enclosingMark:
      false
    default: true
    }
  }
}

extension ReadingError {
  /// Why, without the text itself (which the message around it names).
  fileprivate func reason(for text: String) -> String {
    if case .unreadable(_, let reason) = self { return reason }
    return description
  }
}
