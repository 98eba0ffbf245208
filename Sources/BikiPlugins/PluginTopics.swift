import BikiCore
import BikiJSON
import BikiJapanese
import BikiSync

/// A plugin's topics, validated, ready to make generators like any JSON topic.
package struct PluginTopics: Sendable {
  package let backend: PluginBackend
  package let identity: PluginIdentity
  package let topics: [Topic]
  /// Question space sizes by full topic id.
  let questionCounts: [String: UInt64]
  /// Biki's readings of the displays this plugin has shown, for checking its questions.
  package let displayReadings = DisplayReadings()
  /// Questions per call in a long batch: enough that a worker's round trip is small beside
  /// checking them, few enough that checking starts soon.
  static let chunkSize = 100

  /// Loads a plugin in this process and checks its description.
  package init(library: PluginLibrary) throws(PluginError) {
    try self.init(backend: .inProcess(library))
  }

  /// Asks the plugin to describe itself and checks every field.
  package init(backend: PluginBackend) throws(PluginError) {
    self.backend = backend
    let (identity, description) = try backend.describe()
    self.identity = identity
    let path = backend.path
    let root = try PluginTopics.parse(description, path: path, what: "its description")
    func fail(_ reason: String) -> PluginError { PluginError(path: path, kind: .badOutput, reason: "its description: \(reason)") }
    guard let topicNodes = root["topics"]?.value.arrayValue, !topicNodes.isEmpty else { throw fail("\"topics\" must be a non-empty array") }
    var topics: [Topic] = [], counts: [String: UInt64] = [:]
    for node in topicNodes {
      guard let id = node["id"]?.value.stringValue, Identifier.isValid(id) else {
        throw fail("a topic id is missing or not lowercase letters, digits and '-' (at \(node.range.start))")
      }
      let fullID = identity.id + "." + id
      guard counts[fullID] == nil else { throw fail("topic id \"\(id)\" is described twice") }
      guard let title = node["title"]?.value.stringValue, !title.isEmpty else { throw fail("topic \"\(id)\" has no title") }
      guard let categoryName = node["category"]?.value.stringValue, let category = Topic.Category(rawValue: categoryName) else {
        throw fail("topic \"\(id)\" has no valid category")
      }
      let skillNames = node["skills"]?.value.arrayValue?.compactMap(\.stringValue) ?? []
      let skills = skillNames.compactMap(Skill.init(rawValue:))
      guard !skills.isEmpty, skills.count == skillNames.count, Set(skills).count == skills.count else {
        throw fail("topic \"\(id)\" needs distinct skills from listening, reading, kana")
      }
      guard let count = node["questionCount"]?.value.integerValue, count > 0 else {
        throw fail("topic \"\(id)\" needs a positive questionCount")
      }
      var parameters: [Topic.Parameter] = []
      for parameter in node["parameters"]?.value.arrayValue ?? [] {
        guard let name = parameter["name"]?.value.stringValue, let value = parameter["default"]?.value.integerValue,
          let minimum = parameter["min"]?.value.integerValue, let maximum = parameter["max"]?.value.integerValue,
          minimum <= value, value <= maximum
        else { throw fail("topic \"\(id)\" has a parameter without name, default, min and max in order") }
        parameters.append(
          Topic.Parameter(name: name, description: parameter["description"]?.value.stringValue ?? "", defaultValue: value, minimum: minimum, maximum: maximum))
      }
      topics.append(
        Topic(
          id: fullID, title: title, description: node["description"]?.value.stringValue ?? "", category: category, skills: skills,
          parameters: parameters))
      counts[fullID] = UInt64(count)
    }
    self.topics = topics
    self.questionCounts = counts
  }

  /// A generator for one of the plugin's topics; the plugin is asked for each question and
  /// everything it writes is checked.
  package func generator(for topic: Topic, parameters: [String: Int64] = [:]) throws(ParameterError) -> QuestionGenerator {
    _ = try topic.resolve(parameters)
    let backend = self.backend, displayReadings = self.displayReadings
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
                    try result.get(), topicID: topic.id, seed: seed, path: backend.path, displayReadings: displayReadings)
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
    var generator = QuestionGenerator(topic: topic, spaceSize: spaceSize) { index throws(GenerationError) in
      try batch([index])[0].get()
    }
    generator.batch = batch
    generator.callsPlugin = true
    return generator
  }

  static func parse(_ bytes: [UInt8], path: String, what: String) throws(PluginError) -> JSONNode {
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw PluginError(path: path, kind: .badOutput, reason: "\(what) is not valid JSON: \(error)")
    }
  }

  /// Checks a question the plugin wrote: texts present, readings in hiragana (as in JSON
  /// packs), spoken among them, the answer the number the display shows, and the readings ones
  /// Biki gives too wherever it can read the display or the question declares its number.
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
    let display = try text(fields.display, "display"), kanjiDisplay = try text(fields.kanjiDisplay, "kanjiDisplay")
    let spoken = try text(fields.spoken, "spoken")
    guard let readings = fields.readings, !readings.isEmpty else { throw fail("\"readings\" must be a non-empty array of strings") }
    for reading in readings where !KanaText.isKana(reading) {
      let fix =
        KanaText.hasCombiningMark(reading)
        ? "has a combining sound mark; write the composed kana" : KanaText.isKana(KanaText.normalized(reading))
          ? "is not hiragana: write \"\(KanaText.normalized(reading))\"" : "is not hiragana"
      throw fail("reading \"\(reading.prefix(80))\" \(fix)", .notHiragana)
    }
    guard readings.contains(where: { $0.hasSameBytes(as: spoken) }) else {
      throw fail("\"spoken\" (\(spoken)) is not one of its readings")
    }
    guard let answer = fields.answer, let value = answer["value"]?.integerValue else {
      throw fail("\"answer\" must be an object with an integer \"value\"")
    }
    // The answer is the number the learner sees, in digits and in kanji.
    // Checked one text at a time, not over an array of (text, numbers) pairs: such an array is
    // made and destroyed through the runtime's generic tuple code for every question.
    func checkAnswer(against numbers: [UInt128], shownIn shown: String) throws(PluginError) {
      guard numbers.isEmpty || (value >= 0 && numbers.contains(UInt128(value))) else {
        let listed = Array(Set(numbers)).sorted().map(String.init).joined(separator: ", ")
        throw fail("the answer \(value) is not the number \"\(shown)\" shows (\(listed))", .answerMismatch)
      }
    }
    let shownInDisplay = WrittenNumbers.values(in: display)
    try checkAnswer(against: shownInDisplay, shownIn: display)
    try checkAnswer(against: WrittenNumbers.values(in: kanjiDisplay), shownIn: kanjiDisplay)
    let forms = try checkReadings(
      readings, display: display, shown: shownInDisplay, declared: fields.number, displayReadings: displayReadings, fail: fail)
    let postfix = answer["postfix"]?.stringValue ?? ""
    return Question(
      topicID: topicID, seed: seed, display: display, kanjiDisplay: kanjiDisplay, spoken: spoken,
      reading: Reading(alternatives: readings),
      answer: Answer(
        value: value, prefix: answer["prefix"]?.stringValue ?? "", postfix: postfix,
        isGrouped: (answer["style"]?.stringValue ?? (postfix == "年" ? "plain" : "grouped")) == "grouped"), forms: forms)
  }

  /// The readings must be Biki's own: when the question declares its number (and counter), each
  /// reading contains one of Biki's readings of it (a plugin may add words around it: ぜいこみ);
  /// otherwise, when Biki can read the display, each reading is one Biki accepts for it.
  /// Returns the forms a declared number exercises.
  private static func checkReadings(
    _ readings: [String], display: String, shown: [UInt128], declared: JSON?, displayReadings: DisplayReadings,
    fail: (String, PluginError.Kind) -> PluginError
  ) throws(PluginError) -> [ReadingForm] {
    if let declared {
      guard let number = declared["value"]?.integerValue, number >= 0 else {
        throw fail("\"number\" must be an object with a whole \"value\" of at least 0", .badOutput)
      }
      let counter = declared["counter"]?.stringValue ?? ""
      let counterReading = declared["counterReading"]?.stringValue
      let host: Reading, forms: [ReadingForm]
      switch HostServices.number(UInt64(number), counter: counter, counterReading: counterReading) {
      case .success(let found): (host, forms) = (found.reading, found.forms)
      case .failure(let message): throw fail("its declared number: \(message.text)", .badOutput)
      }
      guard shown.isEmpty || shown.contains(UInt128(number)) else {
        throw fail("its declared number \(number) is not what \"\(display)\" shows", .answerMismatch)
      }
      for reading in readings where !host.isSpelled(within: reading) {
        throw fail(
          "reading \"\(reading)\" does not contain Biki's reading of \(number)\(counter) (\(host.all(limit: 4).joined(separator: " or ")))",
          .readingMismatch)
      }
      return forms
    } else if let host = displayReadings.reading(of: display) {
      for reading in readings where !host.accepts(reading) {
        throw fail("reading \"\(reading)\" is not one Biki gives for \"\(display)\" (\(host.all(limit: 4).joined(separator: " or ")))", .readingMismatch)
      }
    }
    return []
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
      default: continue
      }
    }
  }
}
