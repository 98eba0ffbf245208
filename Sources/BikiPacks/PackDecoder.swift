import BikiCore
import BikiJSON
import BikiJapanese

/// JSON → `PackDefinition`, reporting every structural problem: types, keys, enums, the
/// format version. Meaning (ranges, references, readings) is checked later by `TopicCompiler`.
struct PackDecoder {
  var reader = NodeReader()

  mutating func decode(_ root: JSONNode) -> PackDefinition {
    var pack = PackDefinition()
    guard
      let members = reader.object(root, "the pack", PackVocabulary.keys(of: .pack))
    else { return pack }
    if let format = reader.integer(members["format"], "format") {
      pack.format = format.value
      if !PackDefinition.supportedFormats.contains(format.value) {
        reader.error(
          "pack format \(format.value) is not supported; this version of Biki reads format \(PackDefinition.supportedFormats.map(String.init).joined(separator: ", "))",
          "format-version", at: format.range)
        return pack
      }
    }
    if let id = reader.string(members["id"], "the pack id") {
      pack.id = id
      checkIdentifier(id, "the pack id")
    }
    pack.title = reader.string(members["title"], "the pack title")?.value ?? ""
    pack.version = reader.string(members["version"], "the pack version")?.value ?? ""
    pack.description = reader.string(members["description"], "the pack description", nonEmpty: false)?.value
    _ = reader.string(members["$schema"], "$schema")
    for node in reader.array(members["counters"], "counters", nonEmpty: false) ?? [] {
      let errorsBefore = reader.errorCount
      guard var counter = decodeCounter(node) else { continue }
      counter.hasDecodingErrors = reader.errorCount > errorsBefore
      pack.counters.append(counter)
    }
    // Each name's place, so a pack of many objects is checked for repeats in one pass.
    var declared: [String: SourceRange] = [:]
    for node in reader.array(members["objects"], "objects", nonEmpty: false) ?? [] {
      guard let thing = decodeThing(node) else { continue }
      if let first = declared[thing.name.value] {
        reader.error(
          "object \"\(Excerpt.of(thing.name.value))\" is already declared at line \(first.start.line + 1) of this pack",
          "duplicate-object",
          at: thing.name.range)
        continue
      }
      declared[thing.name.value] = thing.name.range
      pack.things.append(thing)
    }
    for node in reader.array(members["topics"], "topics") ?? [] {
      if let topic = decodeTopic(node) { pack.topics.append(topic) }
    }
    return pack
  }

  mutating func checkIdentifier(_ id: Located<String>, _ what: String) {
    if !Identifier.isValid(id.value) {
      reader.error("\(what) \"\(id.value)\" must be \(Identifier.rule)", "invalid-id", at: id.range)
    }
  }

  // MARK: Things

  mutating func decodeThing(_ node: JSONNode) -> ThingDefinition? {
    guard let members = reader.object(node, "an object", PackVocabulary.keys(of: .thing)) else { return nil }
    var thing = ThingDefinition(range: node.range)
    guard let name = reader.string(members["name"], "the object's name") else { return nil }
    thing.name = name
    let errorsBefore = reader.errorCount
    if let reading = reader.string(members["reading"], "the object's reading") {
      thing.reading = reading.value
      checkKana(reading)
    }
    thing.meaning = reader.string(members["meaning"], "the object's meaning", nonEmpty: false)?.value ?? ""
    let usual = reader.strings(members["counters"], "the counters of \"\(Excerpt.of(name.value))\"") ?? []
    // Counters a native speaker accepts but seldom uses (ホームラン × 3 is 3弾 in headlines).
    let uncommon =
      members["uncommon"].map { reader.strings($0, "the uncommon counters of \"\(Excerpt.of(name.value))\"") ?? [] }
      ?? []
    thing.counters = usual + uncommon
    thing.usualCount = usual.count
    // The answer shown after a miss gives every counter: each once, and a few. A repeat is
    // reported once, where it is first repeated.
    var times: [String: Int] = [:]
    for counter in thing.counters { times[counter.value, default: 0] += 1 }
    var reported = Set<String>()
    var listed = Set<String>()
    for counter in thing.counters
    where !listed.insert(counter.value).inserted && reported.insert(counter.value).inserted {
      let count = times[counter.value] ?? 2
      reader.error(
        "counter \"\(Excerpt.of(counter.value))\" is listed \(count == 2 ? "twice" : "\(count) times") for \"\(Excerpt.of(name.value))\"; list each counter the thing takes once",
        "duplicate-value", at: counter.range)
    }
    if thing.counters.count > ThingDefinition.maximumCounters {
      reader.error(
        "\"\(Excerpt.of(name.value))\" lists \(thing.counters.count) counters; an object takes at most \(ThingDefinition.maximumCounters), as the answer shown after a miss gives every one: keep the counters it is usually counted with",
        "too-many-counters", at: members["counters"]?.value.range ?? node.range)
    }
    thing.hasDecodingErrors = reader.errorCount > errorsBefore || usual.isEmpty
    return thing
  }

  // MARK: Counters

  mutating func decodeCounter(_ node: JSONNode) -> CounterDefinition? {
    guard
      let members = reader.object(node, "a counter", PackVocabulary.keys(of: .counter))
    else { return nil }
    var counter = CounterDefinition(range: node.range)
    if let id = reader.string(members["id"], "the counter id") {
      counter.id = id
      checkIdentifier(id, "the counter id")
    }
    counter.symbols = reader.strings(members["symbols"], "the counter's symbols") ?? []
    // A symbol is what follows the number: nothing, a space or a digit would make the number
    // itself ambiguous.
    for symbol in counter.symbols
    where symbol.value.isEmpty
      || symbol.value.contains(where: { $0.isWhitespace || $0.isNumber || KanjiNumeral.isPartOfNumber($0) })
    {
      reader.error(
        "symbol \"\(Excerpt.of(symbol.value))\" must be written text with no spaces, digits or numerals",
        "invalid-value", at: symbol.range)
    }
    counter.symbols.removeAll { symbol in
      symbol.value.isEmpty
        || symbol.value.contains(where: { $0.isWhitespace || $0.isNumber || KanjiNumeral.isPartOfNumber($0) })
    }
    if let reading = reader.string(members["reading"], "the counter's reading") {
      counter.reading = reading
      checkKana(reading)
    }
    let kinds = Dictionary(uniqueKeysWithValues: BikiJapanese.Counter.Kind.allCases.map { ($0.rawValue, $0) })
    counter.kind = reader.oneOf(members["kind"], "the counter kind", kinds) ?? .counter
    counter.whole = decodeForms(members["whole"], "whole-value forms")
    counter.final = decodeForms(members["final"], "final-component forms")
    if let zero = reader.strings(members["zero"], "the zero forms") {
      for reading in zero { checkKana(reading) }
      counter.zero = zero.map(\.value)
    }
    if let values = members["values"],
      let bounds = reader.object(values.value, "the counter's values", PackVocabulary.keys(of: .counterValues))
    {
      if let min = reader.integer(bounds["min"], "values.min"), let max = reader.integer(bounds["max"], "values.max") {
        if min.value < 0 || max.value < min.value {
          reader.error(
            "values must satisfy 0 ≤ min ≤ max (here \(min.value)–\(max.value))", "range-reversed",
            at: values.value.range)
        } else {
          counter.validValues = UInt64(min.value)...UInt64(max.value)
        }
      }
    }
    counter.note = reader.string(members["note"], "the counter note", nonEmpty: false)?.value ?? ""
    warnAboutFormsThatNeverApply(counter, members)
    return counter
  }

  /// A `final` key that is no final component, or a `whole` value outside `values`, is never
  /// read: the author meant something else.
  mutating func warnAboutFormsThatNeverApply(_ counter: CounterDefinition, _ members: [String: JSONMember]) {
    for entry in members["final"]?.value.members ?? [] {
      guard let key = UInt64(entry.key), !Counter.finalKeys.contains(key) else { continue }
      reader.warning(
        "final form \(entry.key) never applies: a number's final component is 1–10, 100, 300, 600, 800, 1000, 3000, 8000, 10000, 100000000, 1000000000000 or 10000000000000000; for the whole value \(entry.key), use \"whole\"",
        "unused-form", at: entry.keyRange)
    }
    guard let valid = counter.validValues else { return }
    for entry in members["whole"]?.value.members ?? [] {
      guard let key = UInt64(entry.key), !valid.contains(key) else { continue }
      reader.warning(
        "whole form \(entry.key) never applies: the counter's values are \(valid.lowerBound)–\(valid.upperBound)",
        "unused-form",
        at: entry.keyRange)
    }
  }

  /// `{"1": ["いっぽん"], "8": ["はっぽん", "はちほん"]}`: value → readings, standard first.
  mutating func decodeForms(_ member: JSONMember?, _ what: String) -> [UInt64: [String]] {
    guard let member else { return [:] }
    var forms: [UInt64: [String]] = [:]
    for entry in reader.map(member.value, what) {
      guard let key = UInt64(entry.key), String(key) == entry.key else {
        reader.error(
          "keys of \(what) must be whole numbers such as \"1\" or \"100\", not \"\(entry.key)\"", "invalid-value",
          at: entry.keyRange)
        continue
      }
      let readings: [Located<String>]
      if let single = entry.value.stringValue {
        readings = [Located(single, range: entry.value.range)]
      } else {
        readings = reader.strings(entry, "the readings of \(entry.key)") ?? []
      }
      for reading in readings { checkKana(reading) }
      if !readings.isEmpty { forms[key] = readings.map(\.value) }
    }
    return forms
  }

  /// Readings are stored in hiragana, composed: what a learner's typing is normalised to.
  mutating func checkKana(_ text: Located<String>) {
    let quoted = Excerpt.of(text.value)
    if KanaText.startsWithLongVowelMark(text.value) {
      reader.error(
        "reading \"\(quoted)\" begins with ー, the long-vowel mark, which lengthens the kana before it; a reading cannot begin with one (write the vowel, as in おおきい, or put ー after the kana it lengthens, as in らーめん)",
        "invalid-kana", at: text.range)
      return
    }
    guard !KanaText.isKana(text.value) else { return }
    if KanaText.hasCombiningMark(text.value) {
      reader.error(
        "reading \"\(quoted)\" has a combining sound mark (U+3099 or U+309A); write the composed kana, as in ぱ or が",
        "invalid-kana", at: text.range)
    } else if KanaText.isKana(KanaText.normalized(text.value)) {
      reader.error(
        "reading \"\(quoted)\" must be written in hiragana: \"\(Excerpt.of(KanaText.normalized(text.value)))\"",
        "invalid-kana", at: text.range)
    } else {
      reader.error("reading \"\(quoted)\" must be written in hiragana", "invalid-kana", at: text.range)
    }
  }

  // MARK: Topics

  mutating func decodeTopic(_ node: JSONNode) -> TopicDefinition? {
    let errorsBefore = reader.errorCount
    guard var topic = decodeTopicFields(node) else { return nil }
    topic.hasDecodingErrors = reader.errorCount > errorsBefore
    return topic
  }

  private mutating func decodeTopicFields(_ node: JSONNode) -> TopicDefinition? {
    guard
      let members = reader.object(node, "a topic", PackVocabulary.keys(of: .topic))
    else { return nil }
    var topic = TopicDefinition(range: node.range)
    if let id = reader.string(members["id"], "the topic id") {
      topic.id = id
      checkIdentifier(id, "the topic id")
    }
    topic.title = reader.string(members["title"], "the topic title")?.value ?? ""
    topic.description = reader.string(members["description"], "the topic description", nonEmpty: false)?.value
    if topic.description?.isEmpty ?? true, let id = members["id"] {
      reader.warning(
        "topic \"\(topic.id.value)\" has no description; learners choose topics by it", "missing-description",
        at: id.keyRange)
    }
    let categories = Dictionary(uniqueKeysWithValues: Topic.Category.allCases.map { ($0.rawValue, $0) })
    topic.category = reader.oneOf(members["category"], "the category", categories) ?? .number
    if let favour = members["favour"] {
      let choices = Dictionary(uniqueKeysWithValues: TopicDefinition.Favour.allCases.map { ($0.rawValue, $0) })
      topic.favour = reader.oneOf(favour, "what the topic favours", choices).map {
        Located($0, range: favour.value.range)
      }
    }
    let skills = Dictionary(uniqueKeysWithValues: Skill.allCases.map { ($0.rawValue, $0) })
    for skill in reader.array(members["skills"], "skills") ?? [] {
      let member = JSONMember(key: "", keyRange: skill.range, value: skill)
      guard let parsed = reader.oneOf(member, "the skill", skills) else { continue }
      if topic.skills.contains(parsed) {
        reader.error("skill \"\(parsed.rawValue)\" is listed twice", "duplicate-value", at: skill.range)
      } else {
        topic.skills.append(parsed)
      }
    }
    if let variables = members["variables"] {
      for entry in reader.map(variables.value, "variables") {
        topic.variableNames.insert(entry.key)
        if var variable = decodeVariable(entry) {
          variable.nameRange = entry.keyRange
          topic.variables.append(variable)
        }
      }
      if topic.variables.isEmpty, variables.value.members?.isEmpty == true {
        reader.error("a topic needs at least one variable", "empty-list", at: variables.value.range)
      }
    }
    if let parameters = members["parameters"] {
      for entry in reader.map(parameters.value, "parameters") {
        if let parameter = decodeParameter(entry) { topic.parameters.append(parameter) }
      }
    }
    if let question = members["question"],
      let parts = reader.object(question.value, "the question", PackVocabulary.keys(of: .question))
    {
      for part in reader.array(parts["parts"], "the question's parts") ?? [] {
        if let decoded = decodePart(part) { topic.parts.append(decoded) }
      }
      if let answer = parts["answer"] { topic.answer = decodeAnswer(answer.value) }
    }
    return topic
  }

  mutating func decodeVariable(_ entry: JSONMember) -> VariableDefinition? {
    let kinds = PackVocabulary.variableKinds
    guard let members = reader.object(entry.value, "variable \"\(entry.key)\"", PackVocabulary.keys(of: .variable))
    else { return nil }
    let given = kinds.filter { members[$0] != nil }
    guard given.count == 1, let kind = given.first, let member = members[kind] else {
      reader.error(
        "variable \"\(entry.key)\" must have exactly one of: \(kinds.joined(separator: ", "))"
          + (given.isEmpty ? "" : " (it has \(given.joined(separator: ", ")))"),
        given.isEmpty ? "missing-key" : "conflicting-keys", at: entry.keyRange)
      return nil
    }
    let what = "variable \"\(entry.key)\""
    switch kind {
    case "range":
      guard let bounds = reader.object(member.value, "the range of \(what)", PackVocabulary.keys(of: .range)),
        let min = reader.integer(bounds["min"], "min"), let max = reader.integer(bounds["max"], "max")
      else { return nil }
      let step = reader.integer(bounds["step"], "step") ?? Located(1, range: member.value.range)
      return VariableDefinition(
        name: entry.key, kind: .range(min: min, max: max, step: step), range: member.value.range)
    case "choice":
      var items: [ChoiceItem] = []
      for item in reader.array(member, "the choices of \(what)") ?? [] {
        guard let fields = reader.object(item, "a choice", PackVocabulary.keys(of: .choice)),
          let text = reader.string(fields["text"], "the choice text"),
          let reading = reader.string(fields["reading"], "the choice reading"),
          let value = reader.integer(fields["value"], "the choice value")
        else { continue }
        checkKana(reading)
        items.append(ChoiceItem(text: text.value, reading: reading.value, value: value.value))
      }
      return VariableDefinition(name: entry.key, kind: .choice(items), range: member.value.range)
    case "eraYear":
      guard let fields = reader.object(member.value, "the eras of \(what)", PackVocabulary.keys(of: .eraYear)) else {
        return nil
      }
      let eras = reader.strings(fields["eras"], "eras") ?? []
      for era in eras where Era.named(era.value) == nil {
        let names = Era.all.map(\.name)
        reader.error(
          "\"\(era.value)\" is not an era Biki knows; use one of: \(names.joined(separator: ", "))", "invalid-value",
          at: era.range)
      }
      return VariableDefinition(
        name: entry.key, kind: .eraYear(eras: eras, through: reader.integer(fields["through"], "through")),
        range: member.value.range)
    case "counters":
      let counters = reader.strings(member, "the counters of \(what)") ?? []
      return counters.isEmpty
        ? nil : VariableDefinition(name: entry.key, kind: .counters(counters), range: member.value.range)
    case "objects":
      let things = reader.strings(member, "the objects of \(what)") ?? []
      return things.isEmpty
        ? nil : VariableDefinition(name: entry.key, kind: .things(things), range: member.value.range)
    default:
      guard let expression = reader.string(member, "the expression of \(what)") else { return nil }
      return VariableDefinition(name: entry.key, kind: .derive(expression), range: member.value.range)
    }
  }

  mutating func decodeParameter(_ entry: JSONMember) -> ParameterDefinition? {
    guard
      let fields = reader.object(entry.value, "parameter \"\(entry.key)\"", PackVocabulary.keys(of: .parameter)),
      let target = reader.string(fields["target"], "the parameter target"),
      let min = reader.integer(fields["min"], "min"), let max = reader.integer(fields["max"], "max")
    else { return nil }
    if max.value < min.value {
      reader.error(
        "parameter \"\(Excerpt.of(entry.key))\" has min \(min.value) above max \(max.value)", "range-reversed",
        at: entry.value.range)
      return nil
    }
    return ParameterDefinition(
      name: entry.key, target: target, minimum: min.value, maximum: max.value,
      description: reader.string(fields["description"], "the description", nonEmpty: false)?.value ?? "",
      range: entry.keyRange)
  }

  mutating func decodePart(_ node: JSONNode) -> PartDefinition? {
    let kinds = PackVocabulary.partKinds
    guard let fields = reader.object(node, "a question part", PackVocabulary.keys(of: .part)) else {
      return nil
    }
    let given = kinds.filter { fields[$0] != nil }
    guard given.count == 1, let kind = given.first else {
      reader.error(
        "a question part must have exactly one of: \(kinds.joined(separator: ", "))"
          + (given.isEmpty ? "" : " (it has \(given.joined(separator: ", ")))"),
        given.isEmpty ? "missing-key" : "conflicting-keys", at: node.range)
      return nil
    }
    for extra in ["reading", "counter", "style", "width", "decimals", "denominator"] where fields[extra] != nil {
      let allowed = (extra == "reading" && kind == "text") || (extra != "reading" && kind == "number")
      if !allowed {
        reader.error("\"\(extra)\" does not apply to a \(kind) part", "unknown-key", at: fields[extra]!.keyRange)
      }
    }
    guard let source = reader.string(fields[kind], "the \(kind) of a part") else { return nil }
    switch kind {
    case "text":
      guard let reading = reader.string(fields["reading"], "the reading of a text part") else {
        if fields["reading"] == nil {
          reader.error("a text part needs a \"reading\" in kana", "missing-key", at: node.range)
        }
        return nil
      }
      checkKana(reading)
      return PartDefinition(kind: .text(source.value, reading: reading.value), range: node.range)
    case "number":
      let styles = Dictionary(uniqueKeysWithValues: PackVocabulary.numberStyles.map { ($0, $0) })
      let style = reader.oneOf(fields["style"], "the number style", styles) ?? "grouped"
      let counter = reader.string(fields["counter"], "the counter")
      var width: Located<Int64>?
      if let member = fields["width"] {
        width = reader.integer(member, "the width")
        if style != "digits" {
          reader.error("\"width\" applies to a number with \"style\": \"digits\"", "invalid-value", at: member.keyRange)
        } else if let given = width, !(1...18).contains(given.value) {
          reader.error("the width must be 1 to 18 digits, not \(given.value)", "invalid-value", at: given.range)
          width = nil
        }
      }
      if style == "digits", let counter {
        reader.error(
          "a number read digit by digit takes no counter; put \"\(Excerpt.of(counter.value))\" in a text part after it",
          "invalid-value", at: counter.range)
      }
      let (decimals, denominator) = decodeShape(fields, style: style, of: "a number")
      return PartDefinition(
        kind: .number(source, counter: style == "digits" ? nil : counter, style: style), range: node.range,
        width: width,
        decimals: decimals, denominator: denominator)
    case "money": return PartDefinition(kind: .money(source), range: node.range)
    case "choice": return PartDefinition(kind: .choice(source), range: node.range)
    case "clock": return PartDefinition(kind: .clock(source), range: node.range)
    default: return PartDefinition(kind: .eraYear(source), range: node.range)
    }
  }

  /// `decimals` and `denominator`, of a number part or an answer: at most one of them, each with
  /// a style that writes it (a fraction alone may be "slash"; neither is read digit by digit).
  private mutating func decodeShape(_ fields: [String: JSONMember], style: String?, of what: String) -> (
    Located<Int64>?, Located<String>?
  ) {
    var decimals = fields["decimals"].flatMap { reader.integer($0, "the decimals") }
    var denominator = fields["denominator"].flatMap { reader.string($0, "the denominator") }
    if let given = decimals, !(1...6).contains(given.value) {
      reader.error(
        "decimals must be 1 to 6 digits after the point, not \(given.value)", "invalid-value", at: given.range)
      decimals = nil
    }
    if decimals != nil, let given = denominator {
      reader.error(
        "\(what) is a decimal or a fraction, not both: drop \"decimals\" or \"denominator\"", "conflicting-keys",
        at: given.range)
      denominator = nil
    }
    if let style, let member = fields["style"] {
      let fits: Bool
      switch style {
      case "slash": fits = denominator != nil
      case "digits", "kanjiDigits", "clock": fits = decimals == nil && denominator == nil
      default: fits = true
      }
      if !fits {
        let reason =
          style == "slash"
          ? "\"style\": \"slash\" writes a fraction (1/3): give \(what) a \"denominator\""
          : "\"style\": \"\(style)\" writes a whole number: it takes no \"decimals\" or \"denominator\""
        reader.error(reason, "invalid-value", at: member.value.range)
        denominator = style == "slash" ? denominator : nil
        decimals = nil
      }
    }
    return (decimals, denominator)
  }

  mutating func decodeAnswer(_ node: JSONNode) -> AnswerDefinition {
    var answer = AnswerDefinition(range: node.range)
    guard let fields = reader.object(node, "the answer", PackVocabulary.keys(of: .answer)) else {
      return answer
    }
    answer.value = reader.string(fields["value"], "the answer value") ?? answer.value
    answer.prefix = reader.string(fields["prefix"], "the answer prefix", nonEmpty: false)?.value ?? ""
    answer.postfix = reader.string(fields["postfix"], "the answer postfix", nonEmpty: false)?.value ?? ""
    answer.accept = reader.strings(fields["accept"], "accept", nonEmpty: false)?.map(\.value) ?? []
    answer.style = reader.oneOf(
      fields["style"], "the answer style",
      Dictionary(uniqueKeysWithValues: PackVocabulary.answerStyles.map { ($0, $0) }))
    (answer.decimals, answer.denominator) = decodeShape(fields, style: answer.style, of: "an answer")
    return answer
  }
}
