import BikiCore
import BikiJSON
import BikiPractice

/// `biki/stats`' answer: accuracy over the answer history, the forms missed most, and how well
/// each form is remembered.
struct StatsResponse: WireValue, Equatable {
  var total: TopicTotals
  var topics: [TopicTotals]
  var mostMissed: [MissedForm]
  var forms: [FormMemory]
  /// Where the history is kept.
  var history: String

  struct TopicTotals: WireValue, Equatable {
    /// Empty for the total over every topic.
    var topicID: String
    var answers: Int64
    var correct: Int64
    var skipped: Int64
    /// Correct answers over answers and skips; nil before any.
    var accuracy: Double?
    var averageSeconds: Double

    init(_ stats: HistoryStats.TopicStats) {
      (topicID, answers, correct) = (stats.topicID, Int64(stats.answers), Int64(stats.correct))
      (skipped, accuracy, averageSeconds) = (Int64(stats.skipped), stats.accuracy, stats.averageSeconds)
    }

    func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("topicId", topicID)
      writer.field("answers", answers)
      writer.field("correct", correct)
      writer.field("skipped", skipped)
      writer.key("accuracy")
      if let accuracy { writer.number(accuracy) } else { writer.value(.null) }
      writer.field("averageSeconds", averageSeconds)
      writer.endObject()
    }

    init(wire: JSON) throws(WireError) {
      var fields = try WireFields(wire)
      topicID = try fields.required("topicId", Wire.string)
      answers = try fields.required("answers", Wire.integer)
      correct = try fields.required("correct", Wire.integer)
      skipped = try fields.required("skipped", Wire.integer)
      accuracy = try fields.required("accuracy", Wire.nullable(Wire.number))
      averageSeconds = try fields.required("averageSeconds", Wire.number)
      try fields.finish()
    }
  }

  struct MissedForm: WireValue, Equatable {
    var topicID: String
    var skill: Skill
    var question: String
    var expected: String
    /// Wrong answers and skips.
    var misses: Int64
    var seen: Int64
    var recentWrongAnswers: [String]

    init(_ form: HistoryStats.MissedForm) {
      (topicID, skill, question, expected) = (form.topicID, form.skill, form.question, form.expected)
      (misses, seen, recentWrongAnswers) = (Int64(form.misses), Int64(form.seen), form.recentWrongAnswers)
    }

    func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("topicId", topicID)
      writer.field("skill", skill.rawValue)
      writer.field("question", question)
      writer.field("expected", expected)
      writer.field("misses", misses)
      writer.field("seen", seen)
      writer.field("recentWrongAnswers", recentWrongAnswers)
      writer.endObject()
    }

    init(wire: JSON) throws(WireError) {
      var fields = try WireFields(wire)
      topicID = try fields.required("topicId", Wire.string)
      skill = try fields.required("skill", Wire.word(Skill.self))
      question = try fields.required("question", Wire.string)
      expected = try fields.required("expected", Wire.string)
      misses = try fields.required("misses", Wire.integer)
      seen = try fields.required("seen", Wire.integer)
      recentWrongAnswers = try fields.required("recentWrongAnswers", Wire.array(Wire.string))
      try fields.finish()
    }
  }

  /// How well one form is remembered.
  ///
  /// One stored property per field of docs/protocol.md's form, a flat object: that is why there
  /// are twelve.
  struct FormMemory: WireValue, Equatable {
    var skill: Skill
    var rule: String
    var form: String
    /// The form as the learner reads it: 8本 はっぽん.
    var label: String
    var recall: Double
    var recallInAWeek: Double
    var state: HistoryStats.FormState
    var stability: Double
    var difficulty: Double
    /// When it is due for review, in seconds since 1970.
    var due: Double
    var reviews: Int64
    var lapses: Int64

    init(_ form: HistoryStats.FormRecall) {
      (skill, rule, self.form, label) = (form.skill, form.rule, form.example, form.label)
      (recall, recallInAWeek, state) = (form.recall, form.recallInAWeek, form.state)
      (stability, difficulty, due) = (form.memory.stability, form.memory.difficulty, form.due)
      (reviews, lapses) = (Int64(form.reviews), Int64(form.lapses))
    }

    func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("skill", skill.rawValue)
      writer.field("rule", rule)
      writer.field("form", form)
      writer.field("label", label)
      writer.field("recall", recall)
      writer.field("recallInAWeek", recallInAWeek)
      writer.field("state", state.rawValue)
      writer.field("stability", stability)
      writer.field("difficulty", difficulty)
      writer.field("due", due)
      writer.field("reviews", reviews)
      writer.field("lapses", lapses)
      writer.endObject()
    }

    init(wire: JSON) throws(WireError) {
      var fields = try WireFields(wire)
      skill = try fields.required("skill", Wire.word(Skill.self))
      rule = try fields.required("rule", Wire.string)
      form = try fields.required("form", Wire.string)
      label = try fields.required("label", Wire.string)
      recall = try fields.required("recall", Wire.number)
      recallInAWeek = try fields.required("recallInAWeek", Wire.number)
      state = try fields.required("state", Wire.word(HistoryStats.FormState.self))
      stability = try fields.required("stability", Wire.number)
      difficulty = try fields.required("difficulty", Wire.number)
      due = try fields.required("due", Wire.number)
      reviews = try fields.required("reviews", Wire.integer)
      lapses = try fields.required("lapses", Wire.integer)
      try fields.finish()
    }
  }

  init(_ stats: HistoryStats, location: String) {
    total = TopicTotals(stats.total)
    topics = stats.topics.map(TopicTotals.init)
    mostMissed = stats.mostMissed.map(MissedForm.init)
    forms = stats.forms.map(FormMemory.init)
    history = location
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("total", total)
    writer.field("topics", topics)
    writer.field("mostMissed", mostMissed)
    writer.field("forms", forms)
    writer.field("history", history)
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    total = try fields.required("total", Wire.value(TopicTotals.self))
    topics = try fields.required("topics", Wire.array(Wire.value(TopicTotals.self)))
    mostMissed = try fields.required("mostMissed", Wire.array(Wire.value(MissedForm.self)))
    forms = try fields.required("forms", Wire.array(Wire.value(FormMemory.self)))
    history = try fields.required("history", Wire.string)
    try fields.finish()
  }
}
