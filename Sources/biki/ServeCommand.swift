import BikiCLI
import BikiCore
import BikiHeapSupport
import BikiHost
import BikiJSON
import BikiPractice
import BikiProtocol
import BikiServer
import BikiSpeech
import BikiSync
import Foundation

/// `biki serve`: JSON-RPC 2.0 with LSP framing on stdin and stdout, for editors and tools.
enum ServeCommand {
  static let usage = "biki serve [--packs <dir> ...] [--plugins <dir> ...] [--in-process]"

  static let help = """
    OVERVIEW: Serve quizzes and pack diagnostics over JSON-RPC on stdin and stdout.

    Speaks JSON-RPC 2.0 with LSP framing (Content-Length headers), as a language server does;
    docs/protocol.md describes every method. Logs go to stderr. Answers are recorded in
    $XDG_STATE_HOME/biki/history.jsonl (default ~/.local/state/biki/history.jsonl).

    USAGE: \(usage)

    OPTIONS:
      --packs <dir>           Also load packs from this directory (repeatable).
      --plugins <dir>         Also load plugins from this directory (repeatable).
      --in-process            Load plugins into this process instead of worker processes.
      --stdio                 Accepted for editors that pass it; stdio is the only transport.
      -h, --help              Show help information.
    """

  static func run(arguments: [String], environment: BikiEnvironment) -> CommandOutcome {
    let parsed: ParsedArguments
    switch CommandOutcome.parse(
      arguments,
      options: [.value("--packs", "<dir>"), .value("--plugins", "<dir>"), .flag("--in-process"), .flag("--stdio")],
      help: help,
      usage: usage, helpCommand: "biki serve --help")
    {
    case .success(let found): parsed = found
    case .failure(let failure): return failure.outcome
    }
    if let extra = parsed.positionals.first {
      return CommandOutcome.usageError(
        "Unexpected argument '\(extra)'.", usage: usage, helpCommand: "biki serve --help")
    }
    // Absolute, so the paths and URIs the server reports mean the same to the client.
    let packs = parsed.values("--packs").map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    let plugins = parsed.values("--plugins").map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    let inProcess = parsed.isSet("--in-process")
    let pluginsInProcess = inProcess
    // Checks and loads run on threads of their own; glibc would give each its own heap (up to
    // eight a core), and memory freed in one is not reused by another: with 200 packs open
    // that held 70 MB where two heaps hold under 50 (biki-bench serve.memory.open-packs).
    _ = biki_heap_limit_arenas(2)
    // The command line's directories, and those the client's settings add.
    let places = Locked<(packs: [String], plugins: [String])>((packs, plugins))
    let output = Connection.claimStandardOutput()
    // Checks and plugin questions finished off the loop wake it through this.
    let wake = WakeSignal()
    let dependencies = ServerDependencies(
      loadCatalog: {
        let (packDirectories, pluginDirectories) = places.withLock { $0 }
        let (load, registry) = environment.loadCatalog(
          packDirectories: packDirectories, pluginDirectories: pluginDirectories, inProcess: pluginsInProcess)
        return Catalog(
          registry: registry, packs: load,
          packDirectories: environment.host.packSearchPaths(extra: packDirectories).directories)
      },
      packStamp: {
        let (packDirectories, pluginDirectories) = places.withLock { $0 }
        return environment.sourceStamp(packDirectories: packDirectories, pluginDirectories: pluginDirectories)
      },
      history: environment.history, now: environment.now,
      wallClock: environment.wallClock, seeds: environment.seeds, canonicalPath: environment.fileSystem.canonicalPath,
      background: .threads(waking: wake),
      loadCheckedCatalog: { serving, isCancelled in
        let (packDirectories, pluginDirectories) = places.withLock { $0 }
        // The user's own packs checked as lint checks them.
        let (load, registry) = environment.loadCatalog(
          packDirectories: packDirectories, pluginDirectories: pluginDirectories, inProcess: pluginsInProcess,
          userPackCheck: .thorough, reusing: serving, isCancelled: isCancelled)
        return Catalog(
          registry: registry, packs: load,
          packDirectories: environment.host.packSearchPaths(extra: packDirectories).directories)
      })
    var live = dependencies
    live.beginCatalog = {
      let (packDirectories, pluginDirectories) = places.withLock { $0 }
      let loading = environment.beginCatalog(
        packDirectories: packDirectories, pluginDirectories: pluginDirectories, inProcess: pluginsInProcess)
      return CatalogStart(
        topic: loading.topic,
        finish: {
          let (load, registry) = loading.finish()
          return Catalog(
            registry: registry, packs: load,
            packDirectories: environment.host.packSearchPaths(extra: packDirectories).directories)
        })
    }
    // Off the loop, so no answer waits for it; runs that end while one is queued share it.
    let trimming = Locked(false)
    let trimQueue = DispatchQueue(label: "biki.serve.trim", qos: .utility)
    live.releaseMemory = {
      guard
        trimming.withLock({ queued in
          defer { queued = true }
          return !queued
        })
      else { return }
      trimQueue.async {
        trimming.withLock { $0 = false }
        biki_heap_trim()
      }
    }
    live.useDirectories = { settingsPacks, settingsPlugins in
      places.withLock { $0 = (packs + settingsPacks, plugins + settingsPlugins) }
    }
    live.watchedDirectories = {
      let (packDirectories, pluginDirectories) = places.withLock { $0 }
      let builtIn = environment.host.packSearchPaths().directories.first
      return environment.host.packSearchPaths(extra: packDirectories).directories.filter { $0 != builtIn }
        + environment.host.pluginSearchPaths(extra: pluginDirectories).directories
    }
    // `initialize` is answered while the packs and plugins load.
    live.loadsCatalogAhead = true
    let speech = SpeechAhead(environment: environment) {
      StandardStreams.writeError("biki serve: \(TerminalText.safe($0))\n")
    }
    RunningGroups.endWithThisProcess()
    live.prepareSpeech = speech.prepare
    live.endSpeech = speech.end
    let refit = BackgroundRefit(environment.history, wallClock: environment.wallClock)
    live.refitScheduler = refit.start
    var endpoint = Endpoint(server: BikiServer(version: BikiCommand.version, dependencies: live))
    let connection = Connection(
      input: 0, output: output, now: environment.now,
      log: { StandardStreams.writeError("biki serve: \(TerminalText.safe($0))\n") }, wake: wake)
    let status = connection.run(&endpoint)
    // The client has gone: nothing it asked to hear is made now.
    speech.stop()
    return CommandOutcome(status: status)
  }
}
