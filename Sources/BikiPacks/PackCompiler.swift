import BikiCore
import BikiJSON
import BikiJapanese
import BikiSync

/// A topic from a pack that passed validation, ready to make generators. A class: the pack's
/// compilation, the packs' load, the registry and a reload's catalog all hold the same topic,
/// and with 100,000 topics a copy each (192 bytes) would cost tens of megabytes.
package final class CompiledTopic: Sendable {
  package let topic: Topic
  let program: TopicProgram
  /// Which range bound each parameter sets: (source slot, bound).
  let parameterTargets: [String: (slot: Int, bound: Bound)]
  /// Which questions the topic asks more often.
  let favour: TopicDefinition.Favour?
  /// The favoured layout with the default parameters: built on the first generator, not while
  /// packs load (every 1–100 counter topic would cost start-up time), then shared, as each
  /// request for a generator would otherwise build it again.
  let defaultLayout = Locked<FavouredLayout?>(nil)

  enum Bound: String, Sendable { case min, max, step }

  init(
    topic: Topic, program: TopicProgram, parameterTargets: [String: (slot: Int, bound: Bound)],
    favour: TopicDefinition.Favour? = nil
  ) {
    self.topic = topic
    self.program = program
    self.parameterTargets = parameterTargets
    self.favour = favour
  }

  /// A generator with the defaults, or with parameters overridden (each within its bounds, and
  /// the range still non-empty). An overridden step need not divide the range: min=1 max=500
  /// step=5 asks 1, 6, … 496, as a learner who types it expects.
  package func generator(parameters: [String: Int64] = [:]) throws(ParameterError) -> QuestionGenerator {
    var program = self.program
    var changed = false
    // No overrides (nearly every request): the program already holds the defaults.
    let values = parameters.isEmpty ? [:] : try topic.resolve(parameters)
    for (name, target) in parameterTargets where !values.isEmpty {
      guard let value = values[name], case .range(var min, var max, var step) = program.sources[target.slot] else {
        continue
      }
      let before = (min, max, step)
      switch target.bound {
      case .min: min = value
      case .max: max = value
      case .step: step = value
      }
      if before != (min, max, step) { changed = true }
      program.sources[target.slot] = .range(min: min, max: max, step: step)
    }
    for source in program.sources {
      guard case .range(let min, let max, let step) = source else { continue }
      if min > max { throw .inconsistent("min \(min) is above max \(max)") }
      if step <= 0 { throw .inconsistent("step must be positive, not \(step)") }
    }
    guard let spaceSize = program.spaceSize, spaceSize <= TopicProgram.maximumSpace else {
      throw .inconsistent(
        "these parameters give more possible questions than can be counted; narrow the range or raise the step")
    }
    let id = topic.id
    let frozen = program
    guard let favour else {
      return QuestionGenerator(
        QuestionsOnTheSpot(topic: topic, spaceSize: spaceSize, formsAt: { index in frozen.forms(index: index) }) {
          index throws(GenerationError) in try frozen.question(topicID: id, index: index)
        })
    }
    let built: FavouredLayout?
    if changed {
      built = FavouredLayout(program, space: spaceSize, favour: favour)
    } else {
      built = defaultLayout.withLock { cached in
        if cached == nil { cached = FavouredLayout(program, space: spaceSize, favour: favour) }
        return cached
      }
    }
    guard let layout = built else {
      throw .inconsistent(
        "a topic that favours \(favour.rawValue) may have at most \(FavouredLayout.maximumSpace) possible questions; these parameters give \(spaceSize)"
      )
    }
    let table = layout.programIndex
    return QuestionGenerator(
      QuestionsOnTheSpot(
        topic: topic, spaceSize: spaceSize, favouredCount: layout.favouredCount,
        formsAt: { index in frozen.forms(index: UInt64(table[Int(index)])) }
      ) { index throws(GenerationError) in try frozen.question(topicID: id, index: UInt64(table[Int(index)])) })
  }
}

/// What compiling one pack file produced: its definition (as far as it decoded), the topics
/// that are clean, and every diagnostic. Topics with errors are left out; the rest serve.
package struct PackCompilation: Sendable {
  package var pack: PackDefinition?
  package var topics: [CompiledTopic]
  package var diagnostics: [Diagnostic]
  /// How many questions were generated to prove their readings, of how many there are.
  package var readingCoverage: ReadingCoverage

  package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  package init(
    pack: PackDefinition?, topics: [CompiledTopic], diagnostics: [Diagnostic],
    readingCoverage: ReadingCoverage = ReadingCoverage()
  ) {
    self.pack = pack
    self.topics = topics
    self.diagnostics = diagnostics
    self.readingCoverage = readingCoverage
  }
}

/// How many of a topic's questions are generated to prove each one has a reading.
package enum ReadingCheck: Sendable, Equatable {
  /// Every question when there are at most 100,000, else 100,000 spread evenly, and at most
  /// 250,000 in one file, shared out over its topics: for lint.
  case thorough
  /// A few spread evenly, first and last included: for loading packs quickly.
  case sample(UInt64)

  /// How packs are checked as they load for serving: 64 questions a topic.
  package static let startUp = ReadingCheck.sample(64)

  /// Whether a pack that passed this check passes `other` too: every question checked by
  /// `other` is checked by this.
  package func covers(_ other: ReadingCheck) -> Bool {
    switch (self, other) {
    case (.thorough, _): true
    case (.sample, .thorough): false
    case (.sample(let count), .sample(let asked)): count >= asked
    }
  }

  var limit: UInt64 {
    switch self {
    case .thorough: 100_000
    case .sample(let count): max(count, 2)
    }
  }

  /// The most questions checked in one file; every topic gets at least its first and last.
  var fileLimit: UInt64 {
    switch self {
    case .thorough: 250_000
    case .sample: .max
    }
  }
}

package enum PackCompiler {
  /// Fewer possible questions than a typical question limit draws a warning.
  static let typicalQuestionLimit: UInt64 = 10

  /// Compiles a pack's bytes. `isCancelled` is asked between topics and during reading
  /// checks; once it says yes, the rest is skipped and the result is incomplete (for a check
  /// a newer edit superseded, whose result nobody will read).
  /// Builds the reading tables compiling and checking a pack needs, so a thread with nothing
  /// else to do can build them while another compiles.
  package static func prepareTables() { JapaneseNumber.prepareTables() }

  package static func compile(
    _ bytes: [UInt8], catalog: CounterCatalog = .standard, check: ReadingCheck = .thorough,
    isCancelled: @Sendable () -> Bool = { false }
  ) -> PackCompilation {
    let root: JSONNode
    do {
      root = try JSONParser.parse(bytes)
    } catch {
      let range = SourceRange(start: error.position, end: error.position)
      let rule = error.isEncodingError ? "invalid-utf8" : "json-syntax"
      return PackCompilation(
        pack: nil, topics: [], diagnostics: [Diagnostic(.error, error.message, rule: rule, at: range)])
    }
    var decoder = PackDecoder()
    let pack = decoder.decode(root)
    var compiler = TopicCompiler(pack: pack, catalog: catalog, reader: decoder.reader, check: check)
    let topics = compiler.compileTopics(isCancelled: isCancelled)
    let diagnostics = compiler.reader.diagnostics.sorted { ($0.range.start, $0.rule) < ($1.range.start, $1.rule) }
    let fatal = diagnostics.contains { $0.severity == .error && TopicCompiler.packWideRules.contains($0.rule) }
    return PackCompilation(
      pack: pack, topics: fatal ? [] : topics, diagnostics: diagnostics, readingCoverage: compiler.coverage)
  }
}
