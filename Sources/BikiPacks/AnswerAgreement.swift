import BikiCore
import BikiJapanese

/// Which part a topic's answer is, found by value, not by how the pack spells it: a part whose
/// number equals the answer's value in every question checked is the one the answer asks for
/// (`"value": "u"` with `"u": {"derive": "t"}`, `" t"`, `"(t)"` all name the part showing `t`).
/// Such an answer must then be typed as that part shows it: the same shape, and for a fraction
/// the same denominator, in every question.
struct AnswerAgreement {
  /// Per part: whether its number has equalled the answer's value in every question so far.
  private var sameValue: [Bool]
  /// Per part: the first question where the shapes differ, as (shown, answered, index).
  private var shapeDiffers: [(shown: WrittenNumber, answered: WrittenNumber, index: UInt64)?]
  private var questions = 0

  init(parts: Int) {
    sameValue = Array(repeating: true, count: parts)
    shapeDiffers = Array(repeating: nil, count: parts)
  }

  mutating func note(_ answer: Answer, index: UInt64, pieces: [TopicProgram.ShownPiece]) {
    questions += 1
    let answered = WrittenNumber(value: answer.value, shape: answer.shape)
    for piece in pieces where sameValue[piece.part] {
      // A part that shows one number is a candidate; text and choices are not the answer's part.
      guard let numbers = piece.numbers, numbers.count == 1, let shown = numbers.first, piece.isValuePart else {
        sameValue[piece.part] = false
        continue
      }
      guard shown.value == answer.value else {
        sameValue[piece.part] = false
        continue
      }
      // A code is a whole number written digit by digit: answered by its value, it is right.
      let compatible = shown.shape.isSameKind(as: answer.shape) || (answer.shape == .whole && shown.isCode)
      if !compatible, shapeDiffers[piece.part] == nil { shapeDiffers[piece.part] = (shown, answered, index) }
    }
  }

  /// Reports the first part the answer is and is typed otherwise; true when there is none.
  func report(into reader: inout NodeReader, definition: TopicDefinition) -> Bool {
    guard questions > 0 else { return true }
    for part in sameValue.indices where sameValue[part] {
      guard let (shown, answered, index) = shapeDiffers[part] else { continue }
      reader.error(
        "the answer is the number part \(part + 1) shows, but question \(index) shows \(shown) (\(shown.shape.name)) and its answer is \(answered) (\(answered.shape.name)); give the answer the part's \(Self.fix(for: shown.shape)), so what is typed is what is shown",
        "answer-shape", at: definition.answer.range)
      return false
    }
    return true
  }

  private static func fix(for shape: NumberShape) -> String {
    switch shape {
    case .whole, .code: "shape (no \"decimals\", \"denominator\" or \"style\": \"clock\")"
    case .decimal(let places): "\"decimals\": \(places)"
    case .fraction: "\"denominator\" (the same expression as the part's)"
    case .clock: "\"style\": \"clock\""
    }
  }
}
