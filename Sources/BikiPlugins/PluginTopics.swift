import BikiCore
import BikiJSON
import BikiJapanese
import BikiSync

/// A plugin's topics, validated, ready to make generators like any JSON topic.
package struct PluginTopics: Sendable {
  let backend: PluginBackend
  package let identity: PluginIdentity
  package let topics: [Topic]
  /// Question space sizes by full topic id.
  package let questionCounts: [String: UInt64]
  /// Biki's readings of the displays this plugin has shown, for checking its questions.
  package let displayReadings = DisplayReadings()
  /// Questions per call in a long batch: enough that a worker's round trip is small beside
  /// checking them, few enough that checking starts soon.
  static let chunkSize = 100
  /// The most seconds a question may take for a plugin's questions to be made ahead.
  static let quickQuestion = 0.005

  /// Loads a plugin in this process and checks its description.
  init(library: PluginLibrary) throws(PluginError) {
    try self.init(backend: .inProcess(library))
  }

  /// Asks the plugin to describe itself and checks every field.
  package init(backend: PluginBackend) throws(PluginError) {
    self.backend = backend
    let (identity, description) = try backend.describe()
    self.identity = identity
    let path = backend.path
    let root = try PluginTopics.parse(description, path: path, what: "its description")
    func fail(_ reason: String) -> PluginError {
      PluginError(path: path, kind: .badOutput, reason: "its description: \(reason)")
    }
    guard let topicNodes = root["topics"]?.value.arrayValue, !topicNodes.isEmpty else {
      throw fail("\"topics\" must be a non-empty array")
    }
    var topics: [Topic] = []
    var counts: [String: UInt64] = [:]
    for node in topicNodes {
      guard let id = node["id"]?.value.stringValue, Identifier.isValid(id) else {
        throw fail("a topic id is missing or not lowercase letters, digits and '-' (at \(node.range.start))")
      }
      let fullID = identity.id + "." + id
      guard counts[fullID] == nil else { throw fail("topic id \"\(id)\" is described twice") }
      guard let title = node["title"]?.value.stringValue, !title.isEmpty else {
        throw fail("topic \"\(id)\" has no title")
      }
      guard let categoryName = node["category"]?.value.stringValue,
        let category = Topic.Category(rawValue: categoryName)
      else {
        throw fail("topic \"\(id)\" has no valid category")
      }
      let skillNames = node["skills"]?.value.arrayValue?.compactMap(\.stringValue) ?? []
      let skills = skillNames.compactMap(Skill.init(rawValue:))
      guard !skills.isEmpty, skills.count == skillNames.count, Set(skills).count == skills.count else {
        throw fail("topic \"\(id)\" needs distinct skills from listening, reading, kana")
      }
      guard let count = node["questionCount"]?.value.integerValue, count > 0 else {
        var written = ""
        if case .number(let literal)? = node["questionCount"]?.value.value {
          written = " (it is \(Excerpt.of(literal)))"
        }
        throw fail("topic \"\(id)\" needs a questionCount, a whole number from 1 to 2^63−1\(written)")
      }
      var parameters: [Topic.Parameter] = []
      for parameter in node["parameters"]?.value.arrayValue ?? [] {
        guard let name = parameter["name"]?.value.stringValue, let value = parameter["default"]?.value.integerValue,
          let minimum = parameter["min"]?.value.integerValue, let maximum = parameter["max"]?.value.integerValue,
          minimum <= value, value <= maximum
        else { throw fail("topic \"\(id)\" has a parameter without name, default, min and max in order") }
        parameters.append(
          Topic.Parameter(
            name: name, description: parameter["description"]?.value.stringValue ?? "", defaultValue: value,
            minimum: minimum, maximum: maximum))
      }
      topics.append(
        Topic(
          id: fullID, title: title, description: node["description"]?.value.stringValue ?? "", category: category,
          skills: skills,
          parameters: parameters))
      counts[fullID] = UInt64(count)
    }
    self.topics = topics
    self.questionCounts = counts
  }

  /// A generator for one of the plugin's topics; the plugin is asked for each question and
  /// everything it writes is checked.
  package func generator(for topic: Topic, parameters: [String: Int64] = [:]) throws(ParameterError)
    -> QuestionGenerator
  {
    _ = try topic.resolve(parameters)
    let backend = self.backend
    let displayReadings = self.displayReadings
    let localID = String(topic.id.dropFirst(identity.id.count + 1))
    // Chunks of a long batch are made (by the worker, or the library) while the chunk before is
    // checked here. A worker answers question by question, so a crash or hang fails the question
    // it met (the backend says which, and why); a call that fails as a whole fails its chunk.
    let batch: @Sendable ([UInt64]) -> [Result<Question, GenerationError>] = { seeds in
      Pipeline.map(
        seeds, chunkSize: PluginTopics.chunkSize,
        produce: { chunk in Result { () throws(PluginError) in try backend.generate(localID, parameters, chunk) } },
        consume: { chunk, written in
          switch written {
          case .success(let results) where results.count != chunk.count:
            let reason = "the plugin gave \(results.count) results for \(chunk.count) seeds"
            return chunk.map { _ in .failure(GenerationError(topicID: topic.id, reason: reason)) }
          case .success(let results):
            return zip(chunk, results).map { seed, result in
              Result { () throws(GenerationError) in
                do {
                  return try PluginTopics.question(
                    try result.get(), topicID: topic.id, seed: seed, path: backend.path,
                    displayReadings: displayReadings)
                } catch {
                  throw GenerationError(topicID: topic.id, reason: "\(error)")
                }
              }
            }
          case .failure(let error):
            return chunk.map { _ in .failure(GenerationError(topicID: topic.id, reason: "\(error)")) }
          }
        })
    }
    // The plugin's own count when it has one (for these parameters); else the description's.
    // A plugin that fails to count fails its questions too, where the failure is reported.
    var spaceSize = questionCounts[topic.id] ?? 1
    if identity.countsQuestions, let counted = try? backend.questionCount(localID, parameters) { spaceSize = counted }
    guard spaceSize > 0 else { throw .inconsistent("the plugin has no questions for these parameters") }
    return QuestionGenerator(
      PluginQuestions(topic: topic, spaceSize: spaceSize, pace: { backend.pace() }, make: batch))
  }

  static func parse(_ bytes: [UInt8], path: String, what: String) throws(PluginError) -> JSONNode {
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw PluginError(path: path, kind: .badOutput, reason: "\(what) is not valid JSON: \(error)")
    }
  }

  /// Checks a question the plugin wrote: texts present, readings in hiragana (as in JSON
  /// packs), spoken among them; both displays read whole (`ShownText`: declared words and what
  /// Biki reads, nothing skipped) and every reading one of theirs; the answer the number shown,
  /// with the prefix and postfix shown; a declared number and counter the ones shown.
  /// `displayReadings` keeps Biki's readings of displays met before (the plugin's own, so a
  /// display is read once per plugin).
  package static func question(
    _ bytes: [UInt8], topicID: String, seed: UInt64, path: String, displayReadings: DisplayReadings
  ) throws(PluginError) -> Question {
    let fields: WrittenQuestion
    do {
      fields = WrittenQuestion(try JSONParser.value(bytes))
    } catch {
      throw PluginError(path: path, kind: .badOutput, reason: "a question is not valid JSON: \(error)")
    }
    func fail(_ reason: String, _ kind: PluginError.Kind = .badOutput) -> PluginError {
      PluginError(path: path, kind: kind, reason: "question \(seed) of \(topicID): \(reason)")
    }
    func text(_ value: String?, _ key: String) throws(PluginError) -> String {
      guard let value, !value.isEmpty else { throw fail("\"\(key)\" must be a non-empty string") }
      return value
    }
    let display = try text(fields.display, "display")
    let kanjiDisplay = try text(fields.kanjiDisplay, "kanjiDisplay")
    let spoken = try text(fields.spoken, "spoken")
    guard let readings = fields.readings, !readings.isEmpty else {
      throw fail("\"readings\" must be a non-empty array of strings")
    }
    for reading in readings where !KanaText.isKana(reading) {
      let fix =
        KanaText.hasCombiningMark(reading)
        ? "has a combining sound mark; write the composed kana"
        : KanaText.isKana(KanaText.normalized(reading))
          ? "is not hiragana: write \"\(KanaText.normalized(reading))\"" : "is not hiragana"
      throw fail("reading \"\(reading.prefix(80))\" \(fix)", .notHiragana)
    }
    guard readings.contains(where: { $0.hasSameBytes(as: spoken) }) else {
      throw fail("\"spoken\" (\(spoken)) is not one of its readings")
    }
    guard let answer = fields.answer, let value = answer["value"]?.integerValue else {
      throw fail("\"answer\" must be an object with an integer \"value\"")
    }
    let shape = try Self.answerShape(answer, fail: fail)
    let prefix = answer["prefix"]?.stringValue ?? ""
    let postfix = answer["postfix"]?.stringValue ?? ""
    let words = try declaredWords(fields.words, fail: fail)
    let declared = try declaredNumber(fields.number, fail: fail)

    // Both displays are read whole, each part either a declared word or read by Biki; a run
    // that is exactly the declared number and counter is read from them (a counter Biki does
    // not know with the declared reading).
    func read(_ shown: String) throws(PluginError) -> ShownText.Read {
      let result = ShownText.read(shown, words: words) { run in
        // What the question declares is read by Biki from the number and counter (its own
        // reading of a counter it knows), without parsing the run again.
        if let declared, declared.isWritten(as: run) { return .success(declared.reading) }
        return displayReadings.result(of: run)
      }
      switch result {
      case .success(let read): return read
      case .failure(let problem):
        throw fail("the display \"\(shown)\" cannot be read whole: \(problem)", .unreadableDisplay)
      }
    }
    let shown = try read(display)
    let shownKanji = try read(kanjiDisplay)
    func checkReadings(_ read: ShownText.Read, of text: String) throws(PluginError) {
      for reading in readings where !read.reading.accepts(reading) {
        throw fail(
          "reading \"\(reading)\" is not one Biki gives for \"\(text)\" (\(read.reading.all(limit: 4).joined(separator: " or ")))",
          .readingMismatch)
      }
    }
    try checkReadings(shown, of: display)
    // Usually the kanji display reads as the display does (¥286 and 二百八十六円): checked once.
    if shownKanji.reading != shown.reading { try checkReadings(shownKanji, of: kanjiDisplay) }

    // The answer is the one number the learner sees, in digits and in kanji, with its sign and
    // shape, and with what is written around it there.
    let shownNumber = try Self.shownNumber(
      shown, in: display, declared: declared, displayReadings: displayReadings, fail: fail)
    let kanjiNumber = try Self.shownNumber(
      shownKanji, in: kanjiDisplay, declared: declared, displayReadings: displayReadings, fail: fail)
    for (number, text) in [(shownNumber, display), (kanjiNumber, kanjiDisplay)] {
      guard let number, !number.isSame(value: value, shape: shape) else { continue }
      if !number.shape.isSameKind(as: shape) {
        let answered = WrittenNumber(value: value, shape: shape)
        throw fail(
          "\"\(text)\" shows \(number), \(number.shape.name), and the answer \(answered) is \(shape.name): give the answer the shape shown (\(Self.shapeFields(number.shape)), with the host extension biki.answers.1)",
          .answerMismatch)
      }
      var bare = number
      bare.unit = nil
      throw fail(
        "the answer \(WrittenNumber(value: value, shape: shape)) is not the number \"\(text)\" shows (\(bare))",
        .answerMismatch)
    }
    guard Self.isShown(prefix: prefix, postfix: postfix, in: shown.numberRun) else {
      let written = prefix + String(value) + postfix
      throw fail(
        "the answer \"\(written)\" is not written as \"\(display)\" shows it: its \(prefix.isEmpty || Self.isShown(prefix: prefix, postfix: "", in: shown.numberRun) ? "postfix \"\(postfix)\"" : "prefix \"\(prefix)\"") is not there",
        .answerMismatch)
    }
    if let declared {
      guard let shownNumber, shownNumber.isSame(value: Int64(declared.value), shape: .whole) else {
        throw fail("its declared number \(declared.value) is not what \"\(display)\" shows", .answerMismatch)
      }
      guard let run = shown.numberRun,
        declared.counter.isEmpty || Self.isShown(prefix: "", postfix: declared.counter, in: run)
      else {
        throw fail("its declared counter \"\(declared.counter)\" is not the one \"\(display)\" shows", .answerMismatch)
      }
    }
    return Question(
      topicID: topicID, seed: seed, display: display, kanjiDisplay: kanjiDisplay, spoken: spoken,
      reading: Reading(alternatives: readings),
      answer: Answer(
        value: value, prefix: prefix, postfix: postfix,
        isGrouped: (answer["style"]?.stringValue ?? (postfix == "年" ? "plain" : "grouped")) == "grouped", shape: shape),
      forms: declared?.forms ?? [])
  }

  /// The one number a display shows, read whole by Biki (`PhraseReader.numbers(in:)`): nil when
  /// it shows none. A display that shows more than one is one no answer can be checked against.
  static func shownNumber(
    _ read: ShownText.Read, in text: String, declared: DeclaredNumber?, displayReadings: DisplayReadings,
    fail: (String, PluginError.Kind) -> PluginError
  ) throws(PluginError) -> WrittenNumber? {
    guard let run = read.numberRun else { return nil }
    // A run that is exactly the declared number and its counter (612号室, a counter Biki may not
    // know) shows that number, as it was read.
    if let declared, declared.isWritten(as: run), let value = Int64(exactly: declared.value) {
      return WrittenNumber(value: value, unit: declared.counter)
    }
    let numbers: [WrittenNumber]
    do {
      numbers = try displayReadings.numbers(in: run).get()
    } catch {
      throw fail("the display \"\(text)\" cannot be read whole: \(error)", .unreadableDisplay)
    }
    // A time written in 時 and 分 (十六時五分, the kanji of 16:05) is the time of day it names.
    if numbers.count == 2, numbers[0].unit == "時", numbers[1].unit == "分", numbers[0].shape == .whole,
      numbers[1].shape == .whole, (0...24).contains(numbers[0].value), (0...59).contains(numbers[1].value)
    {
      return WrittenNumber(value: numbers[0].value * 60 + numbers[1].value, shape: .clock)
    }
    guard numbers.count == 1, let number = numbers.first else {
      let listed = numbers.map(\.description).joined(separator: ", ")
      throw fail(
        "\"\(text)\" shows \(numbers.count) numbers (\(listed)); a question's answer is the one number it shows",
        .answerMismatch)
    }
    return number
  }

  /// The shape an answer gives beside its value (host extension biki.answers.1), as a JSON
  /// pack's answer does: whole when it gives none.
  static func answerShape(_ answer: JSON, fail: (String, PluginError.Kind) -> PluginError) throws(PluginError)
    -> NumberShape
  {
    let style = answer["style"]?.stringValue
    var shapes: [NumberShape] = []
    if let decimals = answer["decimals"] {
      guard let places = decimals.integerValue, (1...10).contains(places) else {
        throw fail("the answer's \"decimals\" must be a whole number from 1 to 10", .badOutput)
      }
      shapes.append(.decimal(places: Int(places)))
    }
    if let denominator = answer["denominator"] {
      guard let below = denominator.integerValue, below >= 1 else {
        throw fail("the answer's \"denominator\" must be a whole number of at least 1", .badOutput)
      }
      shapes.append(.fraction(denominator: below, slashed: style == "slash"))
    }
    if style == "clock" { shapes.append(.clock) }
    if style == "digits" {
      guard let width = answer["width"]?.integerValue, (1...20).contains(width) else {
        throw fail("an answer in \"style\": \"digits\" needs a \"width\" from 1 to 20", .badOutput)
      }
      shapes.append(.code(width: Int(width)))
    }
    guard shapes.count <= 1 else {
      throw fail("the answer gives more than one shape (\"decimals\", \"denominator\", a clock or digits)", .badOutput)
    }
    return shapes.first ?? .whole
  }

  /// The answer's members that give `shape`, for messages.
  static func shapeFields(_ shape: NumberShape) -> String {
    switch shape {
    case .whole: "no shape"
    case .decimal(let places): "\"decimals\": \(places)"
    case .fraction(let denominator, let slashed):
      "\"denominator\": \(denominator)" + (slashed ? ", \"style\": \"slash\"" : "")
    case .clock: "\"style\": \"clock\""
    case .code(let width): "\"style\": \"digits\", \"width\": \(width)"
    }
  }

  /// Whether an answer's prefix and postfix are written where the number is shown: `¥` before
  /// it or `円` after it either way (¥286, 二百八十六円), a counter or unit after it (本, 日間, 年).
  static func isShown(prefix: String, postfix: String, in run: String?) -> Bool {
    guard let run else { return prefix.isEmpty && postfix.isEmpty }
    // Compared as UTF-8 bytes: both are texts the plugin wrote, and String's own comparisons
    // normalise first, which this runs too often to pay for.
    func starts(_ text: String) -> Bool { run.utf8.starts(with: text.utf8) }
    func ends(_ text: String) -> Bool {
      run.utf8.count >= text.utf8.count && run.utf8.suffix(text.utf8.count).elementsEqual(text.utf8)
    }
    let yen = starts("¥") || starts("￥") || ends("円")
    let prefixShown = prefix.isEmpty || starts(prefix) || ((prefix == "¥" || prefix == "￥") && yen)
    let postfixShown = postfix.isEmpty || ends(postfix) || (postfix == "円" && yen)
    return prefixShown && postfixShown
  }

  /// The words a question declares with their readings (`"words": [{"text": "税込", "reading": "ぜいこみ"}]`).
  private static func declaredWords(_ json: JSON?, fail: (String, PluginError.Kind) -> PluginError) throws(PluginError)
    -> ShownText.Words
  {
    guard let json else { return .none }
    guard let elements = json.arrayValue, elements.count <= 64 else {
      throw fail("\"words\" must be an array of at most 64 {\"text\", \"reading\"} objects", .badOutput)
    }
    var words: [ShownText.Word] = []
    for element in elements {
      guard let text = element["text"]?.stringValue, let reading = element["reading"]?.stringValue else {
        throw fail("each of \"words\" must be an object with a \"text\" and its \"reading\"", .badOutput)
      }
      words.append(ShownText.Word(text: text, reading: reading))
    }
    do {
      return try ShownText.Words(words)
    } catch {
      throw fail("\(error)", .unreadableDisplay)
    }
  }

  /// A number the question declares (`{"value": 612, "counter": "号室"}`), with Biki's reading.
  struct DeclaredNumber {
    var value: UInt64
    var counter: String
    var reading: Reading
    var forms: [ReadingForm]

    /// Whether `run` is exactly this number and counter: numerals alone (1,500, 266万5000,
    /// 二百八十六) with the value, then the counter (or, for 円, ¥ before them).
    func isWritten(as run: String) -> Bool {
      // Bytes, not Characters: this runs for both displays of every question.
      let bytes = run.utf8
      let counterBytes = counter.utf8
      var number = Substring(run)
      if counter == "円", bytes.starts(with: "¥".utf8) || bytes.starts(with: "￥".utf8) {
        number = Substring(number.unicodeScalars.dropFirst())
      } else {
        guard bytes.count > counterBytes.count, bytes.suffix(counterBytes.count).elementsEqual(counterBytes) else {
          return false
        }
        number = Substring(run.utf8.dropLast(counterBytes.count))
      }
      // A scalar that is not a numeral (本 in 9本1本) makes it no number.
      return !number.isEmpty && KanjiNumeral.parse(scalars: number.unicodeScalars) == UInt128(value)
    }
  }

  private static func declaredNumber(_ declared: JSON?, fail: (String, PluginError.Kind) -> PluginError)
    throws(PluginError) -> DeclaredNumber?
  {
    guard let declared else { return nil }
    guard let number = declared["value"]?.integerValue, number >= 0 else {
      throw fail("\"number\" must be an object with a whole \"value\" of at least 0", .badOutput)
    }
    let counter = declared["counter"]?.stringValue ?? ""
    switch HostServices.number(
      UInt64(number), counter: counter, counterReading: declared["counterReading"]?.stringValue)
    {
    case .success(let found):
      return DeclaredNumber(value: UInt64(number), counter: counter, reading: found.reading, forms: found.forms)
    case .failure(let message): throw fail("its declared number: \(message.text)", .badOutput)
    }
  }
}

/// The members of a question a plugin wrote, found in one pass over its object (the first of
/// each name, as everywhere else), so checking does not search the members once per field.
private struct WrittenQuestion {
  var display: String?
  var kanjiDisplay: String?
  var spoken: String?
  /// The readings, when they are an array of strings only.
  var readings: [String]?
  /// The answer object, when it is one.
  var answer: JSON?
  /// The declared number (`{"value": 612, "counter": "号室"}`), when present.
  var number: JSON?
  /// The declared words (`[{"text": "税込", "reading": "ぜいこみ"}]`), when present.
  var words: JSON?

  init(_ root: JSON) {
    var seen: UInt8 = 0
    func first(_ field: UInt8) -> Bool {
      defer { seen |= 1 << field }
      return seen & (1 << field) == 0
    }
    guard case .object(let members) = root else { return }
    // Members are read in place, by index: a `for` loop copies each one out (retaining its key
    // and value) only to release it again.
    for index in members.indices {
      switch members[index].key {
      case "display" where first(0): display = members[index].value.stringValue
      case "kanjiDisplay" where first(1): kanjiDisplay = members[index].value.stringValue
      case "spoken" where first(2): spoken = members[index].value.stringValue
      case "readings" where first(3):
        guard case .array(let elements) = members[index].value else { continue }
        var texts: [String] = []
        texts.reserveCapacity(elements.count)
        for element in elements {
          guard case .string(let text) = element else { break }
          texts.append(text)
        }
        readings = texts.count == elements.count ? texts : nil
      case "answer" where first(4): answer = members[index].value.isObject ? members[index].value : nil
      case "number" where first(5): number = members[index].value
      case "words" where first(6): words = members[index].value
      default: continue
      }
    }
  }
}
