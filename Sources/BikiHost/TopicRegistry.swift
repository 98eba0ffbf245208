import BikiCore
import BikiJSON
import BikiPacks
import BikiPlugins
import Glibc

/// One topic the host serves, whatever its source: a JSON pack or a native plugin.
public struct RegisteredTopic: Sendable {
  public var topic: Topic
  /// The pack file or plugin library it comes from.
  public var source: String
  public var makeGenerator: @Sendable (_ parameters: [String: Int64]) throws(ParameterError) -> QuestionGenerator

  public init(
    topic: Topic, source: String, makeGenerator: @Sendable @escaping ([String: Int64]) throws(ParameterError) -> QuestionGenerator
  ) {
    self.topic = topic
    self.source = source
    self.makeGenerator = makeGenerator
  }

  public func generator(parameters: [String: Int64] = [:]) throws(ParameterError) -> QuestionGenerator {
    try makeGenerator(parameters)
  }
}

/// Every serving topic, and every problem found while loading, by the file it belongs to.
public struct TopicRegistry: Sendable {
  public var topics: [RegisteredTopic]
  public var problems: [(path: String, diagnostic: Diagnostic)]
}

/// Where plugins come from: the build's own output (for the samples), `$XDG_DATA_HOME/biki/plugins`,
/// each absolute directory in `BIKI_PLUGIN_PATH`, and `--plugins DIR`. Never a path a client
/// sends, and never one resolved against the current directory.
public struct PluginSearchPaths: Sendable, Equatable {
  public var directories: [String]
  /// The build directory, where only `libbiki-*.so` count (the rest are Biki's own libraries).
  public var buildDirectory: String?

  public static func standard(environment: [String: String], buildDirectory: String?, extra: [String] = []) -> PluginSearchPaths {
    var directories = XDGDirectories(environment: environment).dataHome.map { [$0 + "/biki/plugins"] } ?? []
    directories += XDGDirectories.absoluteEntries(environment["BIKI_PLUGIN_PATH"])
    directories += extra
    return PluginSearchPaths(directories: directories, buildDirectory: buildDirectory)
  }

  /// The plugin libraries present, in a stable order.
  public func libraries(fileSystem: FileSystem) -> [String] {
    var files: [String] = []
    if let buildDirectory, fileSystem.kind(buildDirectory) == .directory {
      files += ((try? fileSystem.contents(buildDirectory)) ?? []).filter { $0.hasPrefix("libbiki-") && $0.hasSuffix(".so") }.sorted()
        .map { buildDirectory + "/" + $0 }
    }
    for directory in directories where fileSystem.kind(directory) == .directory {
      files += ((try? fileSystem.contents(directory)) ?? []).filter { $0.hasSuffix(".so") }.sorted().map { directory + "/" + $0 }
    }
    var seen = Set<String>()
    return files.filter { seen.insert(fileSystem.canonicalPath($0)).inserted }
  }
}

/// How plugins are run.
public enum PluginIsolation: Sendable {
  /// In a worker process started from `workerExecutable` (the default).
  case worker(executable: String, logPath: String, timeout: Double, now: @Sendable () -> Double)
  /// Loaded into this process (`--in-process`): for trusted plugins, when speed matters.
  case inProcess
}

extension TopicRegistry {
  /// Topics from packs and plugins together; a topic id defined twice is reported on both sides
  /// and served from neither.
  public static func load(packs: PackLoad, plugins: [String], isolation: PluginIsolation) -> TopicRegistry {
    var problems = packs.packs.flatMap { pack in packs.diagnostics(for: pack.path).map { (pack.path, $0) } }
    var topics = packs.topics.map { entry in
      let compiled = entry.topic
      return RegisteredTopic(topic: compiled.topic, source: entry.path) { parameters throws(ParameterError) in
        try compiled.generator(parameters: parameters)
      }
    }
    for path in plugins {
      let backend: PluginBackend
      switch isolation {
      case .inProcess: backend = .inProcess(path)
      case .worker(let executable, let logPath, let timeout, let now):
        backend = .isolated(IsolatedPlugin(path: path, spawner: .live(executable: executable, logPath: logPath, now: now), timeout: timeout, now: now))
      }
      do {
        let plugin = try PluginTopics(backend: backend)
        for topic in plugin.topics {
          topics.append(RegisteredTopic(topic: topic, source: path) { parameters throws(ParameterError) in
            try plugin.generator(for: topic, parameters: parameters)
          })
        }
      } catch {
        problems.append((path, Diagnostic(.error, error.description, rule: error.kind.rule, at: .fileStart)))
      }
    }
    // Pack topics already clash among themselves in PackLoad; here, plugins against everything.
    var sources: [String: [String]] = [:]
    for topic in topics { sources[topic.topic.id, default: []].append(topic.source) }
    let clashing = sources.filter { Set($0.value).count > 1 }
    for (id, paths) in clashing.sorted(by: { $0.key < $1.key }) {
      for path in Set(paths).sorted() {
        let others = Set(paths).subtracting([path]).sorted().joined(separator: ", ")
        problems.append((path, Diagnostic(.error, "topic id \"\(id)\" is also defined by \(others); neither is loaded", rule: "duplicate-topic-id", at: .fileStart)))
      }
    }
    return TopicRegistry(topics: topics.filter { clashing[$0.topic.id] == nil }, problems: problems)
  }

  /// This process's own executable, for starting workers (`/proc/self/exe`: absolute, and right
  /// even when started through PATH or a symlink).
  public static var ownExecutable: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
  }
}
