import BikiCore
import BikiJSON
import BikiPacks

/// What a reload reports, as `biki/reloadPacks` answers and `biki/packsChanged` announces.
struct PacksReport: WireValue, Equatable {
  var topicCount: Int64
  /// What kept files or topics from loading, and the warnings about them.
  var problems: [Problem]
  /// The user's pack files whose readings were checked on a spread of their questions rather
  /// than every one, as lint notes them.
  var readingCoverage: [Coverage]

  struct Problem: WireValue, Equatable {
    var path: String
    var uri: String
    var diagnostic: WireDiagnostic
    /// `path:line:col: error: … [rule]`, as lint prints it.
    var formatted: String

    init(path: String, _ diagnostic: Diagnostic) {
      self.path = path
      uri = DocumentURI.fileURI(path)
      self.diagnostic = WireDiagnostic(diagnostic)
      formatted = diagnostic.formatted(path: path)
    }

    func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("path", path)
      writer.field("uri", uri)
      writer.field("diagnostic", diagnostic)
      writer.field("formatted", formatted)
      writer.endObject()
    }

    init(wire: JSON) throws(WireError) {
      var fields = try WireFields(wire)
      path = try fields.required("path", Wire.string)
      uri = try fields.required("uri", Wire.string)
      diagnostic = try fields.required("diagnostic", Wire.value(WireDiagnostic.self))
      formatted = try fields.required("formatted", Wire.string)
      try fields.finish()
    }
  }

  struct Coverage: WireValue, Equatable {
    var path: String
    var uri: String
    /// The questions generated and checked, and the questions there are.
    var checked: Int64
    var possible: Int64

    init(path: String, checked: Int64, possible: Int64) {
      (self.path, uri, self.checked, self.possible) = (path, DocumentURI.fileURI(path), checked, possible)
    }

    func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("path", path)
      writer.field("uri", uri)
      writer.field("checked", checked)
      writer.field("possible", possible)
      writer.endObject()
    }

    init(wire: JSON) throws(WireError) {
      var fields = try WireFields(wire)
      path = try fields.required("path", Wire.string)
      uri = try fields.required("uri", Wire.string)
      checked = try fields.required("checked", Wire.integer)
      possible = try fields.required("possible", Wire.integer)
      try fields.finish()
    }
  }

  static func coverage(_ catalog: Catalog) -> [Coverage] {
    catalog.packs.packs.compactMap { pack in
      let coverage = pack.compilation.readingCoverage
      guard pack.precedence != .builtIn, coverage.isSample else { return nil }
      return Coverage(
        path: pack.path, checked: Int64(clamping: coverage.checked), possible: Int64(clamping: coverage.possible))
    }
  }

  /// The report of `catalog`, written problem by problem: 100,000 topics may have as many
  /// warnings, and each held as a `Problem` (five strings) would cost some 50 MB beside the
  /// text, while a reload holds two catalogs.
  static func written(_ catalog: Catalog) -> JSON {
    // About 500 bytes a problem: room for them all at once, rather than doubling up to it.
    var writer = JSONWriter(reserving: 1024 + 512 * catalog.registry.problems.count)
    write(
      topicCount: Int64(catalog.registry.topics.count),
      problems: catalog.registry.problems.lazy.map { Problem(path: $0.path, $0.diagnostic) },
      readingCoverage: coverage(catalog), into: &writer)
    return writer.finish()
  }

  /// Whether two catalogs give the same report, without writing either.
  static func same(_ one: Catalog, _ other: Catalog) -> Bool {
    one.registry.topics.count == other.registry.topics.count
      && one.registry.problems.elementsEqual(other.registry.problems) {
        $0.path == $1.path && $0.diagnostic == $1.diagnostic
      }
      && coverage(one) == coverage(other)
  }

  func write(into writer: inout JSONWriter) {
    Self.write(topicCount: topicCount, problems: problems, readingCoverage: readingCoverage, into: &writer)
  }

  /// The one way a report is written, whether its problems are held (`write(into:)`) or made
  /// one at a time from a catalog (`written`).
  private static func write(
    topicCount: Int64, problems: some Sequence<Problem>, readingCoverage: [Coverage], into writer: inout JSONWriter
  ) {
    writer.beginObject()
    writer.field("topicCount", topicCount)
    writer.key("problems")
    writer.beginArray()
    for problem in problems { problem.write(into: &writer) }
    writer.endArray()
    writer.field("readingCoverage", readingCoverage)
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    topicCount = try fields.required("topicCount", Wire.integer)
    problems = try fields.required("problems", Wire.array(Wire.value(Problem.self)))
    readingCoverage = try fields.required("readingCoverage", Wire.array(Wire.value(Coverage.self)))
    try fields.finish()
  }
}

/// One entry of `biki/generate`'s list: a question with everything revealed, or, in its place,
/// why it could not be made.
enum GeneratedQuestion: WireValue, Equatable {
  case made(Revealed)
  case failed(topicID: String, seed: UInt64, error: String)

  /// A question with everything revealed.
  ///
  /// One stored property per field of docs/protocol.md's question, a flat object: that is why
  /// there are a dozen.
  struct Revealed: Equatable {
    var topicID: String
    var seed: UInt64
    var display: String
    var kanji: String
    var speech: String
    /// The standard reading, first of `readings`.
    var reading: String
    var readings: [String]
    /// The number typed, where the answer is one number: a fraction, a time of day or a code
    /// (whose leading zeros a number would lose) has only its written form.
    var answer: AnswerNumber?
    var answerDisplay: String
    var prefix: String
    var postfix: String
  }

  /// A whole number stays one: up to 京 it is past what a double holds exactly.
  enum AnswerNumber: Equatable {
    case whole(Int64)
    case decimal(Double)

    static func read(_ value: JSON, _ path: String) throws(WireError) -> AnswerNumber {
      if case .integer(let whole) = value { return .whole(whole) }
      return .decimal(try Wire.number(value, path))
    }
  }

  func write(into writer: inout JSONWriter) {
    switch self {
    case .made(let question):
      writer.beginObject()
      writer.field("topicId", question.topicID)
      writer.key("seed")
      writer.quotedInteger(question.seed)
      writer.field("display", question.display)
      writer.field("kanji", question.kanji)
      writer.field("speech", question.speech)
      writer.field("reading", question.reading)
      writer.field("readings", question.readings)
      switch question.answer {
      case .whole(let whole)?: writer.field("answer", whole)
      case .decimal(let decimal)?: writer.field("answer", decimal)
      case nil: break
      }
      writer.field("answerDisplay", question.answerDisplay)
      writer.field("prefix", question.prefix)
      writer.field("postfix", question.postfix)
      writer.endObject()
    case .failed(let topicID, let seed, let error):
      writer.beginObject()
      writer.field("topicId", topicID)
      writer.key("seed")
      writer.quotedInteger(seed)
      writer.field("error", error)
      writer.endObject()
    }
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    let topicID = try fields.required("topicId", Wire.string)
    let seed = try fields.required("seed", Wire.seed)
    if let error = try fields.optional("error", Wire.string) {
      try fields.finish()
      self = .failed(topicID: topicID, seed: seed, error: error)
      return
    }
    let question = Revealed(
      topicID: topicID, seed: seed, display: try fields.required("display", Wire.string),
      kanji: try fields.required("kanji", Wire.string), speech: try fields.required("speech", Wire.string),
      reading: try fields.required("reading", Wire.string),
      readings: try fields.required("readings", Wire.array(Wire.string)),
      answer: try fields.optional("answer", AnswerNumber.read),
      answerDisplay: try fields.required("answerDisplay", Wire.string),
      prefix: try fields.required("prefix", Wire.string), postfix: try fields.required("postfix", Wire.string))
    try fields.finish()
    self = .made(question)
  }

  init(_ question: Question) {
    // The standard reading is the first of them all.
    let readings = question.reading.all()
    var answer: AnswerNumber?
    switch question.answer.shape {
    case .whole: answer = .whole(question.answer.value)
    case .decimal(let places):
      answer = .decimal(Double(question.answer.value) / (0..<places).reduce(1.0) { product, _ in product * 10 })
    case .fraction, .clock, .code: break
    }
    self = .made(
      Revealed(
        topicID: question.topicID, seed: question.seed, display: question.display, kanji: question.kanjiDisplay,
        speech: question.spoken, reading: readings.first ?? question.reading.standard, readings: readings,
        answer: answer, answerDisplay: question.answer.display, prefix: question.answer.prefix,
        postfix: question.answer.postfix))
  }
}

/// `biki/generate`'s answer. The server writes it from pieces already written (`questionsAnswer`);
/// this type reads it.
struct GenerateResponse: WireValue, Equatable {
  var questions: [GeneratedQuestion]

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("questions", questions)
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    questions = try fields.required("questions", Wire.array(Wire.value(GeneratedQuestion.self)))
    try fields.finish()
  }
}
