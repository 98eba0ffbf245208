import BikiJapanese

/// Where a topic's questions come from: a pack's program, a plugin in a worker process, a
/// review's plan. Every caller (`biki quiz`, `biki serve`, `biki-pack lint` and `sample`, a
/// review) asks through this one interface, and a source decides for itself what it can give
/// at once, what it keeps, and what it makes ahead: no caller asks what kind it is.
///
/// A topic's questions form a finite space numbered `0..<spaceSize`; `question(at:)` makes the
/// one at an index below it, a pure function of the index.
package protocol QuestionSource: Sendable {
  var topic: Topic { get }
  var spaceSize: UInt64 { get }
  /// How many questions, numbered first, a session asks twice as often as the rest (those that
  /// exercise a sound change, when the topic favours them); 0 for an even spread.
  var favouredCount: UInt64 { get }
  /// The space is already in the order to ask it (a review plan), and each question keeps the
  /// seed of the topic it came from, so the history says which question it was.
  var isPlanned: Bool { get }

  /// The question at `index`, made now: for a plugin, a round trip to its worker.
  func question(at index: UInt64) throws(GenerationError) -> Question
  /// The questions at these indices, in order; a source that answers faster in batches (a
  /// plugin: one round trip for all) makes them together.
  func questions(at indices: [UInt64]) -> [Result<Question, GenerationError>]
  /// The question at `index` if it can be had at once, without running a plugin's code: a
  /// pack's is made (microseconds), a plugin's is found only if it was made already. Nil: it
  /// must be made off the message loop.
  func questionAtHand(_ index: UInt64) -> Result<Question, GenerationError>?
  /// The forms the question at `index` exercises, named apart from making it (only the
  /// questions a learner is asked need them); nil when the questions carry their own.
  func forms(at index: UInt64) -> [ReadingForm]?
  /// Work that makes the questions at these indices ahead, `chunk` at a time, so that
  /// `questionAtHand` finds them; nil when there is nothing worth doing (a source that makes
  /// every question at once, a plugin too slow for it to pay, or ahead enough already). Runs a
  /// plugin's code: the caller runs it off the message loop.
  func readAhead(_ indices: [UInt64], chunk: Int) -> (@Sendable () -> Void)?
}

extension QuestionSource {
  package var favouredCount: UInt64 { 0 }
  package var isPlanned: Bool { false }

  package func questions(at indices: [UInt64]) -> [Result<Question, GenerationError>] {
    indices.map { index in Result { () throws(GenerationError) in try question(at: index) } }
  }

  /// A source that makes every question in microseconds gives every one at once.
  package func questionAtHand(_ index: UInt64) -> Result<Question, GenerationError>? {
    Result { () throws(GenerationError) in try question(at: index) }
  }

  package func forms(at index: UInt64) -> [ReadingForm]? { nil }

  package func readAhead(_ indices: [UInt64], chunk: Int) -> (@Sendable () -> Void)? { nil }
}

/// Questions made on the spot by a pure function of their index, in microseconds: a pack's
/// compiled program, a test's table.
package struct QuestionsOnTheSpot: QuestionSource {
  package let topic: Topic
  package let spaceSize: UInt64
  package let favouredCount: UInt64
  private let make: @Sendable (_ index: UInt64) throws(GenerationError) -> Question
  private let formsAt: (@Sendable (_ index: UInt64) -> [ReadingForm])?

  package init(
    topic: Topic, spaceSize: UInt64, favouredCount: UInt64 = 0,
    formsAt: (@Sendable (_ index: UInt64) -> [ReadingForm])? = nil,
    make: @Sendable @escaping (_ index: UInt64) throws(GenerationError) -> Question
  ) {
    self.topic = topic
    self.spaceSize = spaceSize
    self.favouredCount = favouredCount
    self.formsAt = formsAt
    self.make = make
  }

  package func question(at index: UInt64) throws(GenerationError) -> Question { try make(index) }

  package func forms(at index: UInt64) -> [ReadingForm]? { formsAt?(index) }
}

/// A topic's questions as every caller asks for them, by seed: a seed selects the question at
/// `seed % spaceSize`, so a seed alone reproduces a question, and a session can walk the space
/// without repeats by choosing seeds below `spaceSize`. Whatever the source of a topic (a JSON
/// pack, a native plugin, a review plan), everything downstream sees this one shape.
package struct QuestionGenerator: Sendable {
  package let source: any QuestionSource

  package init(_ source: some QuestionSource) { self.source = source }

  /// Questions made on the spot by `questionAt`.
  package init(
    topic: Topic, spaceSize: UInt64, questionAt: @Sendable @escaping (UInt64) throws(GenerationError) -> Question
  ) {
    self.init(QuestionsOnTheSpot(topic: topic, spaceSize: spaceSize, make: questionAt))
  }

  package var topic: Topic { source.topic }
  package var spaceSize: UInt64 { source.spaceSize }
  package var favouredCount: UInt64 { source.favouredCount }

  /// The order a session walks the space in, from its seed.
  package func order(seed: UInt64) -> QuestionOrder {
    source.isPlanned
      ? .sequential(count: spaceSize) : QuestionOrder(count: spaceSize, seed: seed, favoured: favouredCount)
  }

  /// The forms the question a seed selects exercises.
  package func forms(seed: UInt64) -> [ReadingForm] {
    if let forms = source.forms(at: seed % spaceSize) { return forms }
    return (try? question(seed: seed))?.forms ?? []
  }

  /// The question a seed selects, with the forms it exercises: for a learner.
  package func questionWithForms(seed: UInt64) throws(GenerationError) -> Question {
    withForms(try question(seed: seed), seed: seed)
  }

  /// The question a seed selects, with its forms, if the source can give it at once (see
  /// `QuestionSource.questionAtHand`); nil when it must be made off the message loop.
  package func questionAtHand(seed: UInt64) -> Result<Question, GenerationError>? {
    source.questionAtHand(seed % spaceSize).map { found in found.map { withForms(seeded($0, seed), seed: seed) } }
  }

  /// The questions the seeds select, as `questions(seeds:)` gives them, when the source can
  /// give every one at once; nil when any must be made off the message loop.
  package func questionsAtHand(seeds: [UInt64]) -> [Result<Question, GenerationError>]? {
    var results: [Result<Question, GenerationError>] = []
    results.reserveCapacity(seeds.count)
    for seed in seeds {
      guard let found = source.questionAtHand(seed % spaceSize) else { return nil }
      results.append(found.map { seeded($0, seed) })
    }
    return results
  }

  /// Work that makes the questions at these seeds ahead (see `QuestionSource.readAhead`).
  package func readAhead(seeds: [UInt64], chunk: Int) -> (@Sendable () -> Void)? {
    source.readAhead(seeds.map { $0 % spaceSize }, chunk: chunk)
  }

  /// The questions the seeds select, in order, batched when the source can.
  package func questions(seeds: [UInt64]) -> [Result<Question, GenerationError>] {
    zip(seeds, source.questions(at: seeds.map { $0 % spaceSize })).map { seed, result in
      result.map { seeded($0, seed) }
    }
  }

  /// The question a seed selects; its `seed` is the one given.
  package func question(seed: UInt64) throws(GenerationError) -> Question {
    seeded(try source.question(at: seed % spaceSize), seed)
  }

  /// A question of a planned space keeps the seed of the topic it came from.
  private func seeded(_ question: Question, _ seed: UInt64) -> Question {
    guard !source.isPlanned else { return question }
    var question = question
    question.seed = seed
    return question
  }

  private func withForms(_ question: Question, seed: UInt64) -> Question {
    guard let forms = source.forms(at: seed % spaceSize) else { return question }
    var question = question
    question.forms = forms
    return question
  }

  /// These questions, with `standIn`'s question at the same place asked instead of any that
  /// cannot be made: a plugin's topic overriding a built-in one never takes it away, even where
  /// its questions fail only on seeds its check at loading did not try.
  package func standingIn(_ standIn: QuestionGenerator) -> QuestionGenerator {
    QuestionGenerator(StoodInQuestions(own: source, standIn: standIn.source))
  }
}

/// One source's questions, with another's at the same place where one cannot be made.
private struct StoodInQuestions: QuestionSource {
  let own: any QuestionSource
  let standIn: any QuestionSource

  var topic: Topic { own.topic }
  var spaceSize: UInt64 { own.spaceSize }
  var favouredCount: UInt64 { own.favouredCount }

  func orReplacement(_ result: Result<Question, GenerationError>, _ index: UInt64) -> Result<Question, GenerationError>
  {
    guard case .failure = result else { return result }
    return Result { () throws(GenerationError) in
      let place = index % standIn.spaceSize
      var question = try standIn.question(at: place)
      if let forms = standIn.forms(at: place) { question.forms = forms }
      return question
    }
  }

  func question(at index: UInt64) throws(GenerationError) -> Question {
    try orReplacement(Result { () throws(GenerationError) in try own.question(at: index) }, index).get()
  }

  func questions(at indices: [UInt64]) -> [Result<Question, GenerationError>] {
    zip(indices, own.questions(at: indices)).map { index, result in orReplacement(result, index) }
  }

  func questionAtHand(_ index: UInt64) -> Result<Question, GenerationError>? {
    own.questionAtHand(index).map { orReplacement($0, index) }
  }

  func forms(at index: UInt64) -> [ReadingForm]? { own.forms(at: index) }

  func readAhead(_ indices: [UInt64], chunk: Int) -> (@Sendable () -> Void)? { own.readAhead(indices, chunk: chunk) }
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
