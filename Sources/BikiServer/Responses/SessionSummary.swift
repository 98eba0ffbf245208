import BikiCore
import BikiJSON

/// A finished session, as `biki/endSession`, the last answer and `biki/sessionFinished` send it.
///
/// One stored property per field of docs/protocol.md's summary, which is one flat object: that
/// is why there are more than a dozen.
struct SessionSummary: WireValue, Equatable {
  enum EndReason: String {
    case questionLimitReached, timeUp, ended, generationFailed
    /// A round of a `missed` session had nothing missed.
    case allRight
  }

  var topicID: String
  var endReason: EndReason
  var questions: Int64
  var correct: Int64
  var correctFirstTry: Int64
  var incorrectAttempts: Int64
  var skipped: Int64
  var attempts: Int64
  var totalSeconds: Double
  var averageSeconds: Double
  var secondsPerQuestion: [Double]
  var missed: [Missed]
  /// Why questions could not be made, when that ended the session.
  var error: String?
  /// The rounds a `missed` session took.
  var rounds: Int64?

  /// A question answered wrongly at least once, skipped, or left open after a wrong answer.
  struct Missed: WireValue, Equatable {
    var prompt: String
    var expected: RevealedAnswer
    var outcome: Session.QuestionResult.Outcome
    var wrongAnswers: [String]

    func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("prompt", prompt)
      writer.field("expected", expected)
      writer.field("outcome", outcome.rawValue)
      writer.field("wrongAnswers", wrongAnswers)
      writer.endObject()
    }

    init(prompt: String, expected: RevealedAnswer, outcome: Session.QuestionResult.Outcome, wrongAnswers: [String]) {
      (self.prompt, self.expected, self.outcome, self.wrongAnswers) = (prompt, expected, outcome, wrongAnswers)
    }

    init(wire: JSON) throws(WireError) {
      var fields = try WireFields(wire)
      prompt = try fields.required("prompt", Wire.string)
      expected = try fields.required("expected", Wire.value(RevealedAnswer.self))
      outcome = try fields.required("outcome", Wire.word(Session.QuestionResult.Outcome.self))
      wrongAnswers = try fields.required("wrongAnswers", Wire.array(Wire.string))
      try fields.finish()
    }
  }

  init(_ summary: Session.Summary, skill: Skill) {
    topicID = summary.topicID
    switch summary.endReason {
    case .questionLimitReached: endReason = .questionLimitReached
    case .timeUp: endReason = .timeUp
    case .endedByLearner: endReason = .ended
    case .generationFailed(let why):
      endReason = .generationFailed
      error = why
    case .allRight: endReason = .allRight
    }
    rounds = summary.rounds.map(Int64.init)
    questions = Int64(summary.questions)
    correct = Int64(summary.correct)
    correctFirstTry = Int64(summary.correctFirstTry)
    incorrectAttempts = Int64(summary.incorrectAttempts)
    skipped = Int64(summary.skipped)
    attempts = Int64(summary.attempts)
    totalSeconds = summary.totalSeconds
    averageSeconds = summary.averageSeconds
    secondsPerQuestion = summary.secondsPerQuestion
    missed = summary.missed.map { result in
      Missed(
        prompt: result.question.prompt(for: skill), expected: RevealedAnswer(result.question, skill: skill),
        outcome: result.outcome, wrongAnswers: result.wrongAnswers)
    }
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("topicId", topicID)
    writer.field("endReason", endReason.rawValue)
    writer.field("questions", questions)
    writer.field("correct", correct)
    writer.field("correctFirstTry", correctFirstTry)
    writer.field("incorrectAttempts", incorrectAttempts)
    writer.field("skipped", skipped)
    writer.field("attempts", attempts)
    writer.field("totalSeconds", totalSeconds)
    writer.field("averageSeconds", averageSeconds)
    writer.field("secondsPerQuestion", secondsPerQuestion)
    writer.field("missed", missed)
    if let error { writer.field("error", error) }
    if let rounds { writer.field("rounds", rounds) }
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    topicID = try fields.required("topicId", Wire.string)
    endReason = try fields.required("endReason", Wire.word(EndReason.self))
    questions = try fields.required("questions", Wire.integer)
    correct = try fields.required("correct", Wire.integer)
    correctFirstTry = try fields.required("correctFirstTry", Wire.integer)
    incorrectAttempts = try fields.required("incorrectAttempts", Wire.integer)
    skipped = try fields.required("skipped", Wire.integer)
    attempts = try fields.required("attempts", Wire.integer)
    totalSeconds = try fields.required("totalSeconds", Wire.number)
    averageSeconds = try fields.required("averageSeconds", Wire.number)
    secondsPerQuestion = try fields.required("secondsPerQuestion", Wire.array(Wire.number))
    missed = try fields.required("missed", Wire.array(Wire.value(Missed.self)))
    error = try fields.optional("error", Wire.string)
    rounds = try fields.optional("rounds", Wire.integer)
    try fields.finish()
  }
}
