import BikiCore
import BikiJSON
import BikiJapanese

/// The compiler of a decoded pack: turns each topic definition into a `TopicProgram`, resolving
/// what it names (counters, things, variables) and checking what it means (ranges, references,
/// expressions, the shape of its answer) as it goes, then proves a sample of each clean topic's
/// readings (`TopicCompiler+Readings.swift`). A topic with an error is reported through `reader`
/// and left out; the others are served.
struct TopicCompiler {
  let pack: PackDefinition
  var reader: NodeReader
  /// The pack's own counters first (by id and symbol), then the built-in ones.
  let catalog: CounterCatalog
  let packCounters: [Counter]
  /// The pack's counters by id and by symbol, the first declared for each name.
  let packCountersByName: [String: Counter]
  /// The pack's things by name (names are unique: the decoder drops a repeat).
  let thingsByName: [String: ThingDefinition]
  /// Counters already resolved, by the name used: thousands of things may share one.
  var resolvedCounters: [String: Counter] = [:]
  /// Each thing met so far with its counters resolved, or nil where one is unknown or named
  /// twice: resolved once, so a fault is reported once however many topics count the thing.
  var resolvedThings: [String: TopicProgram.Thing?] = [:]
  /// Ids and symbols of this pack's counters whose definitions have errors.
  let brokenCounterNames: Set<String>
  let check: ReadingCheck
  /// Reads the text of parts and choices, to hold their declared readings to the host's.
  let phraseReader: PhraseReader
  /// Questions generated to prove readings, and how many the checked topics have in all.
  private(set) var coverage = ReadingCoverage()

  /// The last Gregorian year an open era's `through` may name.
  static let latestThrough: Int64 = 9999

  /// Errors that make the whole pack unusable rather than one topic.
  static let packWideRules: Set<String> = ["json-syntax", "invalid-utf8", "format-version"]

  init(pack: PackDefinition, catalog: CounterCatalog, reader: NodeReader, check: ReadingCheck) {
    self.pack = pack
    self.check = check
    self.reader = reader
    self.catalog = catalog
    var counters: [Counter] = []
    var diagnostics = reader
    var seen = Set<String>()
    var broken = Set<String>()
    for definition in pack.counters {
      // A counter with errors is reported where it is defined; topics that use it are not served.
      guard !definition.hasDecodingErrors, !definition.id.value.isEmpty, !definition.symbols.isEmpty,
        !definition.reading.value.isEmpty
      else {
        broken.insert(definition.id.value)
        broken.formUnion(definition.symbols.map(\.value))
        continue
      }
      guard seen.insert(definition.id.value).inserted else {
        diagnostics.error(
          "counter id \"\(Excerpt.of(definition.id.value))\" is defined twice in this pack", "duplicate-counter-id",
          at: definition.id.range)
        continue
      }
      let counter = Counter(
        id: definition.id.value, symbols: definition.symbols.map(\.value), reading: definition.reading.value,
        kind: definition.kind, wholeForms: definition.whole, finalForms: definition.final, zeroForms: definition.zero,
        validValues: definition.validValues, note: definition.note)
      counters.append(counter)
      // Topics that count with a counter teaching a wrong reading are not served.
      if !Self.checkAgreesWithBiki(counter, catalog: catalog, at: definition.id.range, reader: &diagnostics) {
        broken.insert(definition.id.value)
        broken.formUnion(definition.symbols.map(\.value))
      }
    }
    self.reader = diagnostics
    self.packCounters = counters
    var byName: [String: Counter] = [:]
    for counter in counters {
      for name in [counter.id] + counter.symbols where byName[name] == nil { byName[name] = counter }
    }
    self.packCountersByName = byName
    self.thingsByName = Dictionary(pack.things.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
    self.brokenCounterNames = broken
    // A pack without counters of its own reads with the catalog it was given: making a catalog
    // (its symbols sorted and indexed) for each pack was a tenth of a start's loading.
    self.phraseReader = PhraseReader(catalog: counters.isEmpty ? catalog : CounterCatalog(counters + catalog.counters))
  }

  /// Counts whose readings show a counter's sound changes: every count to 120 (いっぽん, ろっぽん,
  /// じゅっぽん), the hundreds and thousands (ひゃっぽん, さんびゃっぽん, はっせんぼん), and beyond.
  static let agreementCounts: [UInt64] =
    Array(0...120) + (1...9).map { $0 * 100 } + (1...10).map { $0 * 1_000 } + [
      100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000_000,
    ]

  /// A pack's counter written with a symbol Biki knows (本) must read each count as Biki does:
  /// declaring 本 with 8 read いっぽん would teach a reading Biki calls wrong, which no plugin may
  /// write either. Each reading the pack gives must be one Biki gives for that count with some
  /// counter of that symbol (日 is both days of the month and a count of days).
  private static func checkAgreesWithBiki(
    _ counter: Counter, catalog: CounterCatalog, at range: SourceRange, reader: inout NodeReader
  ) -> Bool {
    for symbol in counter.symbols {
      let known = catalog.counters(symbol: symbol)
      guard !known.isEmpty else { continue }
      let counts = Set(agreementCounts + Array(counter.wholeForms.keys) + Array(counter.finalForms.keys)).sorted()
      for count in counts {
        guard let taught = try? JapaneseNumber.reading(of: UInt128(count), with: counter) else { continue }
        let bikis = known.compactMap { try? JapaneseNumber.reading(of: UInt128(count), with: $0) }
        // A count none of Biki's counters of that symbol reads (past a counter's valid range)
        // has nothing to agree with.
        guard !bikis.isEmpty else { continue }
        for reading in taught.all(limit: 16) where !bikis.contains(where: { $0.accepts(reading) }) {
          let said = bikis.flatMap { $0.all(limit: 4) }
          reader.error(
            "counter \"\(Excerpt.of(counter.id))\" reads \(count)\(Excerpt.of(symbol)) \(reading), but Biki reads it \(said.joined(separator: " or ")); a counter written \(Excerpt.of(symbol)) must read every count as Biki does",
            "reading-mismatch", at: range)
          return false
        }
      }
    }
    return true
  }

  mutating func compileTopics(isCancelled: () -> Bool = { false }) -> [CompiledTopic] {
    resolveThings()
    var clean: [(definition: TopicDefinition, compiled: CompiledTopic, space: UInt64)] = []
    var ids: [String: SourceRange] = [:]
    for topic in pack.topics {
      if isCancelled() { return [] }
      let errorsBefore = errorCount
      if let first = ids[topic.id.value] {
        reader.error(
          "topic id \"\(Excerpt.of(topic.id.value))\" is already used at line \(first.start.line + 1) of this pack",
          "duplicate-topic-id",
          at: topic.id.range)
      } else if !topic.id.value.isEmpty {
        ids[topic.id.value] = topic.id.range
      }
      guard let (result, space) = compile(topic), errorCount == errorsBefore, !topic.hasDecodingErrors else { continue }
      clean.append((topic, result, space))
    }
    let counts = Self.shareOut(check.fileLimit, perTopic: check.limit, spaces: clean.map(\.space))
    var compiled: [CompiledTopic] = []
    for (entry, count) in zip(clean, counts) {
      coverage.add(checked: count, of: entry.space)
      if checkReadings(
        entry.compiled, count: count, space: entry.space, definition: entry.definition, isCancelled: isCancelled)
      {
        compiled.append(entry.compiled)
      }
    }
    return compiled
  }

  private var errorCount: Int { reader.errorCount }

  // MARK: One topic

  /// The topic and how many questions it has, unless it has errors; its readings are
  /// checked afterwards, when the file's allowance can be shared out.
  private mutating func compile(_ definition: TopicDefinition) -> (CompiledTopic, UInt64)? {
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
    let orderedDerived = orderDerived(derived, known: known, kinds: kinds)
    var derivedExpressions: [SlotExpression] = []
    // A derived value whose inputs failed to define has no slot, and neither do its dependents.
    for (variable, expression) in orderedDerived {
      guard let compiled = SlotExpression(expression, slots: slots) else { continue }
      slots[variable.name] = sources.count + derivedExpressions.count
      derivedExpressions.append(compiled)
    }

    let parts = definition.parts.compactMap { part(for: $0, slots: slots, kinds: kinds, known: known) }
    if definition.parts.isEmpty { return nil }
    let countsAThing = definition.parts.contains { part in
      guard case .number(_, let counter?, _) = part.kind, case .things = kinds[counter.value] else { return false }
      return true
    }
    if definition.skills.contains(.counter) && !countsAThing {
      reader.error(
        "the counter skill shows a thing to count: give a number part an \"objects\" variable as its counter",
        "counter-skill-without-objects",
        at: definition.id.range)
    }
    let answer = expression(definition.answer.value, known: known, kinds: kinds).flatMap {
      SlotExpression($0, slots: slots)
    }
    var answerShape = TopicProgram.AnswerShape.whole
    if let decimals = definition.answer.decimals {
      answerShape = .decimal(places: Int(decimals.value))
    } else if let denominator = definition.answer.denominator {
      if let below = expression(denominator, known: known, kinds: kinds).flatMap({ SlotExpression($0, slots: slots) }) {
        answerShape = .fraction(denominator: below, slashed: definition.answer.style == "slash")
      }
    } else if definition.answer.style == "clock" {
      answerShape = .clock
    }
    let parameterTargets = parameters(definition, slots: slots, sources: sources)
    guard errorCount == errorsBefore, let answer, parts.count == definition.parts.count else { return nil }

    guard let space = TopicProgram.spaceSize(of: sources), space <= TopicProgram.maximumSpace else {
      reader.error(
        "topic \"\(Excerpt.of(definition.id.value))\" has more possible questions than can be counted; narrow its variables",
        "space-too-large", at: definition.id.range)
      return nil
    }
    var affixes = definition.answer.accept
    for part in parts {
      switch part {
      case .number(_, .fixed(let counter)?, _) where counter.symbols.contains(definition.answer.postfix):
        affixes += counter.symbols
      case .money:
        affixes.append("円")  // an amount: the answer checker accepts every way of writing yen
      default: break  // a counter variable's symbols are added per question
      }
    }
    let program = TopicProgram(
      sources: sources, derived: derivedExpressions, parts: parts, answer: answer,
      answerPrefix: definition.answer.prefix, answerPostfix: definition.answer.postfix,
      acceptedAffixes: uniqueInOrder(
        affixes.filter { $0 != definition.answer.prefix && $0 != definition.answer.postfix }),
      answerIsGrouped: (definition.answer.style ?? (definition.answer.postfix == "年" ? "plain" : "grouped"))
        == "grouped",
      answerShape: answerShape)
    let topic = Topic(
      id: "\(pack.id.value).\(definition.id.value)", title: definition.title, description: definition.description ?? "",
      category: definition.category, skills: definition.skills,
      parameters: parameterTargets.map {
        Topic.Parameter(
          name: $0.name, description: $0.description, defaultValue: $0.defaultValue, minimum: $0.minimum,
          maximum: $0.maximum)
      })
    if space < PackCompiler.typicalQuestionLimit {
      reader.warning(
        "topic \"\(definition.id.value)\" has only \(space) possible question\(space == 1 ? "" : "s"), fewer than a typical quiz of \(PackCompiler.typicalQuestionLimit) asks",
        "few-questions", at: definition.id.range)
    }
    let compiled = CompiledTopic(
      topic: topic, program: program,
      parameterTargets: Dictionary(uniqueKeysWithValues: parameterTargets.map { ($0.name, ($0.slot, $0.bound)) }),
      favour: definition.favour?.value)
    if let favour = definition.favour {
      guard space <= FavouredLayout.maximumSpace else {
        reader.error(
          "a topic that favours \(favour.value.rawValue) may have at most \(FavouredLayout.maximumSpace) possible questions, and this one has \(space); narrow its variables or drop \"favour\"",
          "favour-space-too-large", at: favour.range)
        return nil
      }
      // Laying the questions out names every question's forms: lint does it to say when
      // favouring changes nothing; loading leaves it to the first generator.
      if case .thorough = check, let layout = FavouredLayout(program, space: space, favour: favour.value) {
        if layout.favouredCount == 0 || layout.favouredCount == space {
          reader.warning(
            "\(layout.favouredCount == 0 ? "none" : "every one") of this topic's \(space) questions exercises a sound change, so favouring them changes nothing",
            "favour-without-effect", at: favour.range)
        }
        compiled.defaultLayout.withLock { $0 = layout }
      }
    }
    return (compiled, space)
  }

  private mutating func source(for variable: VariableDefinition) -> TopicProgram.Source? {
    switch variable.kind {
    case .range(let min, let max, let step):
      if min.value > max.value {
        reader.error(
          "the range of \"\(variable.name)\" is reversed: min \(min.value) is above max \(max.value)", "range-reversed",
          at: variable.range)
        return nil
      }
      if step.value <= 0 {
        reader.error(
          "the step of \"\(variable.name)\" must be positive, not \(step.value)", "range-step", at: step.range)
        return nil
      }
      // The distance between any two Int64 values fits a UInt64.
      let distance = UInt64(bitPattern: max.value &- min.value)
      let excess = distance % UInt64(step.value)
      if excess != 0 {
        let below = max.value &- Int64(excess)
        let (above, overflow) = below.addingReportingOverflow(step.value)
        reader.error(
          "step \(step.value) does not divide the range \(min.value)–\(max.value) of \"\(variable.name)\"; end it at \(below)\(overflow ? "" : " or \(above)")",
          "range-step", at: step.range)
        return nil
      }
      return .range(min: min.value, max: max.value, step: step.value)
    case .choice(let items):
      if items.isEmpty { return nil }
      let readings = items.map { checkReadingAgrees(text: $0.text, reading: $0.reading, at: variable.range) }
      return .choice(items, readings: readings)
    case .eraYear(let eras, let through):
      var pairs: [(era: Era, year: Int)] = []
      for name in eras {
        guard let era = Era.named(name.value) else { continue }
        let last: Int
        if let ending = era.lastYear {
          last = ending
        } else if let through {
          guard through.value >= Int64(era.start.year) else {
            reader.error(
              "\"through\" \(through.value) is before \(era.name) began in \(era.start.year)", "range-reversed",
              at: through.range)
            return nil
          }
          guard through.value <= TopicCompiler.latestThrough else {
            reader.error(
              "\"through\" \(through.value) is past \(TopicCompiler.latestThrough); name a Gregorian year up to \(TopicCompiler.latestThrough)",
              "invalid-value", at: through.range)
            return nil
          }
          last = Int(through.value) - era.start.year + 1
        } else {
          reader.error(
            "\(era.name) has not ended: say up to which Gregorian year with \"through\"", "missing-key", at: name.range)
          return nil
        }
        pairs += (1...last).map { (era, $0) }
      }
      return pairs.isEmpty ? nil : .eraYear(pairs)
    case .counters(let names):
      let counters = names.compactMap { resolveCounter($0) }
      return counters.count == names.count ? .counters(counters) : nil
    case .things(let names):
      var things: [TopicProgram.Thing] = []
      for name in names {
        guard let definition = thingsByName[name.value] else {
          let hint = reader.hint(name.value, among: pack.things.lazy.map(\.name.value))
          reader.error(
            "\"\(Excerpt.of(name.value))\" is not one of this pack's \"objects\"\(hint)", "unknown-object",
            at: name.range, fix: hint.fix)
          continue
        }
        if let thing = resolveThing(definition) { things.append(thing) }
      }
      return things.count == names.count ? .things(things) : nil
    case .derive:
      return nil
    }
  }

  /// Derived variables in an order where each comes after those it reads (Kahn's algorithm:
  /// linear in the variables and their references); reports syntax errors, unknown names and
  /// cycles.
  private mutating func orderDerived(
    _ derived: [VariableDefinition], known: Set<String>, kinds: [String: VariableDefinition.Kind]
  ) -> [(VariableDefinition, Expression)] {
    var parsed: [(VariableDefinition, Expression)] = []
    for variable in derived {
      guard case .derive(let text) = variable.kind, let expression = expression(text, known: known, kinds: kinds) else {
        continue
      }
      parsed.append((variable, expression))
    }
    var position: [String: Int] = [:]
    for (index, entry) in parsed.enumerated() { position[entry.0.name] = index }
    var waitingOn = [Int](repeating: 0, count: parsed.count)
    var dependents = [[Int]](repeating: [], count: parsed.count)
    for (index, entry) in parsed.enumerated() {
      for name in Set(entry.1.variables) {
        guard let input = position[name] else { continue }
        waitingOn[index] += 1
        dependents[input].append(index)
      }
    }
    var ready = parsed.indices.filter { waitingOn[$0] == 0 }
    var ordered: [(VariableDefinition, Expression)] = []
    var next = 0
    while next < ready.count {
      let index = ready[next]
      next += 1
      ordered.append(parsed[index])
      for dependent in dependents[index] {
        waitingOn[dependent] -= 1
        if waitingOn[dependent] == 0 { ready.append(dependent) }
      }
    }
    let cyclic = parsed.indices.filter { waitingOn[$0] > 0 }.map { parsed[$0].0 }
    if !cyclic.isEmpty {
      let names =
        cyclic.prefix(5).map { "\"\(Excerpt.of($0.name))\"" }.joined(separator: ", ") + (cyclic.count > 5 ? ", …" : "")
      for variable in cyclic {
        reader.error(
          "derived variable \"\(Excerpt.of(variable.name))\" depends on itself through \(names) (\(cyclic.count) in the cycle)",
          "derive-cycle", at: variable.range)
      }
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
      reader.error("invalid expression \"\(Excerpt.of(text.value))\": \(error)", "expression-syntax", at: range)
      return nil
    }
    // Each unknown name once, however often the expression repeats it.
    var reported = Set<String>()
    for name in parsed.variables where !known.contains(name) && reported.insert(name).inserted {
      let hint = reader.hint(name, among: known)
      reader.error(
        "\"\(Excerpt.of(name))\" is not a variable of this topic\(hint)", "undefined-variable", at: text.range,
        fix: hint.fix)
    }
    // A `counters` or `objects` variable picks a counter or a thing: as a number it would be
    // the position in its list, a "0" with nothing to count.
    var misused = Set<String>()
    for name in parsed.numberVariables where misused.insert(name).inserted {
      guard let kind = kinds[name] else { continue }
      switch kind {
      case .counters, .things:
        reader.error(
          "\"\(Excerpt.of(name))\" is \(kind.name == "objects" ? "an objects variable: it names a thing to count" : "a counters variable: it names a counter"), not a number; give it to a number part as its \"counter\" and count with a range variable",
          "wrong-variable-kind", at: text.range)
      default: continue
      }
    }
    for (function, name) in parsed.calls {
      guard let kind = kinds[name] else { continue }
      if case .eraYear = kind { continue }
      reader.error(
        "\(function.rawValue)() takes the name of an eraYear variable, and \"\(Excerpt.of(name))\" is a \(kind.name) variable",
        "wrong-variable-kind", at: text.range)
    }
    return parsed
  }

  private mutating func part(
    for definition: PartDefinition, slots: [String: Int], kinds: [String: VariableDefinition.Kind], known: Set<String>
  ) -> TopicProgram.Part? {
    switch definition.kind {
    case .text(let text, let reading):
      return .text(text, checkReadingAgrees(text: text, reading: reading, at: definition.range))
    case .number(let source, let counterName, let style):
      var counter: TopicProgram.CounterSource?
      if let counterName {
        switch kinds[counterName.value] {
        case .counters, .things:
          guard let slot = slots[counterName.value] else { return nil }
          counter = .variable(slot: slot)
        default:
          guard let fixed = resolveCounter(counterName) else { return nil }
          counter = .fixed(fixed)
        }
      }
      guard let parsed = expression(source, known: known, kinds: kinds),
        let value = SlotExpression(parsed, slots: slots)
      else {
        return nil
      }
      var numberStyle = TopicProgram.NumberStyle(style, width: definition.width.map { Int($0.value) })
      if let decimals = definition.decimals {
        numberStyle = .decimal(places: Int(decimals.value), grouped: style != "plain")
      } else if let denominator = definition.denominator {
        guard let parsed = expression(denominator, known: known, kinds: kinds),
          let below = SlotExpression(parsed, slots: slots)
        else { return nil }
        numberStyle = .fraction(denominator: below, slashed: style == "slash")
      }
      return .number(value, counter: counter, style: numberStyle)
    case .clock(let source):
      guard let parsed = expression(source, known: known, kinds: kinds),
        let value = SlotExpression(parsed, slots: slots)
      else {
        return nil
      }
      return .clock(value)
    case .money(let source):
      guard let parsed = expression(source, known: known, kinds: kinds),
        let value = SlotExpression(parsed, slots: slots)
      else {
        return nil
      }
      return .money(value)
    case .choice(let name):
      guard let slot = variableSlot(name, slots: slots, kinds: kinds, known: known, expected: "choice") else {
        return nil
      }
      return .choice(slot: slot)
    case .eraYear(let name):
      guard let slot = variableSlot(name, slots: slots, kinds: kinds, known: known, expected: "eraYear") else {
        return nil
      }
      return .eraYear(slot: slot)
    }
  }

  private mutating func variableSlot(
    _ name: Located<String>, slots: [String: Int], kinds: [String: VariableDefinition.Kind], known: Set<String>,
    expected: String
  ) -> Int? {
    guard let kind = kinds[name.value] else {
      let hint = reader.hint(name.value, among: known)
      reader.error(
        "\"\(Excerpt.of(name.value))\" is not a variable of this topic\(hint)", "undefined-variable", at: name.range,
        fix: hint.fix)
      return nil
    }
    let matches: Bool
    switch kind {
    case .choice: matches = expected == "choice"
    case .eraYear: matches = expected == "eraYear"
    default: matches = false
    }
    guard matches else {
      reader.error(
        "a \(expected) part needs a \(expected) variable, and \"\(Excerpt.of(name.value))\" is not one",
        "wrong-variable-kind", at: name.range)
      return nil
    }
    return slots[name.value]
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
      guard pieces.count == 2, let bound = CompiledTopic.Bound(rawValue: pieces[1]), let slot = slots[pieces[0]],
        slot < sources.count,
        case .range(let min, let max, let step) = sources[slot]
      else {
        reader.error(
          "parameter \"\(Excerpt.of(parameter.name))\" must target a range variable's bound, as \"n.min\", \"n.max\" or \"n.step\"; \"\(Excerpt.of(parameter.target.value))\" is not one",
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
}

private func uniqueInOrder(_ items: [String]) -> [String] {
  var seen = Set<String>()
  return items.filter { seen.insert($0).inserted }
}
