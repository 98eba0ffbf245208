import BikiCore
import BikiJapanese

/// A question's display as its parts make it, each with the numbers it shows in the one model
/// of a number, for the compiler's proof that the display read whole says what the parts say.
extension TopicProgram {
  /// One part as shown in a question.
  struct ShownPiece {
    var display: String
    var reading: Reading
    /// The numbers the part shows (a number part's value in its shape, a clock's time, a
    /// choice's as Biki reads its text); nil for a word Biki does not read (a text part, or a
    /// choice's item Biki cannot read), which the author reads for Biki.
    var numbers: [WrittenNumber]?
    /// Which part of the topic it is.
    var part: Int
    /// Whether the part shows a value the pack computes (a number, an amount, a time), which an
    /// answer can be; text and choices show what their author wrote.
    var isValuePart: Bool
  }

  /// The parts of a question as shown, in order, from their rendering.
  func shownPieces(_ rendered: RenderedParts, reader: PhraseReader) throws -> [ShownPiece] {
    var pieces: [ShownPiece] = []
    pieces.reserveCapacity(parts.count)
    for (position, (part, shown)) in zip(parts, rendered.parts).enumerated() {
      pieces.append(
        ShownPiece(
          display: shown.display, reading: shown.reading,
          numbers: try numbers(of: part, shown: shown.display, rendered.slots, reader: reader), part: position,
          isValuePart: part.showsValue))
    }
    return pieces
  }

  /// What a part shows, in the model: built from the part's own value and style where it has
  /// one, read by Biki from its text where it is text.
  private func numbers(of part: Part, shown: String, _ slots: [Int64], reader: PhraseReader) throws -> [WrittenNumber]?
  {
    switch part {
    case .text, .choice:
      // Text Biki reads itself (8本, 1×1) shows what Biki reads in it; other text is a word,
      // and text without a numeral is one whatever else Biki reads in it (午前, ¥).
      guard shown.unicodeScalars.contains(where: KanjiNumeral.isPartOfNumber) else { return nil }
      return try? reader.numbers(in: shown)
    case .number(let expression, let counterSource, let style):
      let value = try expression.evaluate(self, slots)
      let unit = try counterSource.map { source throws(ExpressionError) in try counter(source, slots).symbol }
      return [WrittenNumber(value: value, shape: try shape(of: style, value: value, slots), unit: unit)]
    case .money(let expression):
      return [WrittenNumber(value: try expression.evaluate(self, slots), unit: "円")]
    case .clock(let expression):
      return [WrittenNumber(value: try expression.evaluate(self, slots), shape: .clock)]
    case .eraYear(let slot):
      guard let pair = eraYear(of: slot, slots) else { return [] }
      return [WrittenNumber(value: Int64(pair.year), unit: "年", era: pair.era)]
    }
  }

  private func shape(of style: NumberStyle, value: Int64, _ slots: [Int64]) throws -> NumberShape {
    switch style {
    case .grouped, .plain, .kanjiDigits: .whole
    case .digits(let width): .code(width: max(width, String(value.magnitude).count))
    case .decimal(let places, _): .decimal(places: places)
    case .fraction(let denominator, let slashed):
      .fraction(denominator: try denominator.evaluate(self, slots), slashed: slashed)
    }
  }
}

extension TopicProgram.Part {
  /// Whether the part shows a number the pack computes.
  var showsValue: Bool {
    switch self {
    case .number, .money, .clock: true
    case .text, .choice, .eraYear: false
    }
  }
}
