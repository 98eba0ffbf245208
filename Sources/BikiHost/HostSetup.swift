import BikiCore
import BikiFiles
import BikiPacks
import BikiPlugins
import BikiSync

#if canImport(Glibc)
  import Glibc
#endif

/// Where everything Biki reads and writes is, and how its topics are loaded: the one place the
/// commands compose the host from the file system, the environment and the running executable.
package struct HostSetup: Sendable {
  var fileSystem: FileSystem
  var environment: [String: String]
  /// This Biki's own packs and plugins, found from its executable.
  package var installation: Installation
  /// The running executable, whose build keys the caches.
  var executable: String

  package init(fileSystem: FileSystem, environment: [String: String], executable: String) {
    self.fileSystem = fileSystem
    self.environment = environment
    self.executable = executable
    self.installation = Installation.locate(executable: executable, environment: environment, fileSystem: fileSystem)
  }

  /// Which build of Biki this is (`BuildIdentity`): caches keep what this build found.
  var build: String { BuildIdentity.of(executable: executable) }

  package func packSearchPaths(extra: [String] = []) -> PackSearchPaths {
    PackSearchPaths.standard(environment: environment, builtIn: installation.packs, extra: extra)
  }

  package func pluginSearchPaths(extra: [String] = []) -> PluginSearchPaths {
    PluginSearchPaths.standard(environment: environment, installation: installation, extra: extra)
  }

  /// The pack files in the standard places and `extra`.
  func packFiles(extra: [String] = []) -> [String] {
    (try? PackLoader(fileSystem: fileSystem).packFiles(
      in: packSearchPaths(extra: extra).directories, requireExistence: false)) ?? []
  }

  func pluginLibraries(extra: [String] = []) -> [String] {
    pluginSearchPaths(extra: extra).libraries(fileSystem: fileSystem)
  }

  /// `$XDG_STATE_HOME/biki` (by default `~/.local/state/biki`); nil when there is no absolute
  /// state directory to be had.
  var stateDirectory: String? { XDGDirectories(environment: environment).stateHome.map { $0 + "/biki" } }

  /// The answer history: `$XDG_STATE_HOME/biki/history.jsonl`.
  package var historyPath: String? { stateDirectory.map { $0 + "/history.jsonl" } }

  /// Where `biki stats --html` writes its page when not told: `$XDG_STATE_HOME/biki/report.html`,
  /// beside the history it shows.
  package var reportPath: String? { stateDirectory.map { $0 + "/report.html" } }

  /// Where Open JTalk's audio is kept: `$XDG_CACHE_HOME/biki/speech` (by default
  /// `~/.cache/biki/speech`), or a private directory of this user's in the temporary directory
  /// (TMPDIR) when there is no cache directory. Made private (0700) when missing; when neither
  /// can be made, making audio fails saying it cannot keep the file.
  package var speechDirectory: String {
    let temporary =
      (environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp") + "/biki-speech-\(getuid())"
    let cache = XDGDirectories(environment: environment).cacheHome.map { $0 + "/biki/speech" }
    for candidate in [cache, temporary].compactMap({ $0 }) {
      if let made = try? PrivateDirectory.create(candidate) { return made }
    }
    return temporary
  }

  /// Where plugin workers' crash reports go: `$XDG_STATE_HOME/biki/plugin-workers.log`, in a
  /// private directory; /dev/null when there is none.
  var pluginLogPath: String {
    guard let stateDirectory, let directory = try? PrivateDirectory.create(stateDirectory) else { return "/dev/null" }
    return directory + "/plugin-workers.log"
  }

  /// The topics from packs (standard places plus `packDirectories`) and plugins (standard places
  /// plus `pluginDirectories`), and the packs they were compiled from, listed as Count Biki did:
  /// numbers, money, durations, dates, counters. Plugins run in worker processes started from
  /// `workerExecutable`, unless `inProcess`. Packs are checked on a sample of their questions,
  /// except that `userPackCheck`, when given, is how packs not built into Biki are checked (a
  /// server's reload checks them as lint does); `isCancelled` stops the packs' checks early. A
  /// pack file `earlier` loaded from the same text is reused (`PackLoader.reload`).
  package func loadCatalog(
    packDirectories: [String] = [], pluginDirectories: [String] = [], inProcess: Bool = false, workerExecutable: String,
    now: @Sendable @escaping () -> Double, userPackCheck: ReadingCheck? = nil, reusing earlier: PackLoad? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) -> (packs: PackLoad, registry: TopicRegistry) {
    beginCatalog(
      packDirectories: packDirectories, pluginDirectories: pluginDirectories, inProcess: inProcess,
      workerExecutable: workerExecutable, now: now, userPackCheck: userPackCheck, reusing: earlier,
      isCancelled: isCancelled
    ).finish()
  }

  /// `loadCatalog` begun and not yet done: another thread may ask it for one topic
  /// (`CatalogLoading.topic`) while `finish` loads the rest.
  package func beginCatalog(
    packDirectories: [String] = [], pluginDirectories: [String] = [], inProcess: Bool = false, workerExecutable: String,
    now: @Sendable @escaping () -> Double, userPackCheck: ReadingCheck? = nil, reusing earlier: PackLoad? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) -> CatalogLoading {
    let plugins = pluginLibraries(extra: pluginDirectories)
    // Read once for both caches.
    let build = self.build
    let isolation = pluginIsolation(
      for: plugins, inProcess: inProcess, workerExecutable: workerExecutable, build: build, now: now)
    let packPaths = packSearchPaths(extra: packDirectories)
    let loader = PackLoader(
      fileSystem: fileSystem, userCheck: userPackCheck, checked: .file(environment: environment, build: build))
    let compiling = loader.compiling(
      files: packFiles(extra: packDirectories), precedence: packPaths.precedence(of:), reusing: earlier,
      isCancelled: isCancelled)
    return CatalogLoading(
      compiling: compiling, plugins: plugins, isolation: isolation,
      pluginPrecedence: pluginSearchPaths(extra: pluginDirectories).precedence(of:))
  }

  /// How `biki quiz` and `biki serve` run `plugins`: in worker processes under the standard
  /// limits (as `biki-pack` does), logging to `pluginLogPath`, with their descriptions cached.
  func pluginIsolation(
    for plugins: [String], inProcess: Bool, workerExecutable: String, build: String? = nil,
    now: @Sendable @escaping () -> Double
  ) -> PluginIsolation {
    // With no plugins, nothing is started and no log is needed.
    guard !inProcess, !plugins.isEmpty else { return .inProcess }
    return .worker(
      executable: workerExecutable, logPath: pluginLogPath, limits: .standard, now: now,
      descriptions: .file(environment: environment, build: build ?? self.build))
  }

  /// Changes when any pack file or plugin library `loadCatalog` would load changes.
  package func sourceStamp(packDirectories: [String] = [], pluginDirectories: [String] = []) -> String {
    (packFiles(extra: packDirectories) + pluginLibraries(extra: pluginDirectories)).map {
      "\($0)=\(fileSystem.stamp($0) ?? "-")"
    }
    .joined(separator: "\n")
  }
}
