import BikiCore
import BikiHost
import BikiJSON
import BikiPacks

/// A topic as `biki/topics` lists it.
struct TopicInfo: WireValue, Equatable {
  var id: String
  var title: String
  var description: String
  var category: Topic.Category
  var skills: [Skill]
  var parameters: [Parameter]
  /// The pack file or plugin it came from.
  var source: String

  struct Parameter: WireValue, Equatable {
    var name: String
    var description: String
    var defaultValue: Int64
    var minimum: Int64
    var maximum: Int64

    func write(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.field("name", name)
      writer.field("description", description)
      writer.field("default", defaultValue)
      writer.field("minimum", minimum)
      writer.field("maximum", maximum)
      writer.endObject()
    }

    init(_ parameter: Topic.Parameter) {
      (name, description) = (parameter.name, parameter.description)
      (defaultValue, minimum, maximum) = (parameter.defaultValue, parameter.minimum, parameter.maximum)
    }

    init(wire: JSON) throws(WireError) {
      var fields = try WireFields(wire)
      name = try fields.required("name", Wire.string)
      description = try fields.required("description", Wire.string)
      defaultValue = try fields.required("default", Wire.integer)
      minimum = try fields.required("minimum", Wire.integer)
      maximum = try fields.required("maximum", Wire.integer)
      try fields.finish()
    }
  }

  init(_ entry: RegisteredTopic) {
    let topic = entry.topic
    (id, title, description, category) = (topic.id, topic.title, topic.description, topic.category)
    skills = topic.skills
    parameters = topic.parameters.map(Parameter.init)
    source = entry.source
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("id", id)
    writer.field("title", title)
    writer.field("description", description)
    writer.field("category", category.rawValue)
    writer.field("skills", skills.map(\.rawValue))
    writer.field("parameters", parameters)
    writer.field("source", source)
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    id = try fields.required("id", Wire.string)
    title = try fields.required("title", Wire.string)
    description = try fields.required("description", Wire.string)
    category = try fields.required("category", Wire.word(Topic.Category.self))
    skills = try fields.required("skills", Wire.array(Wire.word(Skill.self)))
    parameters = try fields.required("parameters", Wire.array(Wire.value(Parameter.self)))
    source = try fields.required("source", Wire.string)
    try fields.finish()
  }
}

/// `biki/topics`' answer: the list, or word that the client's copy is current.
struct TopicListResponse: WireValue, Equatable {
  enum Kind: String { case full, unchanged }
  var kind: Kind
  var resultID: String
  /// With `full` only.
  var topics: [TopicInfo]?

  init(kind: Kind, resultID: String, topics: [TopicInfo]?) {
    (self.kind, self.resultID, self.topics) = (kind, resultID, topics)
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("kind", kind.rawValue)
    writer.field("resultId", resultID)
    if let topics { writer.field("topics", topics) }
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    kind = try fields.required("kind", Wire.word(Kind.self))
    resultID = try fields.required("resultId", Wire.string)
    topics = try fields.optional("topics", Wire.array(Wire.value(TopicInfo.self)))
    try fields.finish()
  }
}

/// `biki/read`'s answer.
struct ReadResponse: WireValue, Equatable {
  var text: String
  var reading: String
  var readings: [String]

  init(text: String, reading: String, readings: [String]) {
    (self.text, self.reading, self.readings) = (text, reading, readings)
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("text", text)
    writer.field("reading", reading)
    writer.field("readings", readings)
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    text = try fields.required("text", Wire.string)
    reading = try fields.required("reading", Wire.string)
    readings = try fields.required("readings", Wire.array(Wire.string))
    try fields.finish()
  }
}

/// An LSP diagnostic: 0-based lines, UTF-16 columns (converted for a UTF-8 client on the way out).
struct WireDiagnostic: WireValue, Equatable {
  var start: (line: Int64, character: Int64)
  var end: (line: Int64, character: Int64)
  /// 1 error, 2 warning.
  var severity: Int64
  /// The rule, as lint names it.
  var code: String
  var source: String
  var message: String

  static func == (lhs: WireDiagnostic, rhs: WireDiagnostic) -> Bool {
    lhs.start == rhs.start && lhs.end == rhs.end
      && (lhs.severity, lhs.code, lhs.source, lhs.message) == (rhs.severity, rhs.code, rhs.source, rhs.message)
  }

  init(_ diagnostic: Diagnostic) {
    let range = diagnostic.range
    start = (Int64(range.start.line), Int64(range.start.utf16Column))
    end = (Int64(range.end.line), Int64(range.end.utf16Column))
    severity = diagnostic.severity == .error ? 1 : 2
    code = diagnostic.rule
    source = "biki"
    message = diagnostic.message
  }

  func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("range")
    writer.beginObject()
    for (name, position) in [("start", start), ("end", end)] as [(StaticString, (line: Int64, character: Int64))] {
      writer.key(name)
      writer.beginObject()
      writer.field("line", position.line)
      writer.field("character", position.character)
      writer.endObject()
    }
    writer.endObject()
    writer.field("severity", severity)
    writer.field("code", code)
    writer.field("source", source)
    writer.field("message", message)
    writer.endObject()
  }

  init(wire: JSON) throws(WireError) {
    var fields = try WireFields(wire)
    var range = try fields.required("range") { value, path throws(WireError) in try WireFields(value, path: path) }
    func position(_ name: String) throws(WireError) -> (line: Int64, character: Int64) {
      try range.required(name) { value, path throws(WireError) in
        var position = try WireFields(value, path: path)
        let line = try position.required("line", Wire.integer)
        let character = try position.required("character", Wire.integer)
        try position.finish()
        return (line, character)
      }
    }
    start = try position("start")
    end = try position("end")
    try range.finish()
    severity = try fields.required("severity", Wire.integer)
    code = try fields.required("code", Wire.string)
    source = try fields.required("source", Wire.string)
    message = try fields.required("message", Wire.string)
    try fields.finish()
  }
}
