import BikiJSON
import Glibc

/// How the host talks to one plugin, whether loaded in this process or run in a worker:
/// everything above this sees the same calls.
package struct PluginBackend: Sendable {
  package var path: String
  /// The plugin's identity and its raw description.
  package var describe: @Sendable () throws(PluginError) -> (identity: PluginIdentity, description: [UInt8])
  /// Raw questions for many seeds in one call (one round trip to a worker).
  package var generate:
    @Sendable (_ topic: String, _ parameters: [String: Int64], _ seeds: [UInt64]) throws(PluginError) -> [Result<
      [UInt8], PluginError
    >]

  /// The plugin's own count of a topic's questions for these parameters; nil when it has none
  /// (then the description's questionCount holds for every setting).
  package var questionCount: @Sendable (_ topic: String, _ parameters: [String: Int64]) throws(PluginError) -> UInt64?
  /// When the plugin is quarantined (no longer called), the failure that settled it; nil while it
  /// is in use. Only a plugin in a worker is ever quarantined.
  package var quarantine: @Sendable () -> PluginError? = { nil }
  /// Seconds per question of the last batch, where the backend measures it (a worker); nil when
  /// unknown.
  var pace: @Sendable () -> Double? = { nil }
  /// Writes through writers after their calls had returned, not reported before, once `grace`
  /// seconds have passed since the plugin last answered; nil when there were none.
  package var lateWrites: @Sendable (_ grace: Double) -> PluginError? = { _ in nil }

  package init(
    path: String,
    describe: @Sendable @escaping () throws(PluginError) -> (identity: PluginIdentity, description: [UInt8]),
    generate:
      @Sendable @escaping (_ topic: String, _ parameters: [String: Int64], _ seeds: [UInt64]) throws(PluginError) ->
      [Result<[UInt8], PluginError>],
    questionCount: @Sendable @escaping (_ topic: String, _ parameters: [String: Int64]) throws(PluginError) -> UInt64? =
      { _, _ in nil },
    quarantine: @Sendable @escaping () -> PluginError? = { nil }, pace: @Sendable @escaping () -> Double? = { nil },
    lateWrites: @Sendable @escaping (_ grace: Double) -> PluginError? = { _ in nil }
  ) {
    self.path = path
    self.describe = describe
    self.generate = generate
    self.questionCount = questionCount
    self.quarantine = quarantine
    self.pace = pace
    self.lateWrites = lateWrites
  }

  /// Loaded into this process: fastest, but a crash here is a crash of the host. For trusted plugins.
  package static func inProcess(_ path: String) -> PluginBackend {
    switch Result(catching: { () throws(PluginError) in try PluginLibrary(path: path) }) {
    case .success(let library): return inProcess(library)
    case .failure(let error):
      return PluginBackend(
        path: path, describe: { () throws(PluginError) in throw error },
        generate: { _, _, _ throws(PluginError) in throw error },
        questionCount: { _, _ throws(PluginError) in throw error })
    }
  }

  /// A library already loaded into this process.
  package static func inProcess(_ library: PluginLibrary) -> PluginBackend {
    var backend = PluginBackend(
      path: library.path,
      describe: { () throws(PluginError) in (PluginIdentity(library), try library.describe()) },
      generate: { topic, parameters, seeds throws(PluginError) in
        seeds.map { seed in
          Result { () throws(PluginError) in try library.generate(topic: topic, parameters: parameters, seed: seed) }
        }
      },
      questionCount: { topic, parameters throws(PluginError) in
        try library.questionCount(topic: topic, parameters: parameters)
      })
    backend.lateWrites = { grace in
      // A plugin's thread may write a little after the call returned: give it the time.
      if grace > 0 { usleep(UInt32(min(grace, 5) * 1_000_000)) }
      return library.takeLateWrites()
    }
    return backend
  }

  /// In a worker process: a crash, abort or hang costs the question or call it met, never the host.
  package static func isolated(_ plugin: IsolatedPlugin) -> PluginBackend {
    PluginBackend(
      path: plugin.path,
      describe: { () throws(PluginError) in
        let (identity, description) = try plugin.describe()
        return (try PluginIdentity(json: identity, path: plugin.path), description)
      },
      generate: { topic, parameters, seeds throws(PluginError) in
        plugin.generate(topic: topic, parameters: parameters, seeds: seeds)
      },
      questionCount: { topic, parameters throws(PluginError) in
        try plugin.questionCount(topic: topic, parameters: parameters)
      },
      quarantine: { plugin.quarantine }, pace: { plugin.pace }, lateWrites: { plugin.lateWrites(grace: $0) })
  }
}

/// What a plugin's descriptor says of it.
package struct PluginIdentity: Sendable, Hashable {
  package var id: String
  var name: String
  var version: String
  /// The major version of the plugin ABI the plugin was built for.
  var abiVersion: UInt32
  /// Whether the plugin counts its questions per parameter setting (`question_count`).
  package var countsQuestions: Bool

  package init(id: String, name: String, version: String, abiVersion: UInt32, countsQuestions: Bool = false) {
    self.id = id
    self.name = name
    self.version = version
    self.abiVersion = abiVersion
    self.countsQuestions = countsQuestions
  }

  init(_ library: PluginLibrary) {
    id = library.id
    name = library.name
    version = library.version
    abiVersion = library.abiVersion.major
    countsQuestions = library.countsQuestions
  }

  package var json: [UInt8] {
    JSON.object(pairs: [
      ("id", .string(id)), ("name", .string(name)), ("version", .string(version)),
      ("abiVersion", .integer(Int64(abiVersion))),
      ("countsQuestions", .bool(countsQuestions)),
    ]).bytes
  }

  package init(json: [UInt8], path: String) throws(PluginError) {
    guard let node = try? JSONParser.parse(json), let id = node["id"]?.value.stringValue,
      let name = node["name"]?.value.stringValue,
      let version = node["version"]?.value.stringValue, let abi = node["abiVersion"]?.value.integerValue
    else {
      throw PluginError(
        path: path, kind: .workerFailed, reason: "the worker described the plugin in a form this host does not read")
    }
    self.id = id
    self.name = name
    self.version = version
    self.abiVersion = UInt32(truncatingIfNeeded: abi)
    self.countsQuestions = node["countsQuestions"]?.value.boolValue ?? false
  }
}
