import BikiCore
import BikiHost
import BikiJSON
import BikiPractice
import BikiProtocol

/// `biki/generate`, questions made ahead, and the audio a quiz needs.
extension QuizService {
  // MARK: Generating

  /// Stateless questions: made in place for a pack's topic, off the loop for a plugin's. It
  /// decodes its own request, as the catalog judges the topic and its parameters between fields.
  mutating func generate(_ replyID: RequestID, _ params: Params, open: inout OpenRequests) throws(ResponseError)
    -> Reply
  {
    // A pack's generator is made as soon as its parameters are read, so they are judged before
    // the other fields.
    // The closures see the catalog, not `self`: capturing the server copied all of it per request.
    let (catalog, recent) = (catalog, recentTopic)
    let plain = PlainGenerate(params.value, knownTopicID: recent?.id)
    // The topic asked for last, asked for again as plainly: its generator is at hand (and
    // used where it is kept, without a copy of it).
    if let plain, let recent, recent.id == plain.topicID {
      return .result(try recent.generated(seed: plain.seed, count: plain.count))
    }
    let (request, entry, madeHere) = try GenerateRequest.decode(
      params, plain: plain,
      lookUp: { id throws(ResponseError) in
        if let recent, recent.id == id { return recent.entry }
        return try Self.topic(id: id, in: catalog)
      },
      judge: { entry, parameters throws(ResponseError) in
        entry.registered.callsPlugin ? nil : try Self.generator(for: entry, parameters: parameters)
      })
    let (parameters, seed, count) = (request.parameters, request.seed, request.count)
    if parameters.isEmpty, let madeHere, recent?.entry !== entry {
      recentTopic = RecentTopic(id: request.topicID, entry: entry, generator: madeHere)
    }
    if let madeHere {
      return .result(
        try Self.generated(madeHere, seed: seed, count: count, kept: parameters.isEmpty ? entry.written : nil))
    }
    // A plugin's topic. One question at a time, seed after seed, is made ahead; what is made is
    // served here, without a thread or a round trip.
    if parameters.isEmpty, count == 1 {
      let upcoming = entry.readahead.withLock { $0.after(seed: seed, count: 1) }
      if let generator = entry.madeGenerator {
        if let upcoming { makeAhead(generator, seeds: upcoming.map { generator.order(seed: $0).upcoming }) }
        let indices = [generator.order(seed: seed).upcoming]
        // Written before, it is sent as it was; made ahead, it is written once and kept.
        if let kept = entry.written.answer(at: indices[0]) { return .result(.written(kept)) }
        if let ready = generator.questionsAtHand(seeds: indices) {
          guard case .success(let question) = ready[0] else {
            return .result(try Self.written(ready, indices: indices, topicID: entry.topic.id))
          }
          let answers = entry.written.keep([(indices[0], Self.writtenQuestion(question))])
          return .result(.written(answers[0]))
        }
      }
    }
    open.add(
      replyID,
      .questionsSoon(WaitingGenerate(replyID: replyID, entry: entry, parameters: parameters, seed: seed, count: count)))
    return .later
  }

  /// Starts the plugin questions `biki/generate` requests wait for: the requests for one topic
  /// with the same parameters share a job (a few hundred questions at most each), which asks
  /// the plugin for all of their questions at once.
  func startWaitingGenerates(open: inout OpenRequests) {
    guard open.hasGeneratesDue else { return }
    var groups: [[WaitingGenerate]] = []
    var groupOf: [WaitingGenerate.Batch: Int] = [:]
    for request in open.generatesDue {
      let batch = WaitingGenerate.Batch(request)
      if let index = groupOf[batch],
        groups[index].reduce(request.count, { $0 + $1.count }) <= WaitingGenerate.questionsPerJob
      {
        groups[index].append(request)
      } else {
        groupOf[batch] = groups.count
        groups.append([request])
      }
    }
    for group in groups {
      let tickets = group.map { _ in WorkTicket() }
      for (request, ticket) in zip(group, tickets) { open.update(request.replyID, .questions(ticket)) }
      let requests = group.map { (seed: $0.seed, count: $0.count) }
      let (entry, parameters, mailbox) = (group[0].entry, group[0].parameters, mailbox)
      let replyIDs = group.map(\.replyID)
      dependencies.background.run {
        let answers = Self.generated(
          entry, parameters: parameters, requests, isCancelled: { tickets.allSatisfy(\.isCancelled) })
        for (index, answer) in answers.enumerated() where !tickets[index].isCancelled {
          mailbox.post(.questions(replyIDs[index], tickets[index], answer))
        }
      }
    }
  }

  /// Each request's answer, from one call for all their questions.
  static func generated(
    _ entry: CatalogEntry, parameters: [String: Int64], _ requests: [(seed: UInt64, count: Int64)],
    isCancelled: () -> Bool
  ) -> [Result<JSON, ResponseError>] {
    let generator: QuestionGenerator
    do {
      generator = try Self.generator(for: entry, parameters: parameters)
    } catch {
      return requests.map { _ in .failure(error) }
    }
    guard !isCancelled() else { return requests.map { _ in .failure(.requestFailed("the request was cancelled")) } }
    let places = requests.map { request in
      var order = generator.order(seed: request.seed)
      return (0..<request.count).map { _ in order.next() }
    }
    var made = generator.questions(seeds: places.flatMap { $0 })[...]
    return places.map { indices in
      let results = Array(made.prefix(indices.count))
      made = made.dropFirst(indices.count)
      return Result { () throws(ResponseError) in try written(results, indices: indices, topicID: generator.topic.id) }
    }
  }

  /// The questions a session with this seed asks, in order (no repeats until the space is used).
  /// A question that cannot be made is listed with its error in its place and costs no other;
  /// only a batch of which none could be made fails.
  static func generated(_ generator: QuestionGenerator, seed: UInt64, count: Int64, kept: WrittenQuestions? = nil)
    throws(ResponseError) -> JSON
  {
    var order = generator.order(seed: seed)
    // One question written before, the most common request of all, is sent without a list.
    if count == 1, let kept, let answer = kept.answer(at: order.upcoming) { return .written(answer) }
    let indices = (0..<count).map { _ in order.next() }
    guard let kept else {
      return try written(generator.questions(seeds: indices), indices: indices, topicID: generator.topic.id)
    }
    // Questions written before are sent as their bytes; the rest are made, written and kept.
    var pieces = kept.pieces(at: indices)
    let missing = pieces.indices.filter { pieces[$0] == nil }
    let results = generator.questions(seeds: missing.map { indices[$0] })
    guard missing.count < indices.count || results.contains(where: { if case .success = $0 { true } else { false } })
    else {
      return try written(results, indices: indices, topicID: generator.topic.id)  // none made: the first failure
    }
    var made: [(place: UInt64, bytes: [UInt8])] = []
    for (slot, result) in zip(missing, results) {
      let bytes = writtenPiece(result, at: indices[slot], topicID: generator.topic.id)
      pieces[slot] = bytes[...]
      if case .success = result { made.append((indices[slot], bytes)) }
    }
    kept.keep(made)
    return .written(WrittenQuestions.answer(pieces.map { $0 ?? [] }))
  }

  /// A question as `biki/generate` writes it, alone.
  static func writtenQuestion(_ question: Question) -> [UInt8] {
    writtenPiece(.success(question), at: question.seed, topicID: question.topicID)
  }

  /// One entry of `biki/generate`'s list: the question, or its failure in its place.
  static func writtenPiece(_ result: Result<Question, GenerationError>, at index: UInt64, topicID: String) -> [UInt8] {
    var writer = JSONWriter()
    switch result {
    case .success(let question): GeneratedQuestion(question).write(into: &writer)
    case .failure(let error):
      GeneratedQuestion.failed(topicID: topicID, seed: index, error: error.reason).write(into: &writer)
    }
    guard case .written(let bytes) = writer.finish() else { return [] }
    return bytes
  }

  /// The questions at `seeds`, made off the loop where the source makes any ahead (a plugin's,
  /// kept by its source): nothing waits for them, and the requests that want them find them
  /// made. They are asked for `chunk` at a time, so a question wanted now waits behind at most
  /// one chunk of them in the plugin's worker (a slow plugin's readahead never holds up a
  /// learner's question for long).
  func makeAhead(_ generator: QuestionGenerator, seeds: [UInt64], chunk: Int = 32) {
    guard let work = generator.readAhead(seeds: seeds, chunk: chunk) else { return }
    dependencies.background.run(work)
  }

  /// The next questions a session will ask, made ahead where its source makes any ahead.
  func makeAhead(sessionQuestionsAfter order: QuestionOrder, _ generator: QuestionGenerator) {
    var order = order
    let upcoming = (0..<Readahead.sessionQuestions).map { _ in order.next() }
    // One at a time: a learner's next question is wanted in seconds, and one from another
    // session should not wait behind these.
    makeAhead(generator, seeds: upcoming, chunk: 1)
  }

  /// The answer to `biki/generate`: the questions, each failure in its place.
  static func written(_ results: [Result<Question, GenerationError>], indices: [UInt64], topicID: String)
    throws(ResponseError) -> JSON
  {
    guard results.contains(where: { if case .success = $0 { true } else { false } }) else {
      if case .failure(let error)? = results.first { throw .requestFailed(error.description) }
      throw .requestFailed("topic \(topicID) made no questions")
    }
    return .written(
      WrittenQuestions.answer(
        zip(indices, results).map { index, result in writtenPiece(result, at: index, topicID: topicID) }))
  }
}

extension QuizService {
  /// Has a listening question's audio made ahead, and the next question's while the learner
  /// answers, as `biki quiz --speak` does; a plugin's next question is not asked for twice.
  func prepareSpeech(
    _ question: Question, for session: String, after order: QuestionOrder, _ generator: QuestionGenerator
  ) {
    let speech = speechChoices[session] ?? .standard
    dependencies.prepareSpeech(session, speech, question.spoken, question.kanjiDisplay)
    // Only a question the source gives at once: a plugin's next is not asked for twice.
    var peek = order
    guard case .success(let next)? = generator.questionAtHand(seed: peek.next()) else { return }
    dependencies.prepareSpeech(session, speech, next.spoken, next.kanjiDisplay)
  }
}
