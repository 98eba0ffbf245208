import BikiCore
import BikiJapanese

/// A test fixture: questions about one number from an arithmetic range, read bare, as money,
/// or with a counter (1–10, ¥800–6,000 by 10, 1–10本, 1–12月), for tests of sessions, answer
/// checking and scheduling that need questions without a pack. No topic Biki serves is made
/// this way: those come from packs (TopicPacks) and plugins.
package struct NumberPhraseGenerator: Sendable {
  package enum Phrasing: Hashable, Sendable {
    case number
    case money
    case counted(Counter)
  }

  package var range: ClosedRange<Int64>
  package var step: Int64
  package var phrasing: Phrasing

  package init(range: ClosedRange<Int64>, step: Int64 = 1, phrasing: Phrasing) throws(ParameterError) {
    guard range.lowerBound >= 0 else {
      throw .inconsistent("values must not be negative, but the range starts at \(range.lowerBound)")
    }
    guard step > 0 else { throw .inconsistent("step must be positive, not \(step)") }
    guard (range.upperBound - range.lowerBound) % step == 0 else {
      throw .inconsistent("step \(step) does not divide the range \(range.lowerBound)–\(range.upperBound)")
    }
    self.range = range
    self.step = step
    self.phrasing = phrasing
  }

  package var count: UInt64 { UInt64((range.upperBound - range.lowerBound) / step) + 1 }

  package func value(at index: UInt64) -> Int64 {
    range.lowerBound + Int64(index) * step
  }

  /// A generator for `topic` over this range.
  package func generator(for topic: Topic) -> QuestionGenerator {
    let phrase = self
    return QuestionGenerator(
      QuestionsOnTheSpot(topic: topic, spaceSize: count, formsAt: { index in phrase.forms(index: index) }) {
        index throws(GenerationError) in try phrase.question(topicID: topic.id, index: index)
      })
  }

  /// The forms the question at `index` exercises.
  package func forms(index: UInt64) -> [ReadingForm] {
    let value = value(at: index)
    guard value >= 0 else { return [] }
    switch phrasing {
    case .number: return ReadingForms.of(UInt128(value))
    case .money: return ReadingForms.of(UInt128(value), counter: .yen)
    case .counted(let counter): return ReadingForms.of(UInt128(value), counter: counter)
    }
  }

  package func question(topicID: String, index: UInt64) throws(GenerationError) -> Question {
    let value = value(at: index)
    let digits = NumberFormatting.grouped(value)
    let kanji = JapaneseNumber.kanji(UInt128(value))
    do {
      switch phrasing {
      case .number:
        return Question(
          topicID: topicID, seed: index, display: digits, kanjiDisplay: kanji,
          reading: try JapaneseNumber.reading(of: UInt128(value)), answer: Answer(value: value))
      case .money:
        return Question(
          topicID: topicID, seed: index, display: "¥" + digits, kanjiDisplay: kanji + "円",
          reading: try JapaneseNumber.reading(of: UInt128(value), with: .yen),
          answer: Answer(value: value, prefix: "¥", acceptedAffixes: ["￥", "円", "えん"]))
      case .counted(let counter):
        // A count written whole (十 with つ) is shown so and answered without its counter, as
        // packs show and answer it: never 10つ.
        if value >= 0, let whole = counter.writtenWhole[UInt64(value)] {
          return Question(
            topicID: topicID, seed: index, display: whole, kanjiDisplay: whole,
            reading: try JapaneseNumber.reading(of: UInt128(value), with: counter),
            answer: Answer(value: value))
        }
        return Question(
          topicID: topicID, seed: index, display: digits + counter.symbol, kanjiDisplay: kanji + counter.symbol,
          reading: try JapaneseNumber.reading(of: UInt128(value), with: counter),
          answer: Answer(value: value, postfix: counter.symbol, acceptedAffixes: counter.symbols))
      }
    } catch {
      throw GenerationError(topicID: topicID, reason: error.description)
    }
  }
}
