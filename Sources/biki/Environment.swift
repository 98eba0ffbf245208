import BikiPractice
import BikiCLI
import BikiCore
import BikiHost
import BikiPacks
import BikiPlugins
import BikiServer
import Foundation

/// What `biki` needs from the world: the file system, environment, console, clock and
/// speech; `live` is the only place these touch the real system.
struct BikiEnvironment {
  var fileSystem: FileSystem
  var variables: [String: String]
  var executable: String
  var console: Console
  var now: @Sendable () -> Double
  /// Seconds since 1970, stamped on history lines.
  var wallClock: @Sendable () -> Double
  var speaker: Speaker
  var seeds: SeedSource

  static var live: BikiEnvironment {
    BikiEnvironment(
      fileSystem: .live, variables: ProcessInfo.processInfo.environment, executable: TopicRegistry.ownExecutable,
      console: .live, now: MonotonicClock.live(), wallClock: { Date().timeIntervalSince1970 }, speaker: .espeak, seeds: .live)
  }

  /// Topics from packs (standard places plus `--packs`) and plugins (standard places plus
  /// `--plugins`), run in worker processes unless `inProcess`; only clean topics serve.
  func loadTopics(packDirectories: [String] = [], pluginDirectories: [String] = [], inProcess: Bool = false) -> TopicRegistry {
    loadCatalog(packDirectories: packDirectories, pluginDirectories: pluginDirectories, inProcess: inProcess).registry
  }

  /// The topics, and the packs they were compiled from.
  func loadCatalog(packDirectories: [String] = [], pluginDirectories: [String] = [], inProcess: Bool = false) -> (
    packs: PackLoad, registry: TopicRegistry
  ) {
    let loader = PackLoader(fileSystem: fileSystem)
    let plugins = pluginLibraries(pluginDirectories)
    let isolation: PluginIsolation
    if inProcess || plugins.isEmpty {
      isolation = .inProcess  // with no plugins, nothing is started and no log is needed
    } else {
      isolation = .worker(executable: TopicRegistry.ownExecutable, logPath: PluginLog.path(stateHome: stateHome), timeout: 2, now: now)
    }
    let paths = packSearchPaths(packDirectories)
    let packs = loader.load(files: packFiles(packDirectories), precedence: paths.precedence(of:))
    let pluginPaths = PluginSearchPaths.standard(environment: variables, installation: installation, extra: pluginDirectories)
    var registry = TopicRegistry.load(packs: packs, plugins: plugins, pluginPrecedence: pluginPaths.precedence(of:), isolation: isolation)
    // Numbers first, then money, durations, dates and counters, as Count Biki listed them.
    let order = Topic.Category.allCases
    registry.topics = registry.topics.enumerated().sorted { a, b in
      let (ca, cb) = (order.firstIndex(of: a.element.topic.category)!, order.firstIndex(of: b.element.topic.category)!)
      return ca != cb ? ca < cb : a.offset < b.offset
    }.map(\.element)
    return (packs, registry)
  }

  /// Changes when any pack file or plugin library that `loadCatalog` would load changes.
  func sourceStamp(packDirectories: [String] = [], pluginDirectories: [String] = []) -> String {
    (packFiles(packDirectories) + pluginLibraries(pluginDirectories)).map { "\($0)=\(fileSystem.stamp($0) ?? "-")" }.joined(separator: "\n")
  }

  /// This Biki's own packs and plugins, found from its executable.
  var installation: Installation { Installation.locate(executable: executable, environment: variables, fileSystem: fileSystem) }

  private func packSearchPaths(_ extra: [String]) -> PackSearchPaths {
    PackSearchPaths.standard(environment: variables, builtIn: installation.packs, extra: extra)
  }

  private func packFiles(_ extra: [String]) -> [String] {
    let paths = packSearchPaths(extra)
    return (try? PackLoader(fileSystem: fileSystem).packFiles(in: paths.directories, requireExistence: false)) ?? []
  }

  private func pluginLibraries(_ extra: [String]) -> [String] {
    PluginSearchPaths.standard(environment: variables, installation: installation, extra: extra).libraries(fileSystem: fileSystem)
  }

  /// `$XDG_STATE_HOME`, by default `~/.local/state`; nil when neither is an absolute path.
  var stateHome: String? { XDGDirectories(environment: variables).stateHome }

  /// The answer history, `$XDG_STATE_HOME/biki/history.jsonl`; without a state directory,
  /// none, and every attempt to record says why.
  var history: AnswerHistory {
    stateHome.map { .file(path: $0 + "/biki/history.jsonl") } ?? .unavailable(reason: XDGDirectories.noStateHome)
  }
}

/// Lines in and out. Output is written as it happens, since a quiz is a conversation.
struct Console: Sendable {
  var readLine: @Sendable () -> String?
  var write: @Sendable (String) -> Void
  var writeError: @Sendable (String) -> Void
  /// Whether input comes from a person at a terminal (prompts and menus) or a script.
  var isInteractive: Bool

  static let live = Console(
    readLine: { Swift.readLine(strippingNewline: true) },
    write: { StandardStreams.writeOutput($0 + "\n") },
    writeError: { StandardStreams.writeError($0 + "\n") },
    isInteractive: isatty(0) == 1)
}

/// Speaks kana aloud.
struct Speaker: Sendable {
  /// Speaks the text; returns why it could not, if it could not.
  var speak: @Sendable (String) -> String?

  /// espeak-ng's Japanese voice, run as a child process.
  static let espeak = Speaker { text in
    let candidates = ["/usr/bin/espeak-ng", "/usr/local/bin/espeak-ng"]
    guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
      return "--speak needs espeak-ng, which is not installed. Install it with: sudo apt-get install espeak-ng"
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-v", "ja", text]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus == 0 ? nil : "espeak-ng failed (status \(process.terminationStatus))"
    } catch {
      return "cannot run espeak-ng: \(error)"
    }
  }
}

/// Where plugin workers' crash reports go: `$XDG_STATE_HOME/biki/plugin-workers.log`.
enum PluginLog {
  static func path(stateHome: String?) -> String {
    guard let stateHome, let directory = try? PrivateDirectory.create(stateHome + "/biki") else { return "/dev/null" }
    return directory + "/plugin-workers.log"
  }
}
