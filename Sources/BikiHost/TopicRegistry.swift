import BikiCore
import BikiFiles
import BikiJSON
import BikiPacks
import BikiPlugins
import Glibc

/// One topic the host serves, whatever its source: a JSON pack or a native plugin.
package struct RegisteredTopic: Sendable {
  package var topic: Topic
  /// The pack file or plugin library it comes from.
  package var source: String
  var makeGenerator: @Sendable (_ parameters: [String: Int64]) throws(ParameterError) -> QuestionGenerator
  /// Making its generator runs a native plugin's code (it asks the plugin for its question
  /// count), so a server does it off its message loop; its questions' source says for itself
  /// which of them it has at hand (`QuestionSource.questionAtHand`).
  package var callsPlugin: Bool
  /// When the plugin behind it was quarantined (after failing again and again), the failure that
  /// settled it; nil for a pack's topic, and while its plugin is in use.
  package var quarantine: @Sendable () -> PluginError?

  package init(
    topic: Topic, source: String, callsPlugin: Bool = false,
    quarantine: @Sendable @escaping () -> PluginError? = { nil },
    makeGenerator: @Sendable @escaping ([String: Int64]) throws(ParameterError) -> QuestionGenerator
  ) {
    self.topic = topic
    self.source = source
    self.callsPlugin = callsPlugin
    self.quarantine = quarantine
    self.makeGenerator = makeGenerator
  }

  /// A pack's topic: its generators are its compiled program's.
  package init(_ compiled: CompiledTopic, source: String) {
    self.init(topic: compiled.topic, source: source) { parameters throws(ParameterError) in
      try compiled.generator(parameters: parameters)
    }
  }

  package func generator(parameters: [String: Int64] = [:]) throws(ParameterError) -> QuestionGenerator {
    try makeGenerator(parameters)
  }
}

/// Every serving topic, and every problem found while loading, by the file it belongs to.
package struct TopicRegistry: Sendable {
  package var topics: [RegisteredTopic]
  package var problems: [(path: String, diagnostic: Diagnostic)]

  package init(topics: [RegisteredTopic], problems: [(path: String, diagnostic: Diagnostic)]) {
    self.topics = topics
    self.problems = problems
  }
}

/// Where plugins come from: Biki's own (the samples, built or installed with it), `$XDG_DATA_HOME/biki/plugins`,
/// each absolute directory in `BIKI_PLUGIN_PATH`, and `--plugins DIR`. Never a path a client
/// sends, and never one resolved against the current directory.
package struct PluginSearchPaths: Sendable, Equatable {
  package var directories: [String]
  /// Biki's own plugins: the installation's plugin directory, or the build directory, where
  /// only `libbiki-*.so` count (the rest are Biki's own libraries).
  var builtIn: String?
  var builtInNamePrefix: String
  /// Directories given with `--plugins`.
  var given: [String]

  package init(directories: [String], builtIn: String?, builtInNamePrefix: String, given: [String] = []) {
    self.directories = directories
    self.builtIn = builtIn
    self.builtInNamePrefix = builtInNamePrefix
    self.given = given
  }

  /// Which of two definitions of a topic id serves (see `Precedence`).
  func precedence(of library: String) -> Precedence { .of(library, given: given, builtIn: builtIn) }

  static func standard(environment: [String: String], installation: Installation?, extra: [String] = [])
    -> PluginSearchPaths
  {
    var directories = XDGDirectories(environment: environment).dataHome.map { [$0 + "/biki/plugins"] } ?? []
    directories += XDGDirectories.absoluteEntries(environment["BIKI_PLUGIN_PATH"])
    directories += extra
    return PluginSearchPaths(
      directories: directories, builtIn: installation?.plugins, builtInNamePrefix: installation?.pluginNamePrefix ?? "",
      given: extra)
  }

  /// The plugin libraries present, in a stable order.
  func libraries(fileSystem: FileSystem) -> [String] {
    var files: [String] = []
    if let builtIn, fileSystem.kind(builtIn) == .directory {
      files += ((try? fileSystem.contents(builtIn)) ?? []).filter {
        $0.hasPrefix(builtInNamePrefix) && $0.hasSuffix(".so")
      }.sorted()
        .map { builtIn + "/" + $0 }
    }
    for directory in directories where fileSystem.kind(directory) == .directory {
      files += ((try? fileSystem.contents(directory)) ?? []).filter { $0.hasSuffix(".so") }.sorted().map {
        directory + "/" + $0
      }
    }
    var seen = Set<String>()
    return files.filter { seen.insert(fileSystem.canonicalPath($0)).inserted }
  }
}

/// A plugin as loading left it: the topics it serves, or why it serves none.
struct LoadedPlugin: Sendable {
  package var path: String
  var outcome: Outcome

  enum Outcome: Sendable {
    case topics([RegisteredTopic])
    case problem(Diagnostic)
  }
}

/// How plugins are run.
package enum PluginIsolation: Sendable {
  /// In a worker process started from `executable` (the default), under `limits`: the standard
  /// ones in every command, smaller ones only in tests.
  case worker(
    executable: String, logPath: String, limits: PluginLimits = .standard, now: @Sendable () -> Double,
    descriptions: PluginDescriptionCache = .none)
  /// Loaded into this process (`--in-process`): for trusted plugins, when speed matters.
  case inProcess

  /// The limits a worker runs under; nil in this process, where nothing is timed.
  var limits: PluginLimits? {
    guard case .worker(_, _, let limits, _, _) = self else { return nil }
    return limits
  }
}

extension TopicRegistry {
  /// Topics from packs and plugins together. A topic id defined by a plugin and by something
  /// else serves from the one with the higher precedence (the first loaded among equals), with
  /// a warning on both sides; among equals the one not loaded has an error.
  package static func load(
    packs: PackLoad, plugins: [String], pluginPrecedence: (String) -> Precedence = { _ in .user },
    isolation: PluginIsolation
  ) -> TopicRegistry {
    load(packs: packs, plugins: loadPlugins(plugins, isolation: isolation), pluginPrecedence: pluginPrecedence)
  }

  /// Each plugin started and described, in order: its topics, or the problem that kept it
  /// out. Independent of the packs, so it can run while they compile.
  static func loadPlugins(_ plugins: [String], isolation: PluginIsolation) -> [LoadedPlugin] {
    plugins.map { loadPlugin($0, isolation: isolation) }
  }

  private static func loadPlugin(_ path: String, isolation: PluginIsolation) -> LoadedPlugin {
    // A FIFO or a device named like a library would stall a worker's dlopen until its load
    // limit: it is named at once instead, and the other plugins load.
    do {
      close(try RegularFile.open(path))
    } catch let error where error != .missing {
      return LoadedPlugin(
        path: path, outcome: .problem(Diagnostic(.error, "\(error)", rule: "unreadable-file", at: .fileStart)))
    } catch {}
    let backend: PluginBackend
    switch isolation {
    case .inProcess: backend = .inProcess(path)
    case .worker(let executable, let logPath, let limits, let now, let descriptions):
      backend = descriptions.wrapping(
        .isolated(
          IsolatedPlugin(
            path: path, spawner: .live(executable: executable, logPath: logPath, now: now), limits: limits, now: now))
      )
    }
    do {
      let plugin = try PluginTopics(backend: backend)
      return LoadedPlugin(
        path: path,
        outcome: .topics(
          plugin.topics.map { topic in
            RegisteredTopic(topic: topic, source: path, callsPlugin: true, quarantine: backend.quarantine) {
              parameters throws(ParameterError) in
              try plugin.generator(for: topic, parameters: parameters)
            }
          }))
    } catch {
      return LoadedPlugin(
        path: path, outcome: .problem(Diagnostic(.error, error.message, rule: error.kind.rule, at: .fileStart)))
    }
  }

  /// Topics from packs and plugins already loaded, settled as `load(packs:plugins:…)` says.
  static func load(
    packs: PackLoad, plugins: [LoadedPlugin], pluginPrecedence: (String) -> Precedence = { _ in .user }
  ) -> TopicRegistry {
    var precedence: [String: Precedence] = [:]
    for pack in packs.packs { precedence[pack.path] = pack.precedence }
    for plugin in plugins { precedence[plugin.path] = pluginPrecedence(plugin.path) }
    var problems = packs.packs.flatMap { pack in packs.diagnostics(for: pack.path).map { (pack.path, $0) } }
    var topics = packs.topics.map { RegisteredTopic($0.topic, source: $0.path) }
    for plugin in plugins {
      switch plugin.outcome {
      case .topics(let registered): topics += registered
      case .problem(let problem): problems.append((plugin.path, problem))
      }
    }
    // Pack topics are already settled among themselves in PackLoad; here, plugins against
    // everything, so only the ids a plugin defines can be defined twice.
    let pluginIDs = Set(topics.lazy.filter(\.callsPlugin).map(\.topic.id))
    var places: [String: [Int]] = [:]
    for (index, topic) in topics.enumerated() where pluginIDs.contains(topic.topic.id) {
      places[topic.topic.id, default: []].append(index)
    }
    var losers = Set<Int>()
    for (id, indices) in places.sorted(by: { $0.key < $1.key }) where indices.count > 1 {
      func rank(_ index: Int) -> Precedence { precedence[topics[index].source] ?? .user }
      var contenders = indices
      // A plugin never takes a built-in topic away: it overrides one only if its questions pass.
      if indices.contains(where: { rank($0) == .builtIn }) {
        for index in indices where topics[index].callsPlugin && rank(index) != .builtIn {
          guard let failure = overrideFailure(topics[index]) else { continue }
          contenders.removeAll { $0 == index }
          losers.insert(index)
          problems.append(
            (
              topics[index].source,
              Diagnostic(
                .error,
                "topic id \"\(id)\" would override the built-in one, but its questions fail (\(failure)); the built-in topic is used",
                rule: "overridden-topic", at: .fileStart)
            ))
        }
      }
      guard let winner = contenders.min(by: { (rank($0), $0) < (rank($1), $1) }) else { continue }
      let winnerSource = topics[winner].source
      // The check above tries a few seeds; any question of the override that fails later is
      // replaced by the built-in topic's at the same place, so the topic never goes.
      if topics[winner].callsPlugin, rank(winner) != .builtIn,
        let builtIn = indices.first(where: { rank($0) == .builtIn && !topics[$0].callsPlugin })
      {
        let (override, standIn) = (topics[winner], topics[builtIn])
        topics[winner].makeGenerator = { parameters throws(ParameterError) in
          let made = try override.generator(parameters: parameters)
          guard let covering = try? standIn.generator(parameters: parameters) else { return made }
          return made.standingIn(covering)
        }
      }
      for loser in contenders where loser != winner {
        losers.insert(loser)
        let source = topics[loser].source
        if rank(loser) == rank(winner) {
          problems.append(
            (
              source,
              Diagnostic(
                .error, "topic id \"\(id)\" is also defined by \(winnerSource), which is loaded instead of this one",
                rule: "duplicate-topic-id", at: .fileStart)
            ))
        } else {
          problems.append(
            (
              source,
              Diagnostic(
                .warning,
                "topic id \"\(id)\" is overridden by \(winnerSource) (\(rank(winner).what)), which is used instead",
                rule: "overridden-topic", at: .fileStart)
            ))
        }
        problems.append(
          (
            winnerSource,
            Diagnostic(
              .warning, "topic id \"\(id)\" is also defined by \(source); this one is used", rule: "overridden-topic",
              at: .fileStart)
          ))
      }
    }
    if !losers.isEmpty { topics = topics.enumerated().filter { !losers.contains($0.offset) }.map(\.element) }
    return TopicRegistry(topics: topics, problems: problems)
  }

  /// Seeds an override of a built-in topic is tried on before it may serve.
  static let overrideProbes = 8

  /// Why a plugin's topic cannot stand in for a built-in one: a question among a few spread
  /// over its space (the first and the last included) that fails, or its generator refused.
  static func overrideFailure(_ topic: RegisteredTopic) -> String? {
    let generator: QuestionGenerator
    do {
      generator = try topic.generator()
    } catch {
      return "\(error)"
    }
    let space = generator.spaceSize
    let count = UInt64(min(UInt64(overrideProbes), space))
    // Evenly spread, the last question included: step × (space − 1) / (count − 1) in full width.
    let seeds = (0..<count).map { step in
      count <= 1 ? 0 : (count - 1).dividingFullWidth(step.multipliedFullWidth(by: space - 1)).quotient
    }
    for result in generator.questions(seeds: seeds) {
      if case .failure(let error) = result { return error.reason }
    }
    return nil
  }

  /// This process's own executable, for starting workers (`/proc/self/exe`: absolute, and right
  /// even when started through PATH or a symlink).
  package static var ownExecutable: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return count > 0
      ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
  }
}
