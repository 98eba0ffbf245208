import BikiCore
import BikiJSON
import BikiJapanese

/// How a pack's names for counters and things resolve: a pack's own counter by id or symbol,
/// else Biki's; each thing with the counters it takes.
extension TopicCompiler {
  /// Resolves every thing the pack declares, so one whose counter is unknown is an error before
  /// any topic counts it.
  mutating func resolveThings() {
    for definition in pack.things {
      _ = resolveThing(definition)
    }
  }

  /// A thing with its counters, or nil (reported) when one of them is unknown or two are one.
  mutating func resolveThing(_ definition: ThingDefinition) -> TopicProgram.Thing? {
    if let resolved = resolvedThings[definition.name.value] { return resolved }
    var thing: TopicProgram.Thing?
    // A thing with decoding errors is reported where it is defined.
    if !definition.hasDecodingErrors {
      let counters = definition.counters.compactMap { resolveCounter($0) }
      if counters.count == definition.counters.count, !namesACounterTwice(definition, counters) {
        thing = TopicProgram.Thing(
          name: definition.name.value, reading: definition.reading, meaning: definition.meaning, counters: counters,
          usualCount: definition.usualCount)
      }
    }
    resolvedThings[definition.name.value] = .some(thing)
    return thing
  }

  /// Whether two of a thing's counters are one counter by two names (本 and hon), and says so.
  mutating func namesACounterTwice(_ thing: ThingDefinition, _ counters: [Counter]) -> Bool {
    var first: [String: String] = [:]
    var repeats: [(name: Located<String>, earlier: String)] = []
    for (counter, name) in zip(counters, thing.counters) {
      if let earlier = first[counter.id] {
        repeats.append((name, earlier))
      } else {
        first[counter.id] = name.value
      }
    }
    for (name, earlier) in repeats {
      reader.error(
        "\"\(Excerpt.of(name.value))\" and \"\(Excerpt.of(earlier))\" are the same counter; list each counter \"\(Excerpt.of(thing.name.value))\" takes once",
        "duplicate-value", at: name.range)
    }
    return !repeats.isEmpty
  }

  /// A pack counter by id or symbol, else a built-in one; 日 alone is ambiguous.
  mutating func resolveCounter(_ name: Located<String>) -> Counter? {
    if brokenCounterNames.contains(name.value) { return nil }
    if let own = packCountersByName[name.value] { return own }
    if let known = resolvedCounters[name.value] { return known }
    if let byID = catalog.counter(id: name.value) {
      resolvedCounters[name.value] = byID
      return byID
    }
    let bySymbol = catalog.counters(symbol: name.value)
    if bySymbol.count == 1 {
      resolvedCounters[name.value] = bySymbol[0]
      return bySymbol[0]
    }
    if bySymbol.count > 1 {
      reader.error(
        "counter \"\(Excerpt.of(name.value))\" is ambiguous; name it by id: \(bySymbol.map(\.id).joined(separator: " or "))",
        "ambiguous-counter",
        at: name.range)
      return nil
    }
    let names = packCounters.map(\.id) + catalog.counters.map(\.id) + catalog.symbolsLongestFirst
    let hint = reader.hint(name.value, among: names)
    reader.error(
      "unknown counter \"\(Excerpt.of(name.value))\"\(hint); declare it in the pack's \"counters\"", "unknown-counter",
      at: name.range, fix: hint.fix)
    return nil
  }
}
