import BikiCore
import BikiJSON
import BikiJapanese

/// A question still to be answered: only what the learner is shown. For listening the prompt
/// is the text to speak; for the other skills nothing spoken is sent, since for kana it is the
/// answer itself.
struct OpenQuestion: WireValue, Equatable {
  var number: Int64
  var topicID: String
  var skill: Skill
  var prompt: String
  /// Listening only: what it reads, for Open JTalk to accent it as said (`biki say SPEECH
  /// SPEECHTEXT`); never shown.
  var speech: String?
  var speechText: String?
  /// Listening and reading only: a number is typed around them. A reading is typed whole, and
  /// for the counter skill the counter is the answer.
  var prefix: String?
  var postfix: String?
  /// Counter only: the thing counted.
  var thing: Thing?

  struct Thing: WireValue, Equatable {
    var name: String
    var reading: String
    var meaning: String
    var count: Int64

    func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("name", name)
      writer.field("reading", reading)
      writer.field("meaning", meaning)
      writer.field("count", count)
      writer.endObject()
    }

    init(name: String, reading: String, meaning: String, count: Int64) {
      (self.name, self.reading, self.meaning, self.count) = (name, reading, meaning, count)
    }

    init(wire: JSON) throws(WireError) {
      var fields = try WireFields(wire)
      name = try fields.required("name", Wire.string)
      reading = try fields.required("reading", Wire.string)
      meaning = try fields.required("meaning", Wire.string)
      count = try fields.required("count", Wire.integer)
      try fields.finish()
    }
  }

  init(_ question: Question, number: Int, skill: Skill) {
    self.number = Int64(number)
    topicID = question.topicID
    self.skill = skill
    prompt = question.prompt(for: skill)
    if skill == .listening { (speech, speechText) = (question.spoken, question.kanjiDisplay) }
    if skill == .listening || skill == .reading {
      (prefix, postfix) = (question.answer.prefix, question.answer.postfix)
    }
    if skill == .counter, let counted = question.counted {
      thing = Thing(name: counted.name, reading: counted.reading, meaning: counted.meaning, count: counted.count)
    }
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("number", number)
    writer.field("topicId", topicID)
    writer.field("skill", skill.rawValue)
    writer.field("prompt", prompt)
    if let speech, let speechText {
      writer.field("speech", speech)
      writer.field("speechText", speechText)
    }
    if let prefix, let postfix {
      writer.field("prefix", prefix)
      writer.field("postfix", postfix)
    }
    if let thing {
      writer.field("thing", thing)
    }
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    number = try fields.required("number", Wire.integer)
    topicID = try fields.required("topicId", Wire.string)
    skill = try fields.required("skill", Wire.word(Skill.self))
    prompt = try fields.required("prompt", Wire.string)
    speech = try fields.optional("speech", Wire.string)
    speechText = try fields.optional("speechText", Wire.string)
    prefix = try fields.optional("prefix", Wire.string)
    postfix = try fields.optional("postfix", Wire.string)
    thing = try fields.optional("thing", Wire.value(Thing.self))
    try fields.finish()
  }
}

/// The answer to a question as the learner should have typed it, with its readings, once
/// revealed.
struct RevealedAnswer: WireValue, Equatable {
  var answer: String
  var display: String
  var kanji: String
  /// The standard reading, first of `readings`.
  var reading: String
  var readings: [String]
  /// For the counter skill, what each usual counter of the thing counts (部 counts copies of
  /// printed matter: newspapers, documents): why the answer takes it.
  var counterUses: [String] = []

  /// `matched`, the reading a right answer matched (さんわ for 3羽 when うさぎ is also さんびき),
  /// stands in for the question's own reading.
  init(_ question: Question, skill: Skill, matched: Reading? = nil) {
    let reading = matched ?? question.reading
    answer = question.expected(for: skill)
    display = question.display
    kanji = question.kanjiDisplay
    self.reading = reading.standard
    readings = reading.all()
    if skill == .counter, let counted = question.counted {
      counterUses = counted.usualCounters.compactMap { CounterUses.sentence(for: $0) }
    }
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("answer", answer)
    writer.field("display", display)
    writer.field("kanji", kanji)
    writer.field("reading", reading)
    writer.field("readings", readings)
    if !counterUses.isEmpty { writer.field("counterUses", counterUses) }
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    answer = try fields.required("answer", Wire.string)
    display = try fields.required("display", Wire.string)
    kanji = try fields.required("kanji", Wire.string)
    reading = try fields.required("reading", Wire.string)
    readings = try fields.required("readings", Wire.array(Wire.string))
    counterUses = try fields.optional("counterUses", Wire.array(Wire.string)) ?? []
    try fields.finish()
  }
}

/// How far a session has got.
struct SessionProgress: WireValue, Equatable {
  var completed: Int64
  var correct: Int64
  var incorrectAttempts: Int64
  var skipped: Int64
  var elapsedSeconds: Double
  var questionLimit: Int64?
  var timeLimitSeconds: Double?
  /// In a `missed` session: the round being asked (from 1), how many questions it asks, and
  /// which of them is being asked (from 1).
  var round: Round?

  struct Round: WireValue, Equatable {
    var number: Int64
    var questions: Int64
    var position: Int64

    init(_ rounds: Session.Rounds) {
      number = Int64(rounds.number)
      questions = Int64(rounds.size)
      position = Int64(rounds.position)
    }

    func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("number", number)
      writer.field("questions", questions)
      writer.field("position", position)
      writer.endObject()
    }

    init(wire: JSON) throws(WireError) {
      var fields = try WireFields(wire)
      number = try fields.required("number", Wire.integer)
      questions = try fields.required("questions", Wire.integer)
      position = try fields.required("position", Wire.integer)
      try fields.finish()
    }
  }

  init(_ state: Session.State, now: Double) {
    let progress = state.progress
    completed = Int64(progress.completed)
    correct = Int64(progress.correct)
    incorrectAttempts = Int64(progress.incorrectAttempts)
    skipped = Int64(progress.skipped)
    elapsedSeconds = now - state.startedAt
    questionLimit = progress.questionLimit.map(Int64.init)
    timeLimitSeconds = progress.timeLimit
    round = state.rounds.map(Round.init)
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("completed", completed)
    writer.field("correct", correct)
    writer.field("incorrectAttempts", incorrectAttempts)
    writer.field("skipped", skipped)
    writer.field("elapsedSeconds", elapsedSeconds)
    if let questionLimit {
      writer.field("questionLimit", questionLimit)
    }
    if let timeLimitSeconds {
      writer.field("timeLimitSeconds", timeLimitSeconds)
    }
    if let round {
      writer.field("round", round)
    }
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    completed = try fields.required("completed", Wire.integer)
    correct = try fields.required("correct", Wire.integer)
    incorrectAttempts = try fields.required("incorrectAttempts", Wire.integer)
    skipped = try fields.required("skipped", Wire.integer)
    elapsedSeconds = try fields.required("elapsedSeconds", Wire.number)
    questionLimit = try fields.optional("questionLimit", Wire.integer)
    timeLimitSeconds = try fields.optional("timeLimitSeconds", Wire.number)
    round = try fields.optional("round", Wire.value(Round.self))
    try fields.finish()
  }
}
