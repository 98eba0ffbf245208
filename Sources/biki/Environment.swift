import BikiCLI
import BikiCore
import BikiFiles
import BikiHost
import BikiPacks
import BikiPlugins
import BikiPractice
import BikiServer
import BikiSpeech
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
  /// What speaking needs of the machine (`--speak`, `biki say`).
  var speech: SpeechSystem
  var seeds: SeedSource
  /// Where the learner's practice days begin: 4 a.m. on the machine's clock (`TZ`).
  var practiceDay: PracticeDay

  static var live: BikiEnvironment {
    BikiEnvironment(
      fileSystem: .live, variables: ProcessInfo.processInfo.environment, executable: TopicRegistry.ownExecutable,
      console: .live, now: MonotonicClock.live(), wallClock: { Date().timeIntervalSince1970 }, speech: .live,
      seeds: .live, practiceDay: .local)
  }

  /// Where Biki's files are and how topics load (shared with biki-pack).
  var host: HostSetup { HostSetup(fileSystem: fileSystem, environment: variables, executable: executable) }

  /// This Biki's own packs and plugins, found from its executable.
  var installation: Installation { host.installation }

  /// Topics from packs (standard places plus `--packs`) and plugins (standard places plus
  /// `--plugins`), run in worker processes unless `inProcess`; only clean topics serve.
  func loadTopics(packDirectories: [String] = [], pluginDirectories: [String] = [], inProcess: Bool = false)
    -> TopicRegistry
  {
    loadCatalog(packDirectories: packDirectories, pluginDirectories: pluginDirectories, inProcess: inProcess).registry
  }

  /// The topics, and the packs they were compiled from.
  func loadCatalog(
    packDirectories: [String] = [], pluginDirectories: [String] = [], inProcess: Bool = false,
    userPackCheck: ReadingCheck? = nil, reusing earlier: PackLoad? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) -> (packs: PackLoad, registry: TopicRegistry) {
    host.loadCatalog(
      packDirectories: packDirectories, pluginDirectories: pluginDirectories, inProcess: inProcess,
      workerExecutable: TopicRegistry.ownExecutable, now: now,
      userPackCheck: userPackCheck, reusing: earlier, isCancelled: isCancelled)
  }

  /// `loadCatalog` begun: one topic may be asked for before `finish` has loaded the rest.
  func beginCatalog(packDirectories: [String], pluginDirectories: [String], inProcess: Bool) -> CatalogLoading {
    host.beginCatalog(
      packDirectories: packDirectories, pluginDirectories: pluginDirectories, inProcess: inProcess,
      workerExecutable: TopicRegistry.ownExecutable, now: now)
  }

  /// Changes when any pack file or plugin library that `loadCatalog` would load changes.
  func sourceStamp(packDirectories: [String] = [], pluginDirectories: [String] = []) -> String {
    host.sourceStamp(packDirectories: packDirectories, pluginDirectories: pluginDirectories)
  }

  /// The speaker for `--speak` and `biki say`: the engine chosen from what is installed (the
  /// voice `voice`, if given), Open JTalk's audio kept in `$XDG_CACHE_HOME/biki/speech`.
  func speaker(voice: String?, style: SpeechStyle = .normal, ahead: AudioAhead = AudioAhead()) -> Speaker {
    let directory = host.speechDirectory
    return Speaker(
      engine: speechEngine(voice: voice, directory: directory), directory: directory, system: speech, style: style,
      ahead: ahead)
  }

  /// The voices installed, for `biki say --voices`.
  var voices: VoiceList { VoiceList.find(environment: variables, system: speech) }

  /// The engine that speaks (`biki say --engine` names it), chosen from what is installed.
  func speechEngine(voice: String?, directory: String? = nil) -> SpeechEngine {
    // The voice found last time, written down beside the audio: finding it again may mean
    // asking python3, which a pyenv shim answers in 0.4 s, too slow for each `biki say`.
    let note = (directory ?? host.speechDirectory) + "/voice"
    let remembered = (try? RegularFile.read(note, limit: 4096, links: .refuse)).map {
      String(decoding: $0, as: UTF8.self)
    }
    let engine = SpeechEngine.choose(environment: variables, voice: voice, remembered: remembered, system: speech)
    if case .openJTalk(let openJTalk, _) = engine, voice == nil, variables["BIKI_VOICE"]?.isEmpty ?? true,
      openJTalk.voice != remembered
    {
      try? WholeFile.replace(note, with: Array(openJTalk.voice.utf8), mode: 0o600)
    }
    return engine
  }

  /// The answer history, `$XDG_STATE_HOME/biki/history.jsonl`; without a state directory,
  /// none, and every attempt to record says why.
  var history: AnswerHistory {
    host.historyPath.map { .file(path: $0, practiceDay: practiceDay) }
      ?? .unavailable(reason: XDGDirectories.noStateHome)
  }
}

/// Lines in and out. Output is written as it happens, since a quiz is a conversation.
struct Console: Sendable {
  /// A line, with a preview shown after it as it is typed, in a terminal.
  var read: @Sendable (_ preview: (@Sendable (String) -> String?)?) -> String?
  var write: @Sendable (String) -> Void
  var writeError: @Sendable (String) -> Void
  /// Whether input comes from a person at a terminal (prompts and menus) or a script.
  var isInteractive: Bool
  /// How many lines and columns the terminal shows, when output goes to one.
  var size: @Sendable () -> (rows: Int, columns: Int)? = { nil }

  /// A person at a terminal gets line editing (`LineEditor`); a script's lines are read as
  /// they come.
  private static let terminal: TerminalInput? = isatty(0) == 1 && isatty(1) == 1 ? TerminalInput() : nil

  func readLine(preview: (@Sendable (String) -> String?)? = nil) -> String? { read(preview) }

  static let live = Console(
    read: { preview in
      guard let terminal else { return Swift.readLine(strippingNewline: true) }
      return terminal.readLine(preview: preview) { Swift.readLine(strippingNewline: true) }
    },
    // The quiz makes each line safe as it forms it; this catches any line that was missed.
    write: { StandardStreams.writeOutput(TerminalText.safe($0, keepingLayout: true) + "\n") },
    writeError: { StandardStreams.writeError(TerminalText.safe($0, keepingLayout: true) + "\n") },
    isInteractive: isatty(0) == 1,
    size: {
      var size = winsize()
      guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
      return (Int(size.ws_row), Int(size.ws_col))
    })
}
