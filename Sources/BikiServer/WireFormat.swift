import BikiCore
import BikiHost
import BikiJSON
import BikiJapanese
import BikiPacks
import BikiPractice
import BikiProtocol

/// How the server's values look on the wire; docs/protocol.md shows each one.
enum WireFormat {
  static func topic(_ entry: RegisteredTopic) -> JSON {
    let topic = entry.topic
    return [
      "id": .string(topic.id), "title": .string(topic.title), "description": .string(topic.description),
      "category": .string(topic.category.rawValue), "skills": .array(topic.skills.map { .string($0.rawValue) }),
      "parameters": .array(
        topic.parameters.map { parameter in
          [
            "name": .string(parameter.name), "description": .string(parameter.description),
            "default": .integer(parameter.defaultValue),
            "minimum": .integer(parameter.minimum), "maximum": .integer(parameter.maximum),
          ]
        }),
      "source": .string(entry.source),
    ]
  }

  /// A question still to be answered: only what the learner is shown. For listening the prompt
  /// is the text to speak; for the other skills nothing spoken is sent, since for kana it is the
  /// answer itself.
  static func openQuestion(_ question: Question, number: Int, skill: Skill) -> JSON {
    var members: [(String, JSON)] = [
      ("number", .integer(Int64(number))), ("topicId", .string(question.topicID)), ("skill", .string(skill.rawValue)),
      ("prompt", .string(question.prompt(for: skill))),
    ]
    if skill == .listening {
      // What it reads, for Open JTalk to accent it as said (`biki say SPEECH SPEECHTEXT`); not shown.
      members += [("speech", .string(question.spoken)), ("speechText", .string(question.kanjiDisplay))]
    }
    // Only a number is typed around the prefix and postfix: a reading is typed whole, and for
    // the counter skill the counter is the answer.
    if skill == .listening || skill == .reading {
      members += [("prefix", .string(question.answer.prefix)), ("postfix", .string(question.answer.postfix))]
    }
    if skill == .counter, let counted = question.counted {
      members.append(
        (
          "thing",
          [
            "name": .string(counted.name), "reading": .string(counted.reading), "meaning": .string(counted.meaning),
            "count": .integer(counted.count),
          ]
        ))
    }
    return .object(pairs: members)
  }

  /// Everything about a question, for `biki/generate`: written straight to text, since a tool
  /// may ask for thousands a second.
  static func revealed(_ question: Question, into writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("topicId")
    writer.string(question.topicID)
    writer.key("seed")
    writer.quotedInteger(question.seed)
    writer.key("display")
    writer.string(question.display)
    writer.key("kanji")
    writer.string(question.kanjiDisplay)
    writer.key("speech")
    writer.string(question.spoken)
    // The standard reading is the first of them all.
    let readings = question.reading.all()
    writer.key("reading")
    writer.string(readings.first ?? question.reading.standard)
    writer.key("readings")
    writer.beginArray()
    for reading in readings { writer.string(reading) }
    writer.endArray()
    // The number typed, where the answer is one number: a fraction, a time of day or a code
    // (whose leading zeros a number would lose) has only its written form.
    switch question.answer.shape {
    case .whole:
      writer.key("answer")
      writer.integer(question.answer.value)
    case .decimal(let places):
      writer.key("answer")
      writer.value(.double(Double(question.answer.value) / (0..<places).reduce(1.0) { product, _ in product * 10 }))
    case .fraction, .clock, .code: break
    }
    writer.key("answerDisplay")
    writer.string(question.answer.display)
    writer.key("prefix")
    writer.string(question.answer.prefix)
    writer.key("postfix")
    writer.string(question.answer.postfix)
    writer.endObject()
  }

  /// A question of a batch that could not be made, in its place: `{topicId, seed, error}`.
  static func failedQuestion(topicID: String, seed: UInt64, _ error: GenerationError, into writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("topicId")
    writer.string(topicID)
    writer.key("seed")
    writer.quotedInteger(seed)
    writer.key("error")
    writer.string(error.reason)
    writer.endObject()
  }

  /// The answer to `question` as the learner should have typed it, with its readings.
  /// The answer revealed; `matched`, the reading a right answer matched (さんわ for 3羽 when
  /// うさぎ is also さんびき), stands in for the question's own reading.
  static func expected(_ question: Question, skill: Skill, matched: Reading? = nil) -> JSON {
    let reading = matched ?? question.reading
    return [
      "answer": .string(question.expected(for: skill)), "display": .string(question.display),
      "kanji": .string(question.kanjiDisplay),
      "reading": .string(reading.standard), "readings": .array(reading.all().map(JSON.string)),
    ]
  }

  static func progress(_ state: Session.State, now: Double) -> JSON {
    let progress = state.progress
    var members: [(String, JSON)] = [
      ("completed", .integer(Int64(progress.completed))), ("correct", .integer(Int64(progress.correct))),
      ("incorrectAttempts", .integer(Int64(progress.incorrectAttempts))),
      ("skipped", .integer(Int64(progress.skipped))),
      ("elapsedSeconds", .double(now - state.startedAt)),
    ]
    if let limit = progress.questionLimit { members.append(("questionLimit", .integer(Int64(limit)))) }
    if let seconds = progress.timeLimit { members.append(("timeLimitSeconds", .double(seconds))) }
    return .object(pairs: members)
  }

  static func summary(_ summary: Session.Summary, skill: Skill) -> JSON {
    let reason: String
    switch summary.endReason {
    case .questionLimitReached: reason = "questionLimitReached"
    case .timeUp: reason = "timeUp"
    case .endedByLearner: reason = "ended"
    case .generationFailed: reason = "generationFailed"
    }
    var members: [(String, JSON)] = [
      ("topicId", .string(summary.topicID)), ("endReason", .string(reason)),
      ("questions", .integer(Int64(summary.questions))),
      ("correct", .integer(Int64(summary.correct))), ("correctFirstTry", .integer(Int64(summary.correctFirstTry))),
      ("incorrectAttempts", .integer(Int64(summary.incorrectAttempts))), ("skipped", .integer(Int64(summary.skipped))),
      ("attempts", .integer(Int64(summary.attempts))), ("totalSeconds", .double(summary.totalSeconds)),
      ("averageSeconds", .double(summary.averageSeconds)),
      ("secondsPerQuestion", .array(summary.secondsPerQuestion.map(JSON.double))),
      (
        "missed",
        .array(
          summary.missed.map { result in
            [
              "prompt": .string(result.question.prompt(for: skill)),
              "expected": expected(result.question, skill: skill),
              "outcome": .string(result.outcome.rawValue), "wrongAnswers": .array(result.wrongAnswers.map(JSON.string)),
            ]
          })
      ),
    ]
    if case .generationFailed(let why) = summary.endReason { members.append(("error", .string(why))) }
    return .object(pairs: members)
  }

  /// An LSP diagnostic: 0-based lines, UTF-16 columns.
  static func diagnostic(_ diagnostic: Diagnostic) -> JSON {
    [
      "range": range(diagnostic.range), "severity": .integer(diagnostic.severity == .error ? 1 : 2),
      "code": .string(diagnostic.rule),
      "source": "biki", "message": .string(diagnostic.message),
    ]
  }

  static func range(_ range: SourceRange) -> JSON {
    [
      "start": ["line": .integer(Int64(range.start.line)), "character": .integer(Int64(range.start.utf16Column))],
      "end": ["line": .integer(Int64(range.end.line)), "character": .integer(Int64(range.end.utf16Column))],
    ]
  }

  /// A loading problem in a pack or plugin: the path, and positions 0-based like LSP's.
  static func problem(path: String, _ diagnostic: Diagnostic) -> JSON {
    [
      "path": .string(path), "uri": .string(DocumentURI.fileURI(path)), "diagnostic": WireFormat.diagnostic(diagnostic),
      "formatted": .string(diagnostic.formatted(path: path)),
    ]
  }

  static func stats(_ stats: HistoryStats, location: String) -> JSON {
    func topic(_ topic: HistoryStats.TopicStats) -> JSON {
      [
        "topicId": .string(topic.topicID), "answers": .integer(Int64(topic.answers)),
        "correct": .integer(Int64(topic.correct)),
        "skipped": .integer(Int64(topic.skipped)), "accuracy": topic.accuracy.map(JSON.double) ?? .null,
        "averageSeconds": .double(topic.averageSeconds),
      ]
    }
    return [
      "total": topic(stats.total), "topics": .array(stats.topics.map(topic)),
      "mostMissed": .array(
        stats.mostMissed.map { form in
          [
            "topicId": .string(form.topicID), "skill": .string(form.skill.rawValue), "question": .string(form.question),
            "expected": .string(form.expected), "misses": .integer(Int64(form.misses)),
            "seen": .integer(Int64(form.seen)),
            "recentWrongAnswers": .array(form.recentWrongAnswers.map(JSON.string)),
          ]
        }),
      "forms": .array(
        stats.forms.map { form in
          [
            "skill": .string(form.skill.rawValue), "rule": .string(form.rule), "form": .string(form.example),
            "recall": .double(form.recall),
            "recallInAWeek": .double(form.recallInAWeek), "state": .string(form.state.rawValue),
            "stability": .double(form.memory.stability), "difficulty": .double(form.memory.difficulty),
            "due": .double(form.due),
            "reviews": .integer(Int64(form.reviews)), "lapses": .integer(Int64(form.lapses)),
          ]
        }),
      "history": .string(location),
    ]
  }
}
