import BikiCore
import BikiJSON

/// What every response about a session's step ends with: its next question or its summary,
/// and where it stands. `biki/startSession`, `biki/answer` and `biki/skip` each put their own
/// fields before it.
struct SessionStep: Equatable {
  var question: OpenQuestion?
  var summary: SessionSummary?
  var progress: SessionProgress
  var finished: Bool

  func writeMembers(into writer: inout JSONWriter) {
    if let question {
      writer.field("question", question)
    }
    if let summary {
      writer.field("summary", summary)
    }
    writer.field("progress", progress)
    writer.field("finished", finished)
  }

  init(question: OpenQuestion?, summary: SessionSummary?, progress: SessionProgress, finished: Bool) {
    (self.question, self.summary, self.progress, self.finished) = (question, summary, progress, finished)
  }

  init(reading fields: inout WireFields) throws(WireError) {
    question = try fields.optional("question", Wire.value(OpenQuestion.self))
    summary = try fields.optional("summary", Wire.value(SessionSummary.self))
    progress = try fields.required("progress", Wire.value(SessionProgress.self))
    finished = try fields.required("finished", Wire.bool)
  }
}

/// `biki/startSession`'s answer.
struct StartSessionResponse: WireValue, Equatable {
  var sessionID: String
  var topicID: String
  var skill: Skill
  var seed: UInt64
  var step: SessionStep

  init(sessionID: String, topicID: String, skill: Skill, seed: UInt64, step: SessionStep) {
    (self.sessionID, self.topicID, self.skill, self.seed, self.step) = (sessionID, topicID, skill, seed, step)
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("sessionId", sessionID)
    writer.field("topicId", topicID)
    writer.field("skill", skill.rawValue)
    writer.key("seed")
    writer.quotedInteger(seed)
    step.writeMembers(into: &writer)
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    sessionID = try fields.required("sessionId", Wire.string)
    topicID = try fields.required("topicId", Wire.string)
    skill = try fields.required("skill", Wire.word(Skill.self))
    seed = try fields.required("seed", Wire.seed)
    step = try SessionStep(reading: &fields)
    try fields.finish()
  }
}

/// How an answer was judged.
enum Verdict: String {
  case correct, incorrect
  /// It came after the time limit and was not counted; the session has ended.
  case timeUp
}

/// `biki/answer`'s answer.
struct AnswerResponse: WireValue, Equatable {
  var verdict: Verdict
  /// With `correct`: the answer revealed, in the reading the learner's answer matched.
  var expected: RevealedAnswer?
  /// With `correct`, when the answer was another accepted form: the standard reading.
  var standard: String?
  /// With `correct` and `standard`: the form given is accepted but uncommon (じっぷん).
  var uncommon = false
  /// With `incorrect`, when the answer was of the wrong kind: how to answer.
  var hint: String?
  /// With `correct`, for an answer typed in romaji: the kana it was read as.
  var readAs: String?
  var step: SessionStep

  init(
    verdict: Verdict, expected: RevealedAnswer?, standard: String?, uncommon: Bool = false, hint: String?,
    readAs: String? = nil, step: SessionStep
  ) {
    (self.verdict, self.expected, self.standard, self.uncommon, self.hint, self.readAs, self.step) = (
      verdict, expected, standard, uncommon, hint, readAs, step
    )
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("verdict", verdict.rawValue)
    if let expected {
      writer.field("expected", expected)
    }
    if let standard {
      writer.field("standard", standard)
    }
    if uncommon {
      writer.field("uncommon", true)
    }
    if let hint {
      writer.field("hint", hint)
    }
    if let readAs {
      writer.field("readAs", readAs)
    }
    step.writeMembers(into: &writer)
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    verdict = try fields.required("verdict", Wire.word(Verdict.self))
    expected = try fields.optional("expected", Wire.value(RevealedAnswer.self))
    standard = try fields.optional("standard", Wire.string)
    uncommon = try fields.optional("uncommon", Wire.bool) ?? false
    hint = try fields.optional("hint", Wire.string)
    readAs = try fields.optional("readAs", Wire.string)
    step = try SessionStep(reading: &fields)
    try fields.finish()
  }
}

/// `biki/skip`'s answer.
struct SkipResponse: WireValue, Equatable {
  /// Only `timeUp`, for a skip that came after the time limit (which reveals nothing).
  var verdict: Verdict?
  var expected: RevealedAnswer?
  var step: SessionStep

  init(verdict: Verdict? = nil, expected: RevealedAnswer?, step: SessionStep) {
    (self.verdict, self.expected, self.step) = (verdict, expected, step)
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    if let verdict {
      writer.field("verdict", verdict.rawValue)
    }
    if let expected {
      writer.field("expected", expected)
    }
    step.writeMembers(into: &writer)
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    verdict = try fields.optional("verdict", Wire.word(Verdict.self))
    expected = try fields.optional("expected", Wire.value(RevealedAnswer.self))
    step = try SessionStep(reading: &fields)
    try fields.finish()
  }
}

/// `biki/endSession`'s answer: the summary, or null for a session that asked nothing.
struct EndSessionResponse: WireValue, Equatable {
  var summary: SessionSummary?

  init(summary: SessionSummary?) { self.summary = summary }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("summary")
    if let summary { summary.write(into: &writer) } else { writer.value(.null) }
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    summary = try fields.required("summary", Wire.nullable(Wire.value(SessionSummary.self)))
    try fields.finish()
  }
}

/// `biki/sessionFinished`: a time-limited session ended by itself.
struct SessionFinishedNotification: WireValue, Equatable {
  var sessionID: String
  var summary: SessionSummary

  init(sessionID: String, summary: SessionSummary) { (self.sessionID, self.summary) = (sessionID, summary) }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("sessionId", sessionID)
    writer.field("summary", summary)
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    sessionID = try fields.required("sessionId", Wire.string)
    summary = try fields.required("summary", Wire.value(SessionSummary.self))
    try fields.finish()
  }
}
