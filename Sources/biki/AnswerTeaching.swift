import BikiCore
import BikiJapanese

/// What the terminal quiz shows once a question closes, as the editors show it: the question in
/// kanji with its standard reading, the other readings accepted on a line of their own, and,
/// for a reading missed, one sentence on each sound change it turns on.
enum AnswerTeaching {
  /// `matched` is the reading a right answer matched (of the counter the learner chose).
  static func lines(for result: Session.QuestionResult, skill: Skill, matched: Reading?) -> [String] {
    let question = result.question
    let reading = matched ?? question.reading
    var lines = ["   \(question.kanjiDisplay)  \(reading.standard)"]
    let others = reading.all(limit: 8).dropFirst()
    if !others.isEmpty { lines.append("   also accepted: " + others.joined(separator: ", ")) }
    // Which counter: why it is the thing's, in a line for each usual one.
    if skill == .counter, let counted = question.counted {
      lines += counted.usualCounters.compactMap { CounterUses.sentence(for: $0) }.map { "   " + $0 + "." }
    }
    // The number's reading is the answer of these skills; in the others the digits are.
    let missed = result.outcome != .correct || !result.wrongAnswers.isEmpty
    guard missed, skill == .kana || skill == .counter || skill == .listening else { return lines }
    lines += question.forms.compactMap { SoundChangeNote.sentence(for: $0) }.prefix(2).map { "   " + $0 }
    return lines
  }
}
