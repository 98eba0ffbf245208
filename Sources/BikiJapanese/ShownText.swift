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
    var text: String
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
    /// A numeral in a declared word that is not part of the word (`numeralProblem(in:)`): only
    /// Biki reads numbers.
    case numeralInWord(word: String, numeral: Unicode.Scalar)
    /// A declared word whose reading reads a number in it otherwise than Biki does.
    case numberInWordMisread(word: String, number: String, reading: String)
    /// A word with no reading that is not punctuation.
    case silentWord(String)
    /// A reading that is not hiragana (or starts with ー, which lengthens nothing there).
    case wordReading(word: String, reading: String)
    /// Text Biki cannot read that no word declares.
    case unreadable(run: String, reason: String)
    /// A declared word that Biki reads as part of the number beside it (本 after 9).
    case wordSplitsPhrase(word: String, phrase: String)
    /// A silent word right against a numeral: what it shows there (a dash, ▲) may change the
    /// number, and nobody said how it reads.
    case silentAtNumber(word: String)
    /// A word that ends in a sign (a dash, ▲, △) right before a numeral: the sign is the
    /// number's, and Biki reads only the signs it knows (-, −, －, マイナス).
    case signInWord(word: String, sign: Unicode.Scalar)
    /// More than one number shown: which one is the answer?
    case severalNumbers([String])
    /// Nothing to read at all.
    case empty

    package var description: String {
      switch self {
      case .invisible(let scalar):
        "it holds \(ShownText.name(scalar)), which shows nothing or passes for something else; a display shows only what it says"
      case .numeralInWord(let word, let numeral):
        "the declared word \"\(word)\" holds the numeral \(ShownText.name(numeral)) as a number; numbers are shown where Biki reads them, never inside a word (a kanji numeral that is part of a word, as in 東京駅 or 一緒, is taken)"
      case .numberInWordMisread(let word, let number, let reading):
        "the declared word \"\(word)\" reads \(number) as a number, which Biki reads \(reading); give its reading as Biki's, or show the number where Biki reads it"
      case .silentWord(let word):
        "the declared word \"\(word)\" has no reading, which only punctuation may have"
      case .wordReading(let word, let reading):
        KanaText.startsWithLongVowelMark(reading)
          ? "the declared word \"\(word)\" is read \"\(reading)\", which starts with ー; ー lengthens the kana before it"
          : "the declared word \"\(word)\" is read \"\(reading)\", which is not hiragana"
      case .unreadable(let run, let reason):
        "Biki does not read \"\(run)\" (\(reason)); declare the words it does not know with their readings (\"words\")"
      case .wordSplitsPhrase(let word, let phrase):
        "the declared word \"\(word)\" is part of \"\(phrase)\", which Biki reads as one phrase; leave it to Biki"
      case .silentAtNumber(let word):
        "the declared word \"\(word)\" has no reading and stands against a number; only brackets around a number may be silent"
      case .signInWord(let word, let sign):
        "the declared word \"\(word)\" ends in \(ShownText.name(sign)) right before a number, which shows the number below zero or not as Biki cannot tell; write - or マイナス before it"
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
    // What displays are made of, looked up without the Unicode tables: printable ASCII, kana
    // (but not their combining sound marks), CJK ideographs.
    switch scalar.value {
    case 0x21...0x7E, 0x3041...0x3096, 0x309B...0x30FF, 0x4E00...0x9FFF: return false
    default: break
    }
    return switch scalar.properties.generalCategory {
    case .control, .format, .privateUse, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator, .enclosingMark:
      true
    case .nonspacingMark, .spacingMark: scalar.value != 0x3099 && scalar.value != 0x309A
    default: false
    }
  }

  /// A character that before a number can mean it is below zero: any dash or minus (‐ – — ﹣
  /// ⁻ ₋, whatever their width), and the accounting marks ▲ △ ▼ ▽.
  package static func isSignLike(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x2D, 0x2212, 0x207B, 0x208B, 0xFE63, 0xFF0D, 0x25B2, 0x25B3, 0x25BC, 0x25BD: return true
    default: return scalar.properties.generalCategory == .dashPunctuation
    }
  }

  private static func opensBeforeNumber(_ scalar: Unicode.Scalar) -> Bool {
    isSpace(scalar) || [.openPunctuation, .initialPunctuation].contains(scalar.properties.generalCategory)
  }

  private static func closesAfterNumber(_ scalar: Unicode.Scalar) -> Bool {
    isSpace(scalar) || scalar == "。"
      || [.closePunctuation, .finalPunctuation].contains(scalar.properties.generalCategory)
  }

  static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x20, 0x3000: return true
    case 0...0x7F, 0x3001...0x30FF, 0x4E00...0x9FFF: return false
    default: return scalar.properties.generalCategory == .spaceSeparator
    }
  }

  /// The first problem with a declared word, nil when it may be used.
  package static func problem(with word: Word) -> Problem? {
    guard !word.text.isEmpty else { return .silentWord(word.text) }
    if let hidden = word.text.unicodeScalars.first(where: isInvisible) { return .invisible(hidden) }
    if let problem = numeralProblem(in: word) { return problem }
    if word.reading.isEmpty {
      let punctuation = word.text.unicodeScalars.allSatisfy { scalar in
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
          .finalPunctuation,
          .otherPunctuation, .mathSymbol, .otherSymbol, .modifierSymbol, .spaceSeparator:
          true
        default: false
        }
      }
      return punctuation ? nil : .silentWord(word.text)
    }
    // ー lengthens the kana before it: a reading cannot start with it.
    return KanaText.isKana(word.reading) && !KanaText.startsWithLongVowelMark(word.reading)
      ? nil : .wordReading(word: word.text, reading: word.reading)
  }

  /// The phrase Biki would read across the end of `left` and the start of `right`, where one
  /// is a declared word: a counter, unit or 半 right after a numeral (9 + 本), or a word Biki
  /// reads before a number (午後, ¥, 令和) right before one. Nil when the two stay apart.
  static func phraseAcross(_ left: ArraySlice<Unicode.Scalar>, _ right: ArraySlice<Unicode.Scalar>) -> String? {
    guard let last = left.last, let first = right.first else { return nil }
    func text(_ scalars: some Sequence<Unicode.Scalar>) -> String { String(String.UnicodeScalarView(scalars)) }
    if KanjiNumeral.isPartOfNumber(last) {
      let found = Array(right).withUnsafeBufferPointer { buffer in
        CounterCatalog.standard.symbolIndex.longestPrefix(of: buffer[...])
          ?? PhraseTokenizer.half.longestPrefix(of: buffer[...])
      }
      if let found { return text(left) + found.word }
    }
    let numberFollows =
      KanjiNumeral.isPartOfNumber(first)
      || Array(right).withUnsafeBufferPointer { PhraseTokenizer.prefixIndex.longestPrefix(of: $0[...]) != nil }
    guard numberFollows else { return nil }
    for prefix in phrasePrefixes where left.count >= prefix.count && left.suffix(prefix.count).elementsEqual(prefix) {
      return text(prefix) + text(right)
    }
    return nil
  }

  /// The words Biki reads before a number (午後, ¥, 令和), as scalars.
  private static let phrasePrefixes = PhraseTokenizer.prefixes.map { Array($0.unicodeScalars) }

  /// Whether a scalar is part of a shown number: a numeral Biki reads, 元 (元年), or a numeral
  /// of any script (which Biki then refuses to have read).
  static func showsNumber(_ scalar: Unicode.Scalar) -> Bool {
    if KanjiNumeral.isPartOfNumber(scalar) || scalar == "元" { return true }
    switch scalar.value {
    case 0...0x7F, 0x3041...0x30FF: return false
    default: return scalar.properties.numericType != nil
    }
  }

  /// Declared words that passed `problem(with:)`, longest first (the order they are matched
  /// in): checked once per question, for both its displays.
  package struct Words: Sendable {
    fileprivate let candidates: [(scalars: [Unicode.Scalar], word: Word)]

    package static let none = Words(checked: [])

    package init(_ words: [Word]) throws(Problem) {
      for word in words {
        if let problem = ShownText.problem(with: word) { throw problem }
      }
      self.init(checked: words)
    }

    private init(checked words: [Word]) {
      candidates = words.map { (Array($0.text.unicodeScalars), $0) }.sorted { $0.scalars.count > $1.scalars.count }
    }

    var isEmpty: Bool { candidates.isEmpty }
  }

  /// The whole of `display` read: declared `words` where they stand (the longest first), the
  /// rest by `reader` (Biki's phrase reader, perhaps remembering what it read), spaces silent.
  package static func read(_ display: String, words: [Word], reader: (String) -> Result<Reading, ReadingError>)
    -> Result<Read, Problem>
  {
    do {
      return read(display, words: try Words(words), reader: reader)
    } catch {
      return .failure(error)
    }
  }

  package static func read(_ display: String, words: Words, reader: (String) -> Result<Reading, ReadingError>)
    -> Result<Read, Problem>
  {
    // Most displays declare no words and hold no space: one run, read as it is, without taking
    // the text apart (this runs for every question a plugin writes).
    if words.isEmpty {
      var plain = true
      var showsNumber = false
      for scalar in display.unicodeScalars {
        if scalar.value < 0x80 {
          if scalar.value >= 0x30 && scalar.value <= 0x39 {
            showsNumber = true
          } else if scalar.value <= 0x20 || scalar.value == 0x7F {
            plain = false
          }
          continue
        }
        if isInvisible(scalar) { return .failure(.invisible(scalar)) }
        if isSpace(scalar) { plain = false }
        if Self.showsNumber(scalar) { showsNumber = true }
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

    enum Piece {
      case word(Word, Range<Int>)
      case run(Range<Int>)
      case space

      func starts(in scalars: [Unicode.Scalar], where test: (Unicode.Scalar) -> Bool) -> Bool {
        guard case .run(let range) = self, let first = scalars[range].first else { return false }
        return test(first)
      }

      func ends(in scalars: [Unicode.Scalar], where test: (Unicode.Scalar) -> Bool) -> Bool {
        guard case .run(let range) = self, let last = scalars[range].last else { return false }
        return test(last)
      }
    }
    var pieces: [Piece] = []
    var runStart: Int?
    func endRun(at end: Int) {
      guard let start = runStart else { return }
      pieces.append(.run(start..<end))
      runStart = nil
    }
    var index = 0
    while index < scalars.count {
      if let match = words.candidates.first(where: {
        $0.scalars.count <= scalars.count - index
          && scalars[index..<(index + $0.scalars.count)].elementsEqual($0.scalars)
      }) {
        endRun(at: index)
        pieces.append(.word(match.word, index..<(index + match.scalars.count)))
        index += match.scalars.count
      } else if isSpace(scalars[index]) {
        endRun(at: index)
        pieces.append(.space)
        index += 1
      } else {
        if runStart == nil { runStart = index }
        index += 1
      }
    }
    endRun(at: scalars.count)
    // Runs are cut from the display's own storage (a copy of bytes), not rebuilt scalar by scalar.
    let positions = Array(display.unicodeScalars.indices) + [display.unicodeScalars.endIndex]
    func text(_ range: Range<Int>) -> String {
      String(display.unicodeScalars[positions[range.lowerBound]..<positions[range.upperBound]])
    }

    var segments: [Reading] = []
    var numberRuns: [String] = []
    for (position, piece) in pieces.enumerated() {
      switch piece {
      case .space: continue
      case .word(let word, let range):
        // A word Biki would read with the number beside it (本 after 9, ¥ before 286) would
        // let its author say how the number is read.
        if position > 0, case .run(let before) = pieces[position - 1],
          let phrase = Self.phraseAcross(scalars[before], scalars[range])
        {
          return .failure(.wordSplitsPhrase(word: word.text, phrase: phrase))
        }
        if position + 1 < pieces.count, case .run(let after) = pieces[position + 1],
          let phrase = Self.phraseAcross(scalars[range], scalars[after])
        {
          return .failure(.wordSplitsPhrase(word: word.text, phrase: phrase))
        }
        let numberBefore = position > 0 && pieces[position - 1].ends(in: scalars, where: showsNumber)
        let numberAfter = position + 1 < pieces.count && pieces[position + 1].starts(in: scalars, where: showsNumber)
        // Brackets may open before a number and close after it, a sentence end follow it and a
        // space stand either side; any other silent mark there (a dash, ▲, ・, a slash) could
        // change the number.
        let scalarsOfWord = scalars[range]
        if word.reading.isEmpty,
          (numberAfter && !scalarsOfWord.allSatisfy(Self.opensBeforeNumber))
            || (numberBefore && !scalarsOfWord.allSatisfy(Self.closesAfterNumber))
        {
          return .failure(.silentAtNumber(word: word.text))
        }
        if numberAfter, let last = scalars[range].last, isSignLike(last) {
          return .failure(.signInWord(word: word.text, sign: last))
        }
        if !word.reading.isEmpty { segments.append(Reading(word.reading)) }
      case .run(let range):
        let run = text(range)
        switch reader(run) {
        case .success(let reading): segments.append(reading)
        case .failure(let error): return .failure(.unreadable(run: run, reason: error.reason(for: run)))
        }
        if scalars[range].contains(where: showsNumber) { numberRuns.append(run) }
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
    case .control, .format, .privateUse, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator, .spaceSeparator,
      .nonspacingMark,
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
