import BikiPractice
import BikiCore
import BikiHost
import BikiJSON
import BikiProtocol

/// A session in the server's table.
struct OpenSession {
  var runner: SessionRunner
  var state: Session.State { runner.state }
}

extension BikiServer {
  func topic(_ params: Params) throws(ResponseError) -> CatalogEntry {
    let id = try params.string("topicId")
    guard let found = catalog.topic(id: id) else {
      let hint = Suggestion.didYouMean(id, among: catalog.registry.topics.map(\.topic.id))
      // Clients add where their users see the list (`:BikiTopics`, `biki topics`).
      throw .invalidParams("\"topicId\": no topic \"\(id.prefix(80))\".\(hint)")
    }
    return found
  }

  func generator(for entry: CatalogEntry, _ params: Params) throws(ResponseError) -> QuestionGenerator {
    let overrides = try params.integerMap("params")
    do {
      return try entry.generator(parameters: overrides)
    } catch {
      throw .invalidParams("\"params\": \(error)")
    }
  }

  mutating func startSession(_ params: Params, outbox: inout [OutgoingMessage]) throws(ResponseError) -> JSON {
    let seed = try params.optionalSeed("seed") ?? dependencies.seeds.next()
    let generator: QuestionGenerator
    let skill: Skill
    let mode: Session.Mode
    if let count = try Self.reviewCount(params) {
      // A review: forms due first, then weak, then new, from the topic given or every topic.
      let chosen = try params.optionalString("topicId") == nil ? catalog.registry.topics : [try topic(params).registered]
      let generators = chosen.compactMap { try? $0.generator() }
      skill = try params.optionalChoice("skill", among: Skill.allCases) ?? .kana
      let plan = ReviewPlan.make(
        summary: dependencies.history.summary().summary, skill: skill, generators: generators, now: dependencies.wallClock(), seed: seed, count: count)
      let title = chosen.count == 1 ? "Review of \(chosen[0].topic.title)" : "Review of every topic"
      guard let planned = plan.generator(topic: Topic(id: "review", title: title, category: .number, skills: [skill]), generators: generators) else {
        throw .requestFailed("nothing to review with the \(skill.rawValue) skill")
      }
      generator = planned
      mode = .questionLimit(plan.picks.count)
    } else {
      let entry = try topic(params)
      generator = try self.generator(for: entry, params)
      skill = try params.optionalChoice("skill", among: Skill.allCases) ?? (entry.topic.skills.contains(.reading) ? .reading : entry.topic.skills[0])
      mode = try Self.mode(params)
    }
    guard sessions.count < BikiServer.maximumOpenSessions else {
      throw .requestFailed("\(BikiServer.maximumOpenSessions) sessions are open; end some with biki/endSession first")
    }
    let runner: SessionRunner
    let effects: [Session.Effect]
    do {
      (runner, effects) = try SessionRunner.start(generator: generator, skill: skill, mode: mode, seed: seed, dependencies: Session.Dependencies(now: dependencies.now))
    } catch {
      switch error {
      case .skillNotOffered, .invalidLimit: throw .invalidParams(error.description)
      case .generationFailed: throw .requestFailed(error.description)
      }
    }
    record(effects, outbox: &outbox)
    let state = runner.state
    sessionsStarted += 1
    let id = "s\(sessionsStarted)"
    sessions[id] = OpenSession(runner: runner)
    if case .timeLimit(let seconds) = mode { timeLimits[id] = state.startedAt + seconds }
    return [
      "sessionId": .string(id), "topicId": .string(generator.topic.id), "skill": .string(skill.rawValue), "seed": .string(String(seed)),
      "question": WireFormat.openQuestion(state.current!, number: 1, skill: skill),
      "progress": WireFormat.progress(state, now: dependencies.now()),
    ]
  }

  /// For `{mode: {kind: "review", limit?}}`, how many questions (default 20).
  static func reviewCount(_ params: Params) throws(ResponseError) -> Int? {
    guard let mode = try params.optionalObject("mode"), try mode.optionalString("kind") == "review" else { return nil }
    return Int(try mode.optionalInteger("limit", in: 1...1000) ?? 20)
  }

  static func mode(_ params: Params) throws(ResponseError) -> Session.Mode {
    guard let mode = try params.optionalObject("mode") else { return .questionLimit(10) }
    enum Kind: String, CaseIterable { case infinite, questionLimit, timeLimit, review }
    guard let kind: Kind = try mode.optionalChoice("kind", among: Kind.allCases) else {
      throw .invalidParams("missing required field \"mode.kind\"")
    }
    switch kind {
    case .infinite: return .infinite
    case .review: return .questionLimit(Int(try mode.optionalInteger("limit", in: 1...1000) ?? 20))
    case .questionLimit: return .questionLimit(Int(try mode.integer("limit", in: 1...1_000_000)))
    case .timeLimit:
      guard let seconds = try mode.optionalNumber("limit") else { throw .invalidParams("missing required field \"mode.limit\"") }
      guard seconds > 0, seconds <= 86_400 else { throw .invalidParams("\"mode.limit\" must be a number of seconds from 0 to 86400 (exclusive of 0), not \(seconds)") }
      return .timeLimit(seconds: seconds)
    }
  }

  private func sessionID(_ params: Params) throws(ResponseError) -> String {
    let id = try params.string("sessionId")
    guard sessions[id] != nil else {
      let ended = finished.contains { $0.id == id }
      throw .invalidParams("\"sessionId\": \(ended ? "session \"\(id)\" has finished; biki/endSession returns its summary" : "no open session \"\(id.prefix(80))\"")")
    }
    return id
  }

  mutating func answer(_ params: Params, outbox: inout [OutgoingMessage]) throws(ResponseError) -> JSON {
    if let late = try answerAfterTimeUp(params) { return late }
    let id = try sessionID(params)
    let given: String
    switch params.value?["answer"] {
    case .string(let text)?: given = text
    case .integer(let number)?: given = String(number)
    case nil, .null?: throw .invalidParams("missing required field \"answer\"")
    case let other?: throw .invalidParams("\"answer\" must be a string, not \(other.kindDescription)")
    }
    guard given.utf8.count <= 1024 else { throw .invalidParams("\"answer\" is longer than 1024 bytes") }
    var session = sessions[id]!
    let question = session.state.current!
    let effects = session.runner.send(.answerSubmitted(given))
    record(effects, outbox: &outbox)
    var verdict: JSON = "timeUp"
    for case .recorded(.answered(let answer)) in effects { verdict = answer.isCorrect ? "correct" : "incorrect" }
    var result: [(String, JSON)] = [("verdict", verdict)]
    // A wrong answer leaves the question open for another try, so the answer stays hidden.
    if verdict == "correct" { result.append(("expected", WireFormat.expected(question, skill: session.state.skill))) }
    return conclude(id, session, effects, result)
  }

  mutating func skip(_ params: Params, outbox: inout [OutgoingMessage]) throws(ResponseError) -> JSON {
    if let late = try answerAfterTimeUp(params) { return late }
    let id = try sessionID(params)
    var session = sessions[id]!
    let question = session.state.current!
    let skill = session.state.skill
    let effects = session.runner.send(.skipRequested)
    record(effects, outbox: &outbox)
    var result: [(String, JSON)] = []
    // After the time limit the skip does not count and nothing is revealed.
    for case .recorded(.answered(let skip)) in effects where skip.skipped {
      result.append(("expected", WireFormat.expected(question, skill: skill)))
    }
    return conclude(id, session, effects, result)
  }

  /// The response to an answer or skip that reached a session whose time ran out before it: the
  /// learner typed in time to see the question but not to beat the clock, so the answer gets
  /// the verdict `timeUp` and the summary, as if the clock had run out on receipt.
  private func answerAfterTimeUp(_ params: Params) throws(ResponseError) -> JSON? {
    let id = try params.string("sessionId")
    guard sessions[id] == nil, let ended = finished.last(where: { $0.id == id }), ended.timeRanOut else { return nil }
    return ["verdict": "timeUp", "summary": ended.summary, "progress": ended.progress, "finished": true]
  }

  /// Stores the session's new state and adds what every session response carries.
  private mutating func conclude(_ id: String, _ session: OpenSession, _ effects: [Session.Effect], _ result: [(String, JSON)]) -> JSON {
    var result = result
    let state = session.state
    for effect in effects {
      switch effect {
      case .questionPresented(let next):
        result.append(("question", WireFormat.openQuestion(next, number: state.results.count + 1, skill: state.skill)))
      case .sessionFinished(let summary):
        result.append(("summary", close(id, summary: summary, state: state)))
      case .recorded, .questionNeeded: break
      }
    }
    if !state.isFinished { sessions[id] = session }
    result.append(("progress", WireFormat.progress(state, now: dependencies.now())))
    result.append(("finished", .bool(state.isFinished)))
    return .object(pairs: result)
  }

  /// Moves a finished session out of the table, keeping its summary for a late endSession.
  private mutating func close(_ id: String, summary: Session.Summary, state: Session.State) -> JSON {
    remove(id)
    let json = WireFormat.summary(summary, skill: state.skill)
    var timeRanOut = false
    if case .timeUp = summary.endReason { timeRanOut = true }
    finished.append(FinishedSession(id: id, summary: json, progress: WireFormat.progress(state, now: dependencies.now()), timeRanOut: timeRanOut))
    if finished.count > BikiServer.finishedKept { finished.removeFirst() }
    return json
  }

  mutating func endSession(_ params: Params, outbox: inout [OutgoingMessage]) throws(ResponseError) -> JSON {
    let id = try params.string("sessionId")
    if let index = finished.firstIndex(where: { $0.id == id }) {
      return ["summary": finished.remove(at: index).summary]
    }
    guard var session = sessions[id] else { throw .invalidParams("\"sessionId\": no open session \"\(id.prefix(80))\"") }
    let effects = session.runner.send(.endRequested)
    record(effects, outbox: &outbox)
    remove(id)
    for case .sessionFinished(let summary) in effects {
      return ["summary": WireFormat.summary(summary, skill: session.state.skill)]
    }
    return ["summary": .null]
  }

  private mutating func remove(_ id: String) {
    sessions[id] = nil
    timeLimits[id] = nil
  }

  /// Ends time-limited sessions whose time is up, telling the client with `biki/sessionFinished`.
  mutating func finishTimedOutSessions(now: Double, outbox: inout [OutgoingMessage]) {
    for (id, deadline) in timeLimits where deadline <= now {
      guard var session = sessions[id] else { continue }
      let effects = session.runner.send(.clockTicked)
      record(effects, outbox: &outbox)
      for case .sessionFinished(let summary) in effects {
        let json = close(id, summary: summary, state: session.state)
        outbox.append(.notification(method: "biki/sessionFinished", params: ["sessionId": .string(id), "summary": json]))
      }
    }
  }

  func generate(_ params: Params) throws(ResponseError) -> JSON {
    let entry = try topic(params)
    let generator = try generator(for: entry, params)
    guard let seed = try params.optionalSeed("seed") else { throw .invalidParams("missing required field \"seed\"") }
    let count = try params.optionalInteger("count", in: 1...BikiServer.maximumGenerateCount) ?? 1
    // The same order a session with this seed asks them in: no repeats until the space is used.
    var order = generator.order(seed: seed)
    let indices = (0..<count).map { _ in order.next() }
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("questions")
    writer.beginArray()
    for result in generator.questions(seeds: indices) {
      switch result {
      case .success(let question): WireFormat.revealed(question, into: &writer)
      case .failure(let error): throw .requestFailed(error.description)
      }
    }
    writer.endArray()
    writer.endObject()
    return writer.finish()
  }

  /// Appends what the session recorded to the history before the response goes out; a failure
  /// is told to the client once, and the session carries on.
  mutating func record(_ effects: [Session.Effect], outbox: inout [OutgoingMessage]) {
    for case .recorded(let record) in effects {
      do {
        try dependencies.history.record(record, at: dependencies.wallClock())
      } catch {
        let message = "\(error)"
        if historyProblemsShown.insert(message).inserted {
          outbox.append(.notification(method: "window/showMessage", params: ["type": 2, "message": .string(message)]))
        }
      }
    }
  }
}

/// A session that ended by itself, kept for a while after.
struct FinishedSession {
  var id: String
  var summary: JSON
  var progress: JSON
  /// Whether it ended because its time limit passed (not by reaching its question limit).
  var timeRanOut: Bool
}
