import BikiCore
import BikiJSON
import BikiJapanese

/// The compiler's proof of readings: a topic is served only when the questions it was checked
/// on could all be read, and every text a pack reads for Biki agrees with Biki's reading of it.
extension TopicCompiler {
  /// How many questions of each topic to check: all of a topic's when the file's allowance
  /// covers it, else an equal share of what the smaller topics left, and never fewer than
  /// two (the first and the last question).
  static func shareOut(_ total: UInt64, perTopic: UInt64, spaces: [UInt64]) -> [UInt64] {
    var counts = [UInt64](repeating: 0, count: spaces.count)
    var left = total
    let bySize = spaces.indices.sorted { spaces[$0] < spaces[$1] }
    for (done, index) in bySize.enumerated() {
      let share = left / UInt64(spaces.count - done)
      counts[index] = min(spaces[index], perTopic, max(2, share))
      left -= min(left, counts[index])
    }
    return counts
  }

  /// Generates `count` of the topic's questions, evenly spread with the first and the last
  /// included, and reports the first whose reading cannot be produced.
  mutating func checkReadings(
    _ topic: CompiledTopic, count: UInt64, space: UInt64, definition: TopicDefinition, isCancelled: () -> Bool
  ) -> Bool {
    var answers = AnswerAgreement(parts: topic.program.parts.count)
    for step in 0..<count {
      if step % 1024 == 0, isCancelled() { return false }
      let index =
        count == 1 ? 0 : Swift.min(space - 1, UInt64((Double(step) / Double(count - 1) * Double(space - 1)).rounded()))
      let question: Question
      let shown: [TopicProgram.ShownPiece]?
      do {
        (question, shown) = try topic.program.checkedQuestion(
          topicID: topic.topic.id, index: index, reader: phraseReader)
      } catch {
        reader.error(
          "topic \"\(Excerpt.of(definition.id.value))\" cannot produce question \(index) of \(space): \(error.reason)",
          "unreadable-value",
          at: definition.parts.first?.range ?? definition.id.range)
        return false
      }
      guard checkAnswerValue(question, index: index, definition: definition) else { return false }
      guard let pieces = shown else { continue }
      let readWhole = count <= Self.wholeDisplayChecks || step % (count / Self.wholeDisplayChecks + 1) == 0
      guard !readWhole || checkShown(pieces, question: question, definition: definition) else { return false }
      answers.note(question.answer, index: index, pieces: pieces)
    }
    return answers.report(into: &reader, definition: definition)
  }

  /// What an answer may never be, whatever the pack computes: a time outside the day, an
  /// amount of money below zero.
  private mutating func checkAnswerValue(_ question: Question, index: UInt64, definition: TopicDefinition) -> Bool {
    let answer = question.answer
    if answer.shape == .clock, !(0..<24 * 60).contains(answer.value) {
      reader.error(
        "the answer is a time of day, 0 to 1439 minutes after midnight (0:00 to 23:59), and question \(index)'s is \(answer.value)",
        "answer-shape", at: definition.answer.range)
      return false
    }
    let money = ["¥", "￥"].contains(answer.prefix) || answer.postfix == "円"
    if money, answer.value < 0 {
      reader.error(
        "the answer is an amount of money, never below zero, and question \(index)'s is \(answer.value)",
        "answer-shape",
        at: definition.answer.range)
      return false
    }
    return true
  }

  /// Where the host can read a text itself (`8本`, `三月`), the declared reading must be one
  /// of the host's: a pack must not teach a reading the reading engine calls wrong. Where it
  /// cannot, the text is a word its author reads for Biki, held to the rules a plugin's
  /// declared words are (`ShownText`): no numeral (`9本。`, `𝟗本`, `玖`), no invisible
  /// character, silent only if punctuation.
  ///
  /// Returns the readings the text is answered with: the declared one first, then, where the
  /// host agrees with it, every other form the host gives (5×9 ごっくよんじゅうご too), so an answer
  /// in any accepted form counts.
  mutating func checkReadingAgrees(text: String, reading: String, at range: SourceRange) -> Reading {
    let declared = Reading(reading)
    guard let hostReading = try? phraseReader.read(text) else {
      switch ShownText.problem(with: ShownText.Word(text: text, reading: reading)) {
      case nil, .wordReading?: break  // kana is its own rule, reported where readings are read
      case let problem?: reader.error("\(problem)", "unreadable-display", at: range)
      }
      return declared
    }
    guard hostReading.accepts(KanaText.normalized(reading)) else {
      reader.error(
        "\"\(Excerpt.of(text))\" is read \(hostReading.all(limit: 4).joined(separator: " or ")), not \(Excerpt.of(reading))",
        "reading-mismatch", at: range)
      return declared
    }
    return hostReading.variantCount > 1 ? Reading(alternatives: [reading] + hostReading.all(limit: 64)) : declared
  }
}

/// How many questions the reading check generated, of how many the checked topics have.
package struct ReadingCoverage: Hashable, Sendable {
  package var checked: UInt64 = 0
  package var possible: UInt64 = 0

  package init() {}

  package mutating func add(checked count: UInt64, of space: UInt64) {
    checked += count
    possible = possible.addingReportingOverflow(space).overflow ? .max : possible + space
  }

  /// Whether some questions were left unchecked.
  package var isSample: Bool { checked < possible }
}
