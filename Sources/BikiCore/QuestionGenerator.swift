import BikiJapanese

/// Makes a topic's questions. Whatever the source of a topic (a JSON pack, a native plugin),
/// everything downstream sees this one shape.
///
/// A topic's questions form a finite space numbered `0..<spaceSize`; a seed selects the
/// question at `seed % spaceSize`, so a seed alone reproduces a question, and a session can
/// walk the space without repeats by choosing seeds below `spaceSize`.
package struct QuestionGenerator: Sendable {
  package var topic: Topic
  package var spaceSize: UInt64
  /// The question at an index below `spaceSize`.
  var questionAt: @Sendable (_ index: UInt64) throws(GenerationError) -> Question
  /// Many questions by index at once, when the source answers faster in batches (a plugin in a
  /// worker process: one round trip instead of one per question). Nil means one at a time.
  package var batch: (@Sendable (_ indices: [UInt64]) -> [Result<Question, GenerationError>])?
  /// The question at an index when it is made already (a plugin's, made ahead), without making
  /// it: nil when it is not. Nil for sources that make every question on the spot (packs).
  package var ready: (@Sendable (_ index: UInt64) -> Result<Question, GenerationError>?)?
  /// Makes the questions at these seeds ahead, `chunk` at a time, for `ready` to find; does
  /// nothing when that would not pay (a slow plugin) or when the source is already making some
  /// ahead. Runs the source's code: call it off the message loop. Nil: never.
  package var makeAhead: (@Sendable (_ seeds: [UInt64], _ chunk: Int) -> Void)?
  /// Making a question runs a native plugin's code (a worker round trip, or a library in this
  /// process), which may take up to the plugin's time limit: `biki serve` makes such questions
  /// off its message loop. Questions from packs take microseconds and are made in place.
  package var callsPlugin = false
  /// The space is already in the order to ask it (a review plan), and each question keeps the
  /// seed of the topic it came from, so the history says which question it was.
  package var isPlanned = false
  /// How many questions, numbered first, a session asks twice as often as the rest (those that
  /// exercise a sound change, when the topic favours them); 0 for an even spread.
  package var favouredCount: UInt64 = 0
  /// The forms the question at an index exercises, named apart from making the question: only
  /// the questions a learner is asked need them, and naming them costs a question's making
  /// time a quarter again. Nil: the questions carry their own (plugins).
  package var formsAt: (@Sendable (_ index: UInt64) -> [ReadingForm])?

  /// The order a session walks the space in, from its seed.
  package func order(seed: UInt64) -> QuestionOrder {
    isPlanned ? .sequential(count: spaceSize) : QuestionOrder(count: spaceSize, seed: seed, favoured: favouredCount)
  }

  /// The forms the question a seed selects exercises.
  package func forms(seed: UInt64) -> [ReadingForm] {
    if let formsAt { return formsAt(seed % spaceSize) }
    return (try? question(seed: seed))?.forms ?? []
  }

  /// The question a seed selects, with the forms it exercises: for a learner.
  package func questionWithForms(seed: UInt64) throws(GenerationError) -> Question {
    var question = try question(seed: seed)
    if let formsAt { question.forms = formsAt(seed % spaceSize) }
    return question
  }

  package init(
    topic: Topic, spaceSize: UInt64, questionAt: @Sendable @escaping (UInt64) throws(GenerationError) -> Question
  ) {
    self.topic = topic
    self.spaceSize = spaceSize
    self.questionAt = questionAt
  }

  /// The questions the seeds select, in order, batched when the source can.
  package func questions(seeds: [UInt64]) -> [Result<Question, GenerationError>] {
    guard let batch else {
      return seeds.map { seed in Result { () throws(GenerationError) in try question(seed: seed) } }
    }
    return zip(seeds, batch(seeds.map { $0 % spaceSize })).map { seed, result in
      result.map { question in
        var question = question
        question.seed = seed
        return question
      }
    }
  }

  /// The questions the seeds select when every one is made already, as `questions(seeds:)`
  /// gives them; nil when any would have to be made now (or the source makes none ahead).
  package func readyQuestions(seeds: [UInt64]) -> [Result<Question, GenerationError>]? {
    guard let ready else { return nil }
    var results: [Result<Question, GenerationError>] = []
    results.reserveCapacity(seeds.count)
    for seed in seeds {
      guard let found = ready(seed % spaceSize) else { return nil }
      results.append(
        found.map { question in
          var question = question
          question.seed = seed
          return question
        })
    }
    return results
  }

  /// The question a seed selects; its `seed` is the one given.
  package func question(seed: UInt64) throws(GenerationError) -> Question {
    var question = try questionAt(seed % spaceSize)
    if !isPlanned { question.seed = seed }
    return question
  }
}

extension QuestionGenerator {
  /// These questions, with `standIn`'s question at the same place asked instead of any that
  /// cannot be made: a plugin's topic overriding a built-in one never takes it away, even where
  /// its questions fail only on seeds its check at loading did not try.
  package func standingIn(_ standIn: QuestionGenerator) -> QuestionGenerator {
    let own = self
    let orReplacement: @Sendable (Result<Question, GenerationError>, UInt64) -> Result<Question, GenerationError> = {
      result, index in
      guard case .failure = result else { return result }
      return Result { () throws(GenerationError) in
        let place = index % standIn.spaceSize
        var question = try standIn.questionAt(place)
        if let formsAt = standIn.formsAt { question.forms = formsAt(place) }
        return question
      }
    }
    var covered = self
    covered.questionAt = { index throws(GenerationError) in
      try orReplacement(Result { () throws(GenerationError) in try own.questionAt(index) }, index).get()
    }
    if let batch = own.batch {
      covered.batch = { indices in zip(indices, batch(indices)).map { index, result in orReplacement(result, index) } }
    }
    if let ready = own.ready {
      covered.ready = { index in ready(index).map { orReplacement($0, index) } }
    }
    return covered
  }
}

package struct GenerationError: Error, Hashable, Sendable, CustomStringConvertible {
  package var topicID: String
  package var reason: String

  package init(topicID: String, reason: String) {
    self.topicID = topicID
    self.reason = reason
  }

  package var description: String { "topic \(topicID) could not generate a question: \(reason)" }
}
