import BikiCore
import BikiJSON
import BikiJapanese

/// Checks what a pack means — ranges, references, counters, expressions, readings — and
/// compiles each clean topic into a `TopicProgram`.
struct PackValidator {
  let pack: PackDefinition
  var reader: NodeReader
  /// The pack's own counters first (by id and symbol), then the built-in ones.
  let catalog: CounterCatalog
  let packCounters: [Counter]
  let check: ReadingCheck

  /// Errors that make the whole pack unusable rather than one topic.
  static let packWideRules: Set<String> = ["json-syntax", "invalid-utf8", "format-version"]

  init(pack: PackDefinition, catalog: CounterCatalog, reader: NodeReader, check: ReadingCheck) {
    self.pack = pack
    self.check = check
    self.reader = reader
    self.catalog = catalog
    var counters: [Counter] = []
    var validator = reader
    var seen = Set<String>()
    for definition in pack.counters where !definition.id.value.isEmpty && !definition.symbols.isEmpty && !definition.reading.value.isEmpty {
      guard seen.insert(definition.id.value).inserted else {
        validator.error("counter id \"\(definition.id.value)\" is defined twice in this pack", "duplicate-counter-id", at: definition.id.range)
        continue
      }
      counters.append(
        Counter(
          id: definition.id.value, symbols: definition.symbols.map(\.value), reading: definition.reading.value,
          kind: definition.kind, wholeForms: definition.whole, finalForms: definition.final, zeroForms: definition.zero,
          validValues: definition.validValues, note: definition.note))
    }
    self.reader = validator
    self.packCounters = counters
  }

  mutating func compileTopics() -> [CompiledTopic] {
    var compiled: [CompiledTopic] = []
    var ids: [String: SourceRange] = [:]
    for topic in pack.topics {
      let errorsBefore = errorCount
      if let first = ids[topic.id.value] {
        reader.error(
          "topic id \"\(topic.id.value)\" is already used at line \(first.start.line + 1) of this pack", "duplicate-topic-id",
          at: topic.id.range)
      } else if !topic.id.value.isEmpty {
        ids[topic.id.value] = topic.id.range
      }
      guard let result = compile(topic), errorCount == errorsBefore, !topic.hasDecodingErrors else { continue }
      compiled.append(result)
    }
    return compiled
  }

  private var errorCount: Int { reader.diagnostics.filter { $0.severity == .error }.count }

  // MARK: One topic

  private mutating func compile(_ definition: TopicDefinition) -> CompiledTopic? {
    let errorsBefore = errorCount
    var sources: [TopicProgram.Source] = []
    var slots: [String: Int] = [:]
    var kinds: [String: VariableDefinition.Kind] = [:]
    var derived: [VariableDefinition] = []
    for variable in definition.variables {
      kinds[variable.name] = variable.kind
      if case .derive = variable.kind {
        derived.append(variable)
      } else if let source = source(for: variable) {
        slots[variable.name] = sources.count
        sources.append(source)
      }
    }
    let known = definition.variableNames
    let orderedDerived = orderDerived(derived, known: known)
    var derivedExpressions: [SlotExpression] = []
    // A derived value whose inputs failed to define has no slot, and neither do its dependents.
    for (variable, expression) in orderedDerived where expression.variables.allSatisfy({ slots[$0] != nil }) {
      slots[variable.name] = sources.count + derivedExpressions.count
      derivedExpressions.append(SlotExpression(expression, slots: slots))
    }

    let parts = definition.parts.compactMap { part(for: $0, slots: slots, kinds: kinds, known: known) }
    if definition.parts.isEmpty { return nil }
    let answer = expression(definition.answer.value, known: known, kinds: kinds)
    let parameterTargets = parameters(definition, slots: slots, sources: sources)
    guard errorCount == errorsBefore, let answer, answer.variables.allSatisfy({ slots[$0] != nil }),
      parts.count == definition.parts.count
    else { return nil }

    let space = sources.reduce(UInt64(1)) { product, source in
      let (result, overflow) = product.multipliedReportingOverflow(by: source.count)
      return overflow ? .max : result
    }
    guard space < UInt64.max / 2 else {
      reader.error("topic \"\(definition.id.value)\" has more possible questions than can be counted; narrow its variables", "space-too-large", at: definition.id.range)
      return nil
    }
    var affixes = definition.answer.accept
    for part in parts {
      switch part {
      case .number(_, .fixed(let counter)?, _) where counter.symbols.contains(definition.answer.postfix):
        affixes += counter.symbols
      case .number(_, .variable(let slot)?, _):
        if case .counters(let counters) = sources[slot] { affixes += counters.flatMap(\.symbols) }
      case .money:
        affixes += ["¥", "￥", "円"]
      default: break
      }
    }
    let program = TopicProgram(
      sources: sources, derived: derivedExpressions, parts: parts, answer: SlotExpression(answer, slots: slots),
      answerPrefix: definition.answer.prefix, answerPostfix: definition.answer.postfix,
      acceptedAffixes: uniqueInOrder(affixes.filter { $0 != definition.answer.prefix && $0 != definition.answer.postfix }),
      answerIsGrouped: (definition.answer.style ?? (definition.answer.postfix == "年" ? "plain" : "grouped")) == "grouped")
    let topic = Topic(
      id: "\(pack.id.value).\(definition.id.value)", title: definition.title, description: definition.description ?? "",
      category: definition.category, skills: definition.skills,
      parameters: parameterTargets.map { Topic.Parameter(name: $0.name, description: $0.description, defaultValue: $0.defaultValue, minimum: $0.minimum, maximum: $0.maximum) })
    guard checkEveryValueReads(program, topic: topic, definition: definition) else { return nil }
    if space < PackCompiler.typicalQuestionLimit {
      reader.warning(
        "topic \"\(definition.id.value)\" has only \(space) possible question\(space == 1 ? "" : "s"), fewer than a typical quiz of \(PackCompiler.typicalQuestionLimit) asks",
        "few-questions", at: definition.id.range)
    }
    return CompiledTopic(
      topic: topic, program: program,
      parameterTargets: Dictionary(uniqueKeysWithValues: parameterTargets.map { ($0.name, ($0.slot, $0.bound)) }))
  }

  private mutating func source(for variable: VariableDefinition) -> TopicProgram.Source? {
    switch variable.kind {
    case .range(let min, let max, let step):
      if min.value > max.value {
        reader.error("the range of \"\(variable.name)\" is reversed: min \(min.value) is above max \(max.value)", "range-reversed", at: variable.range)
        return nil
      }
      if step.value <= 0 {
        reader.error("the step of \"\(variable.name)\" must be positive, not \(step.value)", "range-step", at: step.range)
        return nil
      }
      if (max.value - min.value) % step.value != 0 {
        let below = max.value - (max.value - min.value) % step.value
        reader.error(
          "step \(step.value) does not divide the range \(min.value)–\(max.value) of \"\(variable.name)\"; end it at \(below) or \(below + step.value)",
          "range-step", at: step.range)
        return nil
      }
      return .range(min: min.value, max: max.value, step: step.value)
    case .choice(let items):
      if items.isEmpty { return nil }
      return .choice(items)
    case .eraYear(let eras, let through):
      var pairs: [(era: Era, year: Int)] = []
      for name in eras {
        guard let era = Era.named(name.value) else { continue }
        let last: Int
        if let ending = era.lastYear {
          last = ending
        } else if let through {
          guard through.value >= Int64(era.start.year) else {
            reader.error("\"through\" \(through.value) is before \(era.name) began in \(era.start.year)", "range-reversed", at: through.range)
            return nil
          }
          last = Int(through.value) - era.start.year + 1
        } else {
          reader.error("\(era.name) has not ended: say up to which Gregorian year with \"through\"", "missing-key", at: name.range)
          return nil
        }
        pairs += (1...last).map { (era, $0) }
      }
      return pairs.isEmpty ? nil : .eraYear(pairs)
    case .counters(let names):
      let counters = names.compactMap { resolveCounter($0) }
      return counters.count == names.count ? .counters(counters) : nil
    case .derive:
      return nil
    }
  }

  /// Derived variables in an order where each comes after those it reads; reports syntax
  /// errors, unknown names and cycles.
  private mutating func orderDerived(_ derived: [VariableDefinition], known: Set<String>) -> [(VariableDefinition, Expression)] {
    var parsed: [(VariableDefinition, Expression)] = []
    for variable in derived {
      guard case .derive(let text) = variable.kind, let expression = expression(text, known: known, kinds: [:]) else { continue }
      parsed.append((variable, expression))
    }
    let derivedNames = Set(parsed.map(\.0.name))
    var ordered: [(VariableDefinition, Expression)] = []
    var done = Set<String>()
    var pending = parsed
    while !pending.isEmpty {
      let ready = pending.filter { Set($0.1.variables).intersection(derivedNames).isSubset(of: done) }
      if ready.isEmpty {
        for (variable, _) in pending {
          reader.error("derived variable \"\(variable.name)\" depends on itself through \(pending.map(\.0.name).joined(separator: ", "))", "derive-cycle", at: variable.range)
        }
        break
      }
      ordered += ready
      done.formUnion(ready.map(\.0.name))
      pending.removeAll { done.contains($0.0.name) }
    }
    return ordered
  }

  private mutating func expression(
    _ text: Located<String>, known: Set<String>, kinds: [String: VariableDefinition.Kind]
  ) -> Expression? {
    let parsed: Expression
    do {
      parsed = try Expression.parse(text.value)
    } catch {
      var range = text.range
      if case .syntax(_, let offset) = error {
        // Point inside the string: past the opening quote, at the offending character.
        range.start.column += 1 + offset
        range.start.utf16Column += 1 + offset
      }
      reader.error("invalid expression \"\(text.value)\": \(error)", "expression-syntax", at: range)
      return nil
    }
    for name in parsed.variables where !known.contains(name) {
      let hint = Suggestion.lintClause(name, among: Array(known))
      reader.error("\"\(name)\" is not a variable of this topic\(hint)", "undefined-variable", at: text.range)
    }
    return parsed
  }

  private mutating func part(
    for definition: PartDefinition, slots: [String: Int], kinds: [String: VariableDefinition.Kind], known: Set<String>
  ) -> TopicProgram.Part? {
    switch definition.kind {
    case .text(let text, let reading):
      return .text(text, Reading(reading))
    case .number(let source, let counterName, let style):
      var counter: TopicProgram.CounterSource?
      if let counterName {
        if case .counters = kinds[counterName.value] {
          guard let slot = slots[counterName.value] else { return nil }
          counter = .variable(slot: slot)
        } else {
          guard let fixed = resolveCounter(counterName) else { return nil }
          counter = .fixed(fixed)
        }
      }
      guard let parsed = expression(source, known: known, kinds: kinds), parsed.variables.allSatisfy({ slots[$0] != nil }) else {
        return nil
      }
      return .number(SlotExpression(parsed, slots: slots), counter: counter, style: TopicProgram.NumberStyle(rawValue: style) ?? .grouped)
    case .money(let source):
      guard let parsed = expression(source, known: known, kinds: kinds), parsed.variables.allSatisfy({ slots[$0] != nil }) else {
        return nil
      }
      return .money(SlotExpression(parsed, slots: slots))
    case .choice(let name):
      guard let slot = variableSlot(name, slots: slots, kinds: kinds, known: known, expected: "choice") else { return nil }
      return .choice(slot: slot)
    case .eraYear(let name):
      guard let slot = variableSlot(name, slots: slots, kinds: kinds, known: known, expected: "eraYear") else { return nil }
      return .eraYear(slot: slot)
    }
  }

  private mutating func variableSlot(
    _ name: Located<String>, slots: [String: Int], kinds: [String: VariableDefinition.Kind], known: Set<String>,
    expected: String
  ) -> Int? {
    guard let kind = kinds[name.value] else {
      let hint = Suggestion.lintClause(name.value, among: Array(known))
      reader.error("\"\(name.value)\" is not a variable of this topic\(hint)", "undefined-variable", at: name.range)
      return nil
    }
    let matches: Bool
    switch kind {
    case .choice: matches = expected == "choice"
    case .eraYear: matches = expected == "eraYear"
    default: matches = false
    }
    guard matches else {
      reader.error("a \(expected) part needs a \(expected) variable, and \"\(name.value)\" is not one", "wrong-variable-kind", at: name.range)
      return nil
    }
    return slots[name.value]
  }

  /// A pack counter by id or symbol, else a built-in one; 日 alone is ambiguous.
  private mutating func resolveCounter(_ name: Located<String>) -> Counter? {
    if let own = packCounters.first(where: { $0.id == name.value || $0.symbols.contains(name.value) }) { return own }
    if let byID = catalog.counter(id: name.value) { return byID }
    let bySymbol = catalog.counters(symbol: name.value)
    if bySymbol.count == 1 { return bySymbol[0] }
    if bySymbol.count > 1 {
      reader.error(
        "counter \"\(name.value)\" is ambiguous; name it by id: \(bySymbol.map(\.id).joined(separator: " or "))", "ambiguous-counter",
        at: name.range)
      return nil
    }
    let names = packCounters.map(\.id) + catalog.counters.map(\.id) + catalog.symbolsLongestFirst
    let hint = Suggestion.lintClause(name.value, among: names)
    reader.error("unknown counter \"\(name.value)\"\(hint); declare it in the pack's \"counters\"", "unknown-counter", at: name.range)
    return nil
  }

  private struct ResolvedParameter {
    var name: String, description: String, slot: Int, bound: CompiledTopic.Bound
    var defaultValue: Int64, minimum: Int64, maximum: Int64
  }

  private mutating func parameters(
    _ definition: TopicDefinition, slots: [String: Int], sources: [TopicProgram.Source]
  ) -> [ResolvedParameter] {
    definition.parameters.compactMap { parameter in
      let pieces = parameter.target.value.split(separator: ".").map(String.init)
      guard pieces.count == 2, let bound = CompiledTopic.Bound(rawValue: pieces[1]), let slot = slots[pieces[0]], slot < sources.count,
        case .range(let min, let max, let step) = sources[slot]
      else {
        reader.error(
          "parameter \"\(parameter.name)\" must target a range variable's bound, as \"n.min\", \"n.max\" or \"n.step\"; \"\(parameter.target.value)\" is not one",
          "parameter-target", at: parameter.target.range)
        return nil
      }
      let current = bound == .min ? min : bound == .max ? max : step
      guard (parameter.minimum...Swift.max(parameter.minimum, parameter.maximum)).contains(current) else {
        reader.error(
          "parameter \"\(parameter.name)\" allows \(parameter.minimum)–\(parameter.maximum), but its default (the pack's \(parameter.target.value)) is \(current)",
          "parameter-default", at: parameter.range)
        return nil
      }
      return ResolvedParameter(
        name: parameter.name, description: parameter.description, slot: slot, bound: bound, defaultValue: current,
        minimum: parameter.minimum, maximum: parameter.maximum)
    }
  }

  /// Generates every question (or an even sample of a large space) and reports the first
  /// value whose reading cannot be produced.
  private mutating func checkEveryValueReads(_ program: TopicProgram, topic: Topic, definition: TopicDefinition) -> Bool {
    let space = program.spaceSize
    let count = Swift.min(space, check.limit)
    for step in 0..<count {
      // Evenly spread, with the first and the last question always included.
      let index = count == 1 ? 0 : UInt64((Double(step) / Double(count - 1) * Double(space - 1)).rounded())
      do {
        _ = try program.question(topicID: topic.id, index: index)
      } catch {
        reader.error(
          "topic \"\(definition.id.value)\" cannot produce question \(index) of \(space): \(error.reason)", "unreadable-value",
          at: definition.parts.first?.range ?? definition.id.range)
        return false
      }
    }
    return true
  }
}

private func uniqueInOrder(_ items: [String]) -> [String] {
  var seen = Set<String>()
  return items.filter { seen.insert($0).inserted }
}
