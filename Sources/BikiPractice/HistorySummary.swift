import BikiCore
import BikiJSON

/// Everything stats need from the history, kept up to date one line at a time: totals per
/// topic, and per answer form how often it was seen and missed. Its size depends on how many
/// forms a learner has met, not on how long they have practised, so start-up and stats cost the
/// same after a week as after years: the summary is kept beside the history with the number of
/// history bytes it covers, and only lines past that are read.
package struct HistorySummary: Equatable, Sendable {
  struct Totals: Equatable, Sendable {
    var answers = 0
    var correct = 0
    var skipped = 0
    /// Seconds over the answers (not the skips), for the average.
    var seconds = 0.0

    mutating func count(_ entry: HistoryEntry) {
      if entry.skipped {
        skipped += 1
      } else {
        answers += 1
        if entry.isCorrect { correct += 1 }
        // A damaged or hand-edited line may say anything; no answer takes under 0 s or over a day.
        seconds += entry.seconds.isFinite ? min(max(entry.seconds, 0), 86_400) : 0
      }
    }
  }

  struct FormKey: Hashable, Sendable, Comparable {
    var topicID: String
    var skill: Skill
    var expected: String

    static func < (a: FormKey, b: FormKey) -> Bool {
      (a.topicID, a.expected, a.skill.rawValue) < (b.topicID, b.expected, b.skill.rawValue)
    }
  }

  /// What is remembered of one rule, for one skill.
  struct MemoryKey: Hashable, Sendable, Comparable {
    package var skill: Skill
    package var rule: String

    package static func < (a: MemoryKey, b: MemoryKey) -> Bool {
      (a.rule, a.skill.rawValue) < (b.rule, b.skill.rawValue)
    }
  }

  struct FormMemory: Equatable, Sendable {
    package var memory: FSRS.Memory
    /// The last review, in seconds since 1970.
    var last: Double
    var reviews: Int
    var lapses: Int
    /// The form the rule was last missed as, or last met as while never missed (`本/final:8`),
    /// and in which topic.
    var example: String
    var topicID: String
  }

  var topics: [String: Totals] = [:]
  /// Totals per day (days since 1970, UTC): a learner's progress over time. A day is a few
  /// numbers, so years of them stay small.
  var days: [Int: Totals] = [:]
  /// Totals of lines whose time is not a day Biki can place (damaged or hand-edited), so that
  /// the days and the undated together always count what the topics count.
  var undated = Totals()
  var forms: [FormKey: HistoryStats.MissedForm] = [:]
  /// Per practice day, the forms that came back on a later day than their last review, right
  /// or wrong, young or mature: Anki's true retention, from which the report's table is made.
  package private(set) var returns: [Int: Returns] = [:]

  /// Returns of one day. Young: the form's interval was under 21 days; mature: 21 or more.
  package struct Returns: Equatable, Sendable {
    package var youngPassed = 0
    package var youngFailed = 0
    package var maturePassed = 0
    package var matureFailed = 0

    static let matureInterval = 21

    mutating func count(passed: Bool, mature: Bool) {
      switch (passed, mature) {
      case (true, false): youngPassed += 1
      case (false, false): youngFailed += 1
      case (true, true): maturePassed += 1
      case (false, true): matureFailed += 1
      }
    }

    package static func + (a: Returns, b: Returns) -> Returns {
      Returns(
        youngPassed: a.youngPassed &+ b.youngPassed, youngFailed: a.youngFailed &+ b.youngFailed,
        maturePassed: a.maturePassed &+ b.maturePassed, matureFailed: a.matureFailed &+ b.matureFailed)
    }

    var all: [Int] { [youngPassed, youngFailed, maturePassed, matureFailed] }
  }
  /// FSRS memory per (skill, rule), from each question's first attempt: right is `good`,
  /// wrong or skipped is `again`. Rules are few (a few hundred), so this stays small.
  var memories: [MemoryKey: FormMemory] = [:]
  /// Every form met, by id (`杯/final:6`): a form whose rule is known from another (6本) but
  /// that was never met itself is new to the learner, not weak.
  package private(set) var metForms: Set<String> = []
  /// The scheduler the memories were worked out with: FSRS with the learner's fitted
  /// parameters, or the defaults. A summary made with other parameters is made afresh.
  package private(set) var scheduler = FSRS()
  /// Where the learner's days begin: reviews of a form on one day are one sitting.
  package private(set) var practiceDay = PracticeDay.utc
  /// History bytes (whole lines) this summary covers.
  var coveredBytes = 0
  /// Lines counted, for the line numbers of warnings about later lines.
  var lines = 0
  /// A fingerprint (`StreamFingerprint`) of all the history bytes the summary covers: a history
  /// replaced or edited anywhere since is noticed, and summarised afresh.
  var historyHash: UInt64 = 0

  /// At most this many forms are tracked; past it the ones never missed are let go first, as
  /// stats name only missed forms. A learner meets this many only on topics with huge spaces.
  static let formLimit = 20_000

  package init(parameters: [Double] = FSRS.defaultParameters, practiceDay: PracticeDay = .utc) {
    scheduler = FSRS(parameters: parameters)
    self.practiceDay = practiceDay
  }

  init(_ entries: [HistoryEntry], parameters: [Double] = FSRS.defaultParameters, practiceDay: PracticeDay = .utc) {
    self.init(parameters: parameters, practiceDay: practiceDay)
    for entry in entries { add(entry) }
  }

  package mutating func add(_ entry: HistoryEntry) {
    topics[entry.topicID, default: Totals()].count(entry)
    if entry.at.isFinite, abs(entry.at) < 1e12 {
      days[Int((entry.at / 86_400).rounded(.down)), default: Totals()].count(entry)
    } else {
      undated.count(entry)
    }

    let key = FormKey(topicID: entry.topicID, skill: entry.skill, expected: entry.expected)
    var form =
      forms[key]
      ?? HistoryStats.MissedForm(
        topicID: entry.topicID, skill: entry.skill, question: entry.prompt, expected: entry.expected, misses: 0,
        seen: 0, recentWrongAnswers: [])
    form.seen += 1
    if !entry.isCorrect {
      form.misses += 1
      if !entry.skipped { form.recentWrongAnswers = Array((form.recentWrongAnswers + [entry.given]).suffix(5)) }
    }
    forms[key] = form
    if forms.count > Self.formLimit { forget() }

    for form in entry.forms { metForms.insert(form.id) }
    guard entry.isFirstAttempt else { return }
    let grade: FSRS.Grade = entry.isCorrect && !entry.skipped ? .good : .again
    for readingForm in Set(entry.forms.map(\.rule)).sorted() {
      let key = MemoryKey(skill: entry.skill, rule: readingForm)
      let example = entry.forms.first { $0.rule == readingForm }?.id ?? readingForm
      if var known = memories[key] {
        let sameDay = practiceDay.days(from: known.last, to: entry.at) == 0
        if !sameDay {
          returns[practiceDay.number(entry.at), default: Returns()].count(
            passed: grade == .good, mature: scheduler.interval(known.memory) >= Returns.matureInterval)
        }
        known.memory = scheduler.next(
          known.memory, grade, elapsedDays: max(0, entry.at - known.last) / 86_400, sameDay: sameDay)
        known.last = max(known.last, entry.at)
        known.reviews += 1
        if grade == .again { known.lapses += 1 }
        // Named by the last miss: a missed 6本 stays 6本 when 6分間 follows the rule after it.
        if grade == .again || known.lapses == 0 { known.example = example }
        known.topicID = entry.topicID
        memories[key] = known
      } else {
        memories[key] = FormMemory(
          memory: scheduler.first(grade), last: entry.at, reviews: 1, lapses: grade == .again ? 1 : 0,
          example: example, topicID: entry.topicID)
      }
    }
  }

  /// Each remembered form's recall at `now` (seconds since 1970) and a week later, weakest
  /// first (by recall a week later).
  package func recall(now: Double, skill: Skill? = nil, topicID: String? = nil) -> [HistoryStats.FormRecall] {
    memories.filter { (skill == nil || $0.key.skill == skill) && (topicID == nil || $0.value.topicID == topicID) }
      .map { key, known in
        let elapsed = max(0, now - known.last) / 86_400
        return HistoryStats.FormRecall(
          skill: key.skill, rule: key.rule, example: known.example, memory: known.memory,
          recall: scheduler.retrievability(known.memory, elapsedDays: elapsed),
          due: known.last + Double(scheduler.interval(known.memory)) * 86_400, reviews: known.reviews,
          lapses: known.lapses,
          recallInAWeek: scheduler.retrievability(known.memory, elapsedDays: elapsed + 7))
      }
      .sorted { a, b in
        a.recallInAWeek != b.recallInAWeek
          ? a.recallInAWeek < b.recallInAWeek
          : MemoryKey(skill: a.skill, rule: a.rule) < MemoryKey(skill: b.skill, rule: b.rule)
      }
  }

  /// Lets a tenth of the forms go: never-missed ones first, then the least missed.
  private mutating func forget() {
    let ranked = forms.sorted { a, b in (a.value.misses, a.value.seen, a.key) < (b.value.misses, b.value.seen, b.key) }
    for (key, _) in ranked.prefix(Self.formLimit / 10) { forms[key] = nil }
  }

  /// The stats: every topic, or one; forms' recall as of `now` (seconds since 1970).
  package func stats(topicID: String? = nil, now: Double = 0) -> HistoryStats {
    func topicStats(_ id: String, _ totals: Totals) -> HistoryStats.TopicStats {
      HistoryStats.TopicStats(
        topicID: id, answers: totals.answers, correct: totals.correct, skipped: totals.skipped,
        averageSeconds: totals.answers == 0 ? 0 : totals.seconds / Double(totals.answers))
    }
    let chosen = topics.filter { topicID == nil || $0.key == topicID }
    var total = Totals()
    for totals in chosen.values {
      total.answers += totals.answers
      total.correct += totals.correct
      total.skipped += totals.skipped
      total.seconds += totals.seconds
    }
    let mostMissed = forms.filter { (topicID == nil || $0.key.topicID == topicID) && $0.value.misses > 0 }
      .sorted { a, b in a.value.misses != b.value.misses ? a.value.misses > b.value.misses : a.key < b.key }
      .prefix(HistoryStats.mostMissedLimit).map(\.value)
    return HistoryStats(
      topics: chosen.sorted { $0.key < $1.key }.map { topicStats($0.key, $0.value) }, mostMissed: Array(mostMissed),
      total: topicStats(topicID ?? "", total),
      forms: recall(now: now, topicID: topicID))
  }

  // MARK: Stored beside the history

  var json: JSON {
    func totals(_ key: (String, JSON), _ totals: Totals) -> JSON {
      .object(pairs: [
        key, ("answers", .integer(Int64(totals.answers))), ("correct", .integer(Int64(totals.correct))),
        ("skipped", .integer(Int64(totals.skipped))), ("seconds", .double(totals.seconds)),
      ])
    }
    return [
      "version": 8, "parameters": .array(scheduler.parameters.map(JSON.double)),
      "utcOffset": .integer(Int64(practiceDay.utcOffset)),
      "coveredBytes": .integer(Int64(coveredBytes)), "lines": .integer(Int64(lines)),
      "historyHash": .string(String(historyHash)),
      "topics": .array(topics.sorted { $0.key < $1.key }.map { totals(("topic", .string($0.key)), $0.value) }),
      "days": .array(days.sorted { $0.key < $1.key }.map { totals(("day", .integer(Int64($0.key))), $0.value) }),
      "undated": totals(("day", .null), undated),
      "returns": .array(
        returns.sorted { $0.key < $1.key }.map { day, counts in
          .array([.integer(Int64(day))] + counts.all.map { .integer(Int64($0)) })
        }),
      "met": .array(metForms.sorted().map(JSON.string)),
      "memories": .array(
        memories.sorted { $0.key < $1.key }.map { key, known in
          [
            "skill": .string(key.skill.rawValue), "rule": .string(key.rule),
            "stability": .double(known.memory.stability),
            "difficulty": .double(known.memory.difficulty), "last": .double(known.last),
            "reviews": .integer(Int64(known.reviews)),
            "lapses": .integer(Int64(known.lapses)), "example": .string(known.example), "topic": .string(known.topicID),
          ]
        }),
      "forms": .array(
        forms.sorted { $0.key < $1.key }.map { key, form in
          [
            "topic": .string(key.topicID), "skill": .string(key.skill.rawValue), "expected": .string(key.expected),
            "question": .string(form.question),
            "misses": .integer(Int64(form.misses)), "seen": .integer(Int64(form.seen)),
            "wrong": .array(form.recentWrongAnswers.map(JSON.string)),
          ]
        }),
    ]
  }

  /// A stored summary; nil for anything that is not one this version wrote whole.
  init?(json: JSON) {
    guard json["version"]?.integerValue == 8, let covered = json["coveredBytes"]?.integerValue, covered >= 0,
      let lines = json["lines"]?.integerValue, let topics = json["topics"]?.arrayValue,
      let forms = json["forms"]?.arrayValue
    else { return nil }
    coveredBytes = Int(covered)
    self.lines = Int(lines)
    guard let hash = json["historyHash"]?.stringValue.flatMap(UInt64.init) else { return nil }
    historyHash = hash
    func number(_ value: JSON?) -> Double? { value?.numberValue }
    let listed = json["parameters"]?.arrayValue ?? []
    let parameters = listed.compactMap(\.numberValue)
    guard listed.count == 21, parameters.count == 21, parameters.allSatisfy(\.isFinite),
      let offset = json["utcOffset"]?.integerValue, abs(offset) <= 86_400
    else { return nil }
    scheduler = FSRS(parameters: parameters)
    practiceDay = PracticeDay(utcOffset: Int(offset))
    for topic in topics {
      guard let id = topic["topic"]?.stringValue, let answers = topic["answers"]?.integerValue,
        let correct = topic["correct"]?.integerValue,
        let skipped = topic["skipped"]?.integerValue, let seconds = number(topic["seconds"])
      else { return nil }
      self.topics[id] = Totals(answers: Int(answers), correct: Int(correct), skipped: Int(skipped), seconds: seconds)
    }
    func totals(_ entry: JSON) -> Totals? {
      guard let answers = entry["answers"]?.integerValue, let correct = entry["correct"]?.integerValue,
        let skipped = entry["skipped"]?.integerValue, let seconds = number(entry["seconds"])
      else { return nil }
      return Totals(answers: Int(answers), correct: Int(correct), skipped: Int(skipped), seconds: seconds)
    }
    for entry in json["days"]?.arrayValue ?? [] {
      guard let day = entry["day"]?.integerValue, abs(day) < 1 << 40, let totals = totals(entry) else { return nil }
      days[Int(day)] = totals
    }
    guard let undated = json["undated"].flatMap(totals) else { return nil }
    self.undated = undated
    for entry in json["returns"]?.arrayValue ?? [] {
      guard let numbers = entry.arrayValue?.compactMap(\.integerValue), numbers.count == 5, abs(numbers[0]) < 1 << 40
      else { return nil }
      returns[Int(numbers[0])] = Returns(
        youngPassed: Int(numbers[1]), youngFailed: Int(numbers[2]), maturePassed: Int(numbers[3]),
        matureFailed: Int(numbers[4]))
    }
    guard let met = json["met"]?.arrayValue else { return nil }
    for id in met {
      guard let id = id.stringValue else { return nil }
      metForms.insert(id)
    }
    for entry in json["memories"]?.arrayValue ?? [] {
      guard let skill = entry["skill"]?.stringValue.flatMap(Skill.init), let rule = entry["rule"]?.stringValue,
        let stability = number(entry["stability"]), let difficulty = number(entry["difficulty"]),
        let last = number(entry["last"]),
        let reviews = entry["reviews"]?.integerValue, let lapses = entry["lapses"]?.integerValue,
        stability.isFinite, stability > 0, difficulty.isFinite, last.isFinite
      else { return nil }
      memories[MemoryKey(skill: skill, rule: rule)] = FormMemory(
        memory: FSRS.Memory(stability: stability, difficulty: difficulty), last: last, reviews: Int(reviews),
        lapses: Int(lapses),
        example: entry["example"]?.stringValue ?? rule, topicID: entry["topic"]?.stringValue ?? "")
    }
    for form in forms {
      guard let id = form["topic"]?.stringValue, let skill = form["skill"]?.stringValue.flatMap(Skill.init),
        let expected = form["expected"]?.stringValue, let question = form["question"]?.stringValue,
        let misses = form["misses"]?.integerValue, let seen = form["seen"]?.integerValue,
        let wrong = form["wrong"]?.arrayValue
      else { return nil }
      self.forms[FormKey(topicID: id, skill: skill, expected: expected)] = HistoryStats.MissedForm(
        topicID: id, skill: skill, question: question, expected: expected, misses: Int(misses), seen: Int(seen),
        recentWrongAnswers: wrong.compactMap(\.stringValue))
    }
    guard isConsistent else { return nil }
  }

  /// Whether these figures could all be true of one history of `lines` lines: no count below
  /// zero, no more right than answered, no more answers than lines, the days (with the undated)
  /// counting exactly the answers, right answers and skips the topics count, no form missed more
  /// often than seen nor seen more often than its topic was asked. Every summary Biki makes is;
  /// one that is not was damaged or edited, and is made afresh rather than shown ("900 correct
  /// of 3", or a topic's figure raised with its checksum made again but its days left as they were).
  var isConsistent: Bool {
    guard coveredBytes >= lines, lines >= 0 else { return false }
    func sane(_ totals: Totals) -> Bool {
      totals.answers >= 0 && totals.skipped >= 0 && totals.correct >= 0 && totals.correct <= totals.answers
        && totals.seconds.isFinite && totals.seconds >= 0
    }
    /// Answers, right answers and skips over all `totals`; nil when they cannot be (a figure
    /// out of range, a sum past Int.max).
    func summed(_ totals: some Sequence<Totals>) -> (answers: Int, correct: Int, skipped: Int)? {
      var sum = (answers: 0, correct: 0, skipped: 0)
      for item in totals {
        guard sane(item) else { return nil }
        let (answers, overflowA) = sum.answers.addingReportingOverflow(item.answers)
        let (correct, overflowC) = sum.correct.addingReportingOverflow(item.correct)
        let (skipped, overflowS) = sum.skipped.addingReportingOverflow(item.skipped)
        guard !overflowA, !overflowC, !overflowS else { return nil }
        sum = (answers, correct, skipped)
      }
      return sum
    }
    guard let onTopics = summed(topics.values), let onDays = summed(Array(days.values) + [undated]), onDays == onTopics
    else { return false }
    let (asked, overflow) = onTopics.answers.addingReportingOverflow(onTopics.skipped)
    guard !overflow, asked <= lines else { return false }
    var seenOnTopic: [String: Int] = [:]
    for (key, form) in forms {
      guard form.misses >= 0, form.misses <= form.seen, form.recentWrongAnswers.count <= 5 else { return false }
      let (seen, overflow) = seenOnTopic[key.topicID, default: 0].addingReportingOverflow(form.seen)
      guard !overflow, let totals = topics[key.topicID], seen <= totals.answers + totals.skipped else { return false }
      seenOnTopic[key.topicID] = seen
    }
    // A return is a review of a remembered form: never more of them than reviews, or below zero.
    var returned = 0
    var reviewed = 0
    for counts in returns.values {
      for count in counts.all {
        guard count >= 0 else { return false }
        let (sum, overflow) = returned.addingReportingOverflow(count)
        guard !overflow else { return false }
        returned = sum
      }
    }
    for known in memories.values { reviewed = reviewed &+ max(0, known.reviews) }
    guard returned <= reviewed else { return false }
    for known in memories.values {
      guard known.reviews >= 1, known.reviews <= asked, known.lapses >= 0, known.lapses <= known.reviews else {
        return false
      }
    }
    return true
  }

  // The file beside the history: `{"checksum":"<16 hex digits>","summary":{…}}`, the checksum
  // being of the summary's bytes exactly as written, so an edit to any figure is noticed
  // without trusting how JSON is re-serialised.
  private static let storedPrefix = Array(#"{"checksum":""#.utf8)
  private static let storedMiddle = Array(#"","summary":"#.utf8)

  /// The bytes kept beside the history.
  var stored: [UInt8] {
    let body = json.bytes
    return Self.storedPrefix + Array(Fingerprint.text(StreamFingerprint.of(body)).utf8) + Self.storedMiddle + body + [
      UInt8(ascii: "}")
    ]
  }

  /// A summary read back from the bytes `stored` wrote; nil when they are not exactly that (a
  /// checksum that does not match its body, an older version, figures that cannot be true).
  init?(stored bytes: [UInt8]) {
    let head = Self.storedPrefix.count
    let bodyStart = head + 16 + Self.storedMiddle.count
    guard bytes.count > bodyStart, bytes.starts(with: Self.storedPrefix), bytes.last == UInt8(ascii: "}"),
      bytes[(head + 16)..<bodyStart].elementsEqual(Self.storedMiddle),
      let checksum = UInt64(String(decoding: bytes[head..<(head + 16)], as: UTF8.self), radix: 16)
    else { return nil }
    let body = Array(bytes[bodyStart..<(bytes.count - 1)])
    guard StreamFingerprint.of(body) == checksum, let json = try? JSONParser.value(body) else { return nil }
    self.init(json: json)
  }
}
