import BikiCore
import BikiPacks
import BikiPlugins
import BikiSync

/// What every check of one library shares: how to load the plugin, and what was already made of
/// its output. Checks load the plugin each for itself; a question's raw bytes are turned into a
/// question once, however many checks meet the same bytes.
final class PluginCheckBench: Sendable {
  let path: String
  /// The installed topics' ids and where each comes from.
  let otherTopics: [String: String]
  let settings: PluginValidator
  /// A new load of the plugin: a fresh worker, or (`--in-process`) the one library loaded here.
  let load: @Sendable () -> (backend: PluginBackend, isFresh: Bool)
  let displayReadings = DisplayReadings()
  private let made = Locked([MadeKey: Result<Question, PluginError>]())
  private let counted = Locked((seen: Set<String>(), coverage: ReadingCoverage()))

  init(
    path: String, otherTopics: [String: String], settings: PluginValidator,
    load: @escaping @Sendable () -> (backend: PluginBackend, isFresh: Bool)
  ) {
    self.path = path
    self.otherTopics = otherTopics
    self.settings = settings
    self.load = load
  }

  private struct MadeKey: Hashable {
    var topic: String
    var seed: UInt64
    var bytes: [UInt8]
  }

  /// Outputs larger than this are judged again each time rather than kept: a question is a few
  /// hundred bytes, and a hostile plugin's megabyte a seed must not pile up.
  static let keptOutput = 4096

  func question(_ bytes: [UInt8], topic: String, seed: UInt64) -> Result<Question, PluginError> {
    let judge = { [path, displayReadings] () -> Result<Question, PluginError> in
      Result { () throws(PluginError) in
        try PluginTopics.question(bytes, topicID: topic, seed: seed, path: path, displayReadings: displayReadings)
      }
    }
    guard bytes.count <= Self.keptOutput else { return judge() }
    let key = MadeKey(topic: topic, seed: seed, bytes: bytes)
    if let known = made.withLock({ $0[key] }) { return known }
    let result = judge()
    made.withLock { $0[key] = result }
    return result
  }

  /// How many of each topic's questions were checked (once per topic and setting).
  func count(_ key: String, checked: UInt64, of space: UInt64) {
    counted.withLock {
      if $0.seen.insert(key).inserted { $0.coverage.add(checked: checked, of: space) }
    }
  }

  var coverage: ReadingCoverage { counted.withLock { $0.coverage } }
}

/// The plugin as one check sees it: a load of its own, the questions it asked, and whether the
/// plugin's worker crashed while it ran.
package final class PluginCheckSubject {
  let bench: PluginCheckBench
  let backend: PluginBackend
  /// Whether `backend` is a load of its own (a fresh worker), rather than the library shared
  /// by every check `--in-process`.
  let isFresh: Bool
  /// Whether a call in this check met a crash of the plugin's worker, and the signal it died
  /// of when the worker announced one.
  private(set) var crashed = false
  private(set) var crashSignal: Int32?

  init(bench: PluginCheckBench) {
    self.bench = bench
    (backend, isFresh) = bench.load()
  }

  var path: String { bench.path }
  var settings: PluginValidator { bench.settings }

  /// The plugin loaded and described, and how long that took; made on first use.
  lazy var loaded: (result: Result<PluginTopics, PluginError>, seconds: Double) = {
    let started = settings.now()
    let result = Result { () throws(PluginError) in try PluginTopics(backend: backend) }
    if case .failure(let error) = result { noteCrash(error) }
    return (result, settings.now() - started)
  }()

  var plugin: PluginTopics? { try? loaded.result.get() }

  /// Why a check that needs the plugin loaded cannot run.
  var notLoaded: String {
    guard case .failure(let error) = loaded.result else { return "" }
    return "the plugin did not load (\(error.kind.rule)); the load.* checks say why"
  }

  func noteCrash(_ error: PluginError) {
    guard error.kind == .crashed else { return }
    crashed = true
    crashSignal = crashSignal ?? error.signal
  }

  /// The plugin's own name for a topic: its id after "<plugin id>.".
  func local(_ topic: Topic, of plugin: PluginTopics) -> String {
    String(topic.id.dropFirst(plugin.identity.id.count + 1))
  }

  /// A topic's settings: the defaults (`[:]`), then each parameter at its minimum and maximum
  /// where those differ from its default.
  static func settings(of topic: Topic, bound: Bound? = nil) -> [[String: Int64]] {
    var found: [[String: Int64]] = bound == nil ? [[:]] : []
    for parameter in topic.parameters {
      let values: [Int64] =
        switch bound {
        case nil: [parameter.minimum, parameter.maximum]
        case .minimum?: [parameter.minimum]
        case .maximum?: [parameter.maximum]
        }
      for value in values where value != parameter.defaultValue && !found.contains([parameter.name: value]) {
        found.append([parameter.name: value])
      }
    }
    return found
  }

  enum Bound { case minimum, maximum }

  /// How many questions a topic has with these parameters, as a quiz would take it; nil when
  /// the plugin cannot say (the count.* checks report it).
  func space(_ topic: Topic, _ parameters: [String: Int64], of plugin: PluginTopics) -> UInt64? {
    try? plugin.generator(for: topic, parameters: parameters).spaceSize
  }

  /// The seeds checked for a space: every one below `seedsPerTopic`, else an even spread.
  func seeds(_ space: UInt64) -> [UInt64] {
    let count = min(settings.seedsPerTopic, space)
    return count == 0 ? [] : (0..<count).map { $0 * (space / count) }
  }

  /// The plugin's raw answers for `seeds`, one per seed: a call that fails as a whole fails each.
  func raw(_ topic: String, _ parameters: [String: Int64], _ seeds: [UInt64]) -> [Result<[UInt8], PluginError>] {
    let results: [Result<[UInt8], PluginError>]
    do {
      let answered = try backend.generate(topic, parameters, seeds)
      results =
        answered.count == seeds.count
        ? answered
        : seeds.map { _ in
          .failure(
            PluginError(
              path: path, kind: .workerFailed,
              reason: "the plugin gave \(answered.count) results for \(seeds.count) seeds"))
        }
    } catch {
      results = seeds.map { _ in .failure(error) }
    }
    for case .failure(let error) in results { noteCrash(error) }
    return results
  }

  /// The questions `seeds` select, each checked as a quiz checks it.
  func questions(_ topic: Topic, _ parameters: [String: Int64], _ seeds: [UInt64], of plugin: PluginTopics)
    -> [(seed: UInt64, made: Result<Question, PluginError>)]
  {
    zip(seeds, raw(local(topic, of: plugin), parameters, seeds)).map { seed, result in
      (seed, result.flatMap { bench.question($0, topic: topic.id, seed: seed) })
    }
  }

  /// Failures of `rules` (any rule when nil) among `made`, each rule once: how often, an
  /// example, and how to ask the first again.
  func report(
    _ made: [(seed: UInt64, made: Result<Question, PluginError>)], rules: Set<String>?, topic: Topic,
    parameters: [String: Int64], where accepts: (PluginError) -> Bool = { _ in true }
  ) -> [Diagnostic] {
    var failures: [(rule: String, count: Int, example: String, seed: UInt64)] = []
    for (seed, result) in made {
      guard case .failure(let error) = result, rules?.contains(error.kind.rule) ?? true, accepts(error) else {
        continue
      }
      if let index = failures.firstIndex(where: { $0.rule == error.kind.rule }) {
        failures[index].count += 1
      } else {
        failures.append((error.kind.rule, 1, error.reason, seed))
      }
    }
    return failures.map { failure in
      Diagnostic(
        .error,
        "topic \"\(topic.id)\"\(PluginValidator.describe(parameters)): \(failure.count) of \(made.count) questions failed, e.g. \(failure.example)\(PluginValidator.askAgain(path, topic: topic.id, seed: failure.seed, parameters: parameters))",
        rule: failure.rule, at: .fileStart)
    }
  }

  var isQuarantined: Bool { backend.quarantine() != nil }
}
