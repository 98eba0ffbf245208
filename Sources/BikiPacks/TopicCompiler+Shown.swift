import BikiCore
import BikiJSON
import BikiJapanese

/// The compiler's proof that a question's display, read whole by Biki, says what its parts
/// say: parts are rendered one by one, but the learner sees them side by side, and 1 beside
/// 1:06 shows 11:06, 1.5 beside 2 shows 1.52.
extension TopicCompiler {
  /// The most questions of a topic whose displays are read whole: a display's parts run
  /// together by how the topic lays them out, which an even spread of this many shows, and
  /// reading a display whole costs as much as making the question (lint checks up to 100,000).
  static let wholeDisplayChecks: UInt64 = 4096

  /// Whether the question at `index` reads whole as its parts claim, reporting where it does
  /// not. First the whole display as Biki reads it; where Biki cannot (a word only the author
  /// reads, 気温), each stretch of parts between such words, and each word with the number
  /// beside it when Biki would read them as one phrase (16:05 and 発, - and 5).
  mutating func checkShown(_ pieces: [TopicProgram.ShownPiece], question: Question, definition: TopicDefinition)
    -> Bool
  {
    // One part alone is read as Biki reads it by construction, except digits said one by one,
    // which Biki reads so only where a leading zero shows them to be a code.
    if pieces.count == 1, let numbers = pieces[0].numbers, !numbers.contains(where: \.isCode) { return true }
    let expected = pieces.flatMap { $0.numbers ?? [] }
    if agrees(question.display, claimed: question.reading, numbers: expected) { return true }
    // Without the words at either end (体温, 発 where Biki does not read it with the rest): a
    // phone number after 電話 reads whole as one, where its groups alone would not.
    let pieces = pieces[...]
    var clean = true
    if let first = pieces.firstIndex(where: { $0.numbers != nil }),
      let last = pieces.lastIndex(where: { $0.numbers != nil }), first < last || pieces.count > 1
    {
      let core = pieces[first...last]
      if agrees(
        core.map(\.display).joined(), claimed: Self.joined(core), numbers: core.flatMap { $0.numbers ?? [] })
      {
        if first > pieces.startIndex {
          clean = checkJunction(pieces[first - 1], pieces[first], word: pieces[first - 1], definition: definition)
        }
        if clean, last + 1 < pieces.endIndex {
          clean = checkJunction(pieces[last], pieces[last + 1], word: pieces[last + 1], definition: definition)
        }
        return clean
      }
    }

    var stretch: [TopicProgram.ShownPiece] = []
    func endStretch() {
      defer { stretch = [] }
      // Digits said one by one are Biki's reading of a code only: alone, they are checked too.
      guard clean, stretch.count >= 2 || stretch.contains(where: { $0.numbers?.contains(where: \.isCode) == true })
      else { return }
      clean = reportRunTogether(stretch, definition: definition)
    }
    for (position, piece) in pieces.enumerated() {
      guard piece.numbers == nil else {
        stretch.append(piece)
        continue
      }
      endStretch()
      if clean, position > 0, pieces[position - 1].numbers != nil {
        clean = checkJunction(pieces[position - 1], piece, word: piece, definition: definition)
      }
      if clean, position + 1 < pieces.count, pieces[position + 1].numbers != nil {
        clean = checkJunction(piece, pieces[position + 1], word: piece, definition: definition)
      }
    }
    endStretch()
    return clean
  }

  /// Whether Biki reads `text` with every reading `claimed` offers, and finds in it the numbers
  /// the parts show, in order, each with its value and shape.
  private func agrees(_ text: String, claimed: Reading, numbers expected: [WrittenNumber]) -> Bool {
    guard let (reading, numbers) = try? phraseReader.readWithNumbers(text) else { return false }
    // The standard reading and the first few others: readings are lattices, and where parts
    // run together the standard reading is already another (a phone number's 64 spellings
    // would cost more than the rest of the check).
    guard reading == claimed || claimed.all(limit: 4).allSatisfy({ reading.accepts($0) }) else { return false }
    return numbers.count == expected.count
      && zip(numbers, expected).allSatisfy { $0.value == $1.value && $0.shape.isSameKind(as: $1.shape) }
  }

  /// What the pieces claim to read, in order.
  private static func joined(_ pieces: some Collection<TopicProgram.ShownPiece>) -> Reading {
    var claimed = pieces.first?.reading ?? Reading("")
    for piece in pieces.dropFirst() { claimed = claimed + piece.reading }
    return claimed
  }

  /// Parts side by side with nothing between them that Biki cannot read as one, reported on
  /// the second part (or the one part, for digits Biki reads otherwise): what Biki reads there,
  /// against what the parts say.
  private mutating func reportRunTogether(_ stretch: [TopicProgram.ShownPiece], definition: TopicDefinition) -> Bool {
    let text = stretch.map(\.display).joined()
    let claimed = Self.joined(stretch)
    let expected = stretch.flatMap { $0.numbers ?? [] }
    if agrees(text, claimed: claimed, numbers: expected) { return true }
    let said: String
    do {
      let (reading, numbers) = try phraseReader.readWithNumbers(text)
      let shown = numbers.map(\.description).joined(separator: ", ")
      said = "Biki reads \"\(Excerpt.of(text))\" \(reading.all(limit: 2).joined(separator: " or ")) (\(shown))"
    } catch {
      said = "Biki cannot read \"\(Excerpt.of(text))\" as one: \(error)"
    }
    let parts = stretch.map { "\"\(Excerpt.of($0.display))\"" }.joined(separator: " and ")
    let partNumbers = expected.map(\.description).joined(separator: ", ")
    guard stretch.count >= 2 else {
      reader.error(
        "\(said), not \(claimed.standard) (\(partNumbers)) as the part says: digits are said one by one where a leading zero shows a code (0857), or a phone number or postcode's groups",
        "reading-mismatch", at: definition.parts[stretch[0].part].range)
      return false
    }
    reader.error(
      "the parts \(parts) run together: \(said), not \(claimed.standard) (\(partNumbers)) as the parts say; put a text part between them",
      "parts-run-together", at: definition.parts[stretch[1].part].range)
    return false
  }

  /// A word only its author reads (a text part, a choice's item) beside a number: where Biki
  /// would read the two as one phrase (発 after 16:05, - before 5) or the word is a silent mark
  /// against the number, the two must read together as the parts say.
  private mutating func checkJunction(
    _ left: TopicProgram.ShownPiece, _ right: TopicProgram.ShownPiece, word: TopicProgram.ShownPiece,
    definition: TopicDefinition
  ) -> Bool {
    let text = left.display + right.display
    guard let words = try? ShownText.Words([ShownText.Word(text: word.display, reading: word.reading.standard)]) else {
      return true
    }
    let problem: ShownText.Problem
    switch ShownText.read(
      text, words: words, reader: { phrase in Result { () throws(ReadingError) in try phraseReader.read(phrase) } })
    {
    case .success, .failure(.severalNumbers), .failure(.unreadable), .failure(.empty): return true
    case .failure(let found): problem = found
    }
    if agrees(text, claimed: left.reading + right.reading, numbers: (left.numbers ?? []) + (right.numbers ?? [])) {
      return true
    }
    reader.error(
      "\"\(Excerpt.of(text))\" is not read as its parts say (\((left.reading + right.reading).standard)): \(problem)",
      "parts-run-together", at: definition.parts[word.part].range)
    return false
  }
}
