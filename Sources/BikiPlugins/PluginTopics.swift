import BikiCore
import BikiJSON
import BikiJapanese

/// A plugin's topics, validated, ready to make generators like any JSON topic.
public struct PluginTopics: Sendable {
  public let backend: PluginBackend
  public let identity: PluginIdentity
  public let topics: [Topic]
  /// Question space sizes by full topic id.
  let questionCounts: [String: UInt64]

  /// Loads a plugin in this process and checks its description.
  public init(library: PluginLibrary) throws(PluginError) {
    try self.init(backend: .inProcess(library))
  }

  /// Asks the plugin to describe itself and checks every field.
  public init(backend: PluginBackend) throws(PluginError) {
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
  public func generator(for topic: Topic, parameters: [String: Int64] = [:]) throws(ParameterError) -> QuestionGenerator {
    _ = try topic.resolve(parameters)
    let backend = self.backend
    let localID = String(topic.id.dropFirst(identity.id.count + 1))
    let batch: @Sendable ([UInt64]) -> [Result<Question, GenerationError>] = { seeds in
      do {
        return try backend.generate(localID, parameters, seeds).enumerated().map { offset, result in
          Result { () throws(GenerationError) in
            do {
              return try PluginTopics.question(try result.get(), topicID: topic.id, seed: seeds[offset], path: backend.path)
            } catch {
              throw GenerationError(topicID: topic.id, reason: "\(error)")
            }
          }
        }
      } catch {
        return seeds.map { _ in .failure(GenerationError(topicID: topic.id, reason: "\(error)")) }
      }
    }
    var generator = QuestionGenerator(topic: topic, spaceSize: questionCounts[topic.id] ?? 1) { index throws(GenerationError) in
      try batch([index])[0].get()
    }
    generator.batch = batch
    return generator
  }

  static func parse(_ bytes: [UInt8], path: String, what: String) throws(PluginError) -> JSONNode {
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw PluginError(path: path, kind: .badOutput, reason: "\(what) is not valid JSON: \(error)")
    }
  }

  /// Checks a question the plugin wrote: texts present, readings in kana, spoken among them.
  public static func question(_ bytes: [UInt8], topicID: String, seed: UInt64, path: String) throws(PluginError) -> Question {
    let node = try parse(bytes, path: path, what: "a question")
    func fail(_ reason: String) -> PluginError {
      PluginError(path: path, kind: .badOutput, reason: "question \(seed) of \(topicID): \(reason)")
    }
    func text(_ key: String) throws(PluginError) -> String {
      guard let value = node[key]?.value.stringValue, !value.isEmpty else { throw fail("\"\(key)\" must be a non-empty string") }
      return value
    }
    let display = try text("display"), kanjiDisplay = try text("kanjiDisplay"), spoken = try text("spoken")
    let readings = node["readings"]?.value.arrayValue?.compactMap(\.stringValue) ?? []
    guard !readings.isEmpty else { throw fail("\"readings\" must be a non-empty array of strings") }
    for reading in readings where !KanaText.isKana(reading) {
      throw fail("reading \"\(reading)\" is not hiragana")
    }
    guard readings.contains(where: { $0.utf8.elementsEqual(spoken.utf8) }) else {
      throw fail("\"spoken\" (\(spoken)) is not one of its readings")
    }
    guard let answer = node["answer"], let value = answer.value.members.flatMap({ _ in answer.value["value"]?.value.integerValue }) else {
      throw fail("\"answer\" must be an object with an integer \"value\"")
    }
    let postfix = answer.value["postfix"]?.value.stringValue ?? ""
    return Question(
      topicID: topicID, seed: seed, display: display, kanjiDisplay: kanjiDisplay, spoken: spoken,
      reading: Reading(alternatives: readings),
      answer: Answer(
        value: value, prefix: answer.value["prefix"]?.value.stringValue ?? "", postfix: postfix,
        isGrouped: (answer.value["style"]?.value.stringValue ?? (postfix == "年" ? "plain" : "grouped")) == "grouped"))
  }

}
