import BikiCore
import BikiHost
import BikiJSON
import BikiJapanese
import BikiPacks
import BikiPractice
import BikiProtocol
import BikiSync
import Dispatch

/// What the server serves: the topics, and the packs they came from (open pack documents are
/// checked against these, as `biki-pack lint` checks a file against the installed packs).
package struct Catalog: Sendable {
  let registry: TopicRegistry
  let packs: PackLoad
  /// The directories packs are loaded from, empty ones included: a file an author creates in
  /// one is a pack before it has a line of text.
  let packDirectories: [String]
  /// Each topic's place in the registry by id (the first of an id, as the registry lists them):
  /// every request names one.
  private let placeByID: [String: Int]
  /// The entries of the topics asked for, made on first use: an entry keeps what serving its
  /// topic needs (about 450 bytes), and a catalog of 100,000 topics is mostly never asked.
  private let entries = Locked<[Int: CatalogEntry]>([:])
  /// What did-you-mean needs: the ids prepared on the first miss (most catalogs never have one,
  /// and start-up should not pay for it), and the suggestion for ids asked for lately and not
  /// found, as a client with a stale id sends it again and again. Emptied when full.
  private let misses = Locked<(index: SuggestionIndex?, recent: [String: String?])>((nil, [:]))

  package init(registry: TopicRegistry, packs: PackLoad, packDirectories: [String] = []) {
    self.registry = registry
    self.packs = packs
    self.packDirectories = packDirectories
    var places: [String: Int] = [:]
    places.reserveCapacity(registry.topics.count)
    for (place, registered) in registry.topics.enumerated() where places[registered.topic.id] == nil {
      places[registered.topic.id] = place
    }
    self.placeByID = places
  }

  func topic(id: String) -> CatalogEntry? {
    guard let place = placeByID[id] else { return nil }
    return entries.withLock { entries in
      if let made = entries[place] { return made }
      let made = CatalogEntry(registry.topics[place])
      entries[place] = made
      return made
    }
  }

  /// The topic id closest to `id`, a typo of one, if any.
  func suggestion(for id: String) -> String? {
    // An id longer than any name Biki suggests is no typo; it is not worth remembering either.
    guard id.utf8.count <= 4 * Suggestion.maximumWordLength else { return nil }
    let topics = registry.topics
    return misses.withLock { misses in
      if let known = misses.recent[id] { return known }
      let index = misses.index ?? SuggestionIndex(topics.map(\.topic.id))
      let found = index.closest(to: id)
      if misses.recent.count >= 64 { misses.recent.removeAll(keepingCapacity: true) }
      misses.index = index
      misses.recent[id] = found
      return found
    }
  }
}

extension Catalog {
  /// No topics and no packs: what the server has while its first catalog loads.
  static let empty: Catalog = {
    let packs = PackLoad(packs: [], crossPackDiagnostics: [], topics: [])
    return Catalog(registry: TopicRegistry.load(packs: packs, plugins: [], isolation: .inProcess), packs: packs)
  }()
}

/// The first catalog as it loads: the whole once every pack and plugin is loaded, and before
/// that one pack topic at a time, as soon as the files that could define it are compiled.
package struct CatalogStart: Sendable {
  /// The pack topic `id` as the whole catalog will serve it; nil when it cannot be had sooner
  /// than the whole (no pack defines it, or a plugin does too). May wait, never for `finish`.
  package var topic: @Sendable (_ id: String) -> RegisteredTopic?
  /// The whole catalog, loaded on the calling thread. Called once.
  package var finish: @Sendable () -> Catalog

  package init(
    topic: @Sendable @escaping (_ id: String) -> RegisteredTopic?, finish: @Sendable @escaping () -> Catalog
  ) {
    self.topic = topic
    self.finish = finish
  }

  /// A load that serves nothing before it is whole.
  static func whole(_ load: @Sendable @escaping () -> Catalog) -> CatalogStart {
    CatalogStart(topic: { _ in nil }, finish: load)
  }
}

/// The first catalog and the pack stamp it was loaded under, filled off the loop once; before
/// that, the topics requests asked for that could be served sooner (`early`).
final class FirstCatalog: Sendable {
  private let loaded = Locked<(Catalog, String)?>(nil)
  private let done = DispatchSemaphore(value: 0)
  /// The load, once begun off the loop.
  private let begun = Awaited<CatalogStart>()
  /// The topics served before the whole catalog, and a catalog of them alone.
  private let served = Locked<(topics: [RegisteredTopic], catalog: Catalog)>(([], .empty))

  /// Loads the catalog with `start`, on the calling thread (off the loop).
  func load(_ start: CatalogStart, stamp: @Sendable () -> String) {
    begun.put(start)
    let catalog = start.finish()
    loaded.withLock { $0 = (catalog, stamp()) }
    done.signal()
  }

  var ifLoaded: (Catalog, String)? { loaded.withLock { $0 } }

  func wait() -> (Catalog, String) {
    if let ready = ifLoaded { return ready }
    done.wait()
    done.signal()
    return ifLoaded ?? (.empty, "")
  }

  /// A catalog holding the pack topic `id` (and the others served early) while the whole one
  /// loads, or nil when the request should wait for the whole: it has loaded, or the topic
  /// cannot be had sooner (`CatalogStart.topic`), or it is a plugin's.
  func early(_ id: String) -> Catalog? {
    guard ifLoaded == nil else { return nil }
    let sofar = served.withLock { $0.catalog }
    if sofar.topic(id: id) != nil { return sofar }
    guard let found = begun.value.topic(id), !found.callsPlugin else { return nil }
    return served.withLock { served in
      served.topics.append(found)
      served.catalog = Catalog(registry: TopicRegistry(topics: served.topics, problems: []), packs: Catalog.empty.packs)
      return served.catalog
    }
  }
}

/// A topic as requests find it: one lookup gives the topic and its shared generator.
final class CatalogEntry: Sendable {
  let registered: RegisteredTopic
  /// The generator with the default parameters, made on first use: most requests ask for no
  /// overrides, and making one costs more than the question it asks.
  private let defaultGenerator = Locked<QuestionGenerator?>(nil)

  /// The seeds clients have asked for lately, for making a plugin's questions ahead.
  let readahead = Locked(Readahead())
  /// Its questions with the default parameters as `biki/generate` wrote them.
  let written = WrittenQuestions()

  init(_ registered: RegisteredTopic) { self.registered = registered }

  /// The generator with the default parameters, if it is made already: making it may ask a
  /// plugin for its question count, which is never done on the message loop.
  var madeGenerator: QuestionGenerator? { defaultGenerator.withLock { $0 } }

  var topic: Topic { registered.topic }

  /// A generator for these parameters, shared when they are the defaults. A generator is a
  /// value whose questions depend only on their seeds, so sharing it changes no question.
  func generator(parameters: [String: Int64]) throws(ParameterError) -> QuestionGenerator {
    guard parameters.isEmpty else { return try registered.generator(parameters: parameters) }
    if let made = defaultGenerator.withLock({ $0 }) { return made }
    let made = try registered.generator()
    defaultGenerator.withLock { $0 = made }
    return made
  }
}

/// What the server needs from the world; `biki serve` passes the live ones.
package struct ServerDependencies: Sendable {
  /// The catalog as it loads at start-up: quickly, packs checked on a sample of their questions.
  var loadCatalog: @Sendable () -> Catalog
  /// The same load, begun so that a request for one pack topic is served before the whole has
  /// loaded (`CatalogStart`); nil: the start-up waits for `loadCatalog`.
  package var beginCatalog: (@Sendable () -> CatalogStart)?
  /// The catalog as a reload makes it, off the message loop: packs not built into Biki checked
  /// as `biki-pack lint` checks them, so the problems it lists are the ones lint reports and
  /// no topic lint refuses is served. Nil: `loadCatalog`.
  /// The packs being served are handed in: a file unchanged since is not compiled again, and the
  /// two catalogs share its topics (`PackLoader.reload`).
  var loadCheckedCatalog: (@Sendable (_ serving: PackLoad, _ isCancelled: @escaping @Sendable () -> Bool) -> Catalog)?
  /// Changes whenever a pack file is added, removed or modified; polled to notice edits.
  var packStamp: @Sendable () -> String
  var history: AnswerHistory
  /// Seconds on a monotonic clock, for time limits, debouncing and polling.
  var now: @Sendable () -> Double
  /// Seconds since 1970, stamped on history entries.
  var wallClock: @Sendable () -> Double
  var seeds: SeedSource
  /// One spelling per file, to match a document to the pack it is a copy of.
  var canonicalPath: @Sendable (String) -> String
  /// How thoroughly open pack documents are checked; lint's default.
  var readingCheck: ReadingCheck
  /// Where document checks run: a thread of their own, or at once in tests.
  var background: BackgroundRunner
  /// Whether the first catalog loads off the loop (through `background`) while `initialize` is
  /// answered, as language servers index after they answer: the first request that needs it
  /// waits for it. False: it is loaded before the server exists (tests that hold their work).
  package var loadsCatalogAhead = false
  /// Starts making the audio of a session's listening question (its reading, and the text it
  /// reads) as the session asked it spoken, off the message loop, so the client's `biki say`
  /// finds it made; returns at once.
  package var prepareSpeech:
    @Sendable (_ session: String, _ speech: SpeechChoice, _ reading: String, _ text: String) -> Void = { _, _, _, _ in }
  /// Drops the audio still to be made for a session that ended; returns at once.
  package var endSpeech: @Sendable (_ session: String) -> Void = { _ in }
  /// Gives memory freed after a burst of work (a reload, the last of a run of checks) back to
  /// the system; called on the loop.
  package var releaseMemory: @Sendable () -> Void = {}
  /// From now on every load and stamp of the catalog also reads these pack and plugin
  /// directories (the client's settings), beside the command line's.
  package var useDirectories: @Sendable (_ packs: [String], _ plugins: [String]) -> Void = { _, _ in }
  /// The pack and plugin directories the stamp watches (not the built-in ones), for a client
  /// that watches files for the server.
  package var watchedDirectories: @Sendable () -> [String] = { [] }
  /// Fits the scheduler to the history again if a refit is due, off the loop; called at
  /// start-up and whenever a session ends (`BackgroundRefit`); returns at once.
  package var refitScheduler: @Sendable () -> Void = {}

  package init(
    loadCatalog: @Sendable @escaping () -> Catalog, packStamp: @Sendable @escaping () -> String, history: AnswerHistory,
    now: @Sendable @escaping () -> Double, wallClock: @Sendable @escaping () -> Double, seeds: SeedSource,
    canonicalPath: @Sendable @escaping (String) -> String = { $0 }, readingCheck: ReadingCheck = .thorough,
    background: BackgroundRunner = .immediate,
    loadCheckedCatalog: (@Sendable (_ serving: PackLoad, _ isCancelled: @escaping @Sendable () -> Bool) -> Catalog)? =
      nil
  ) {
    self.loadCatalog = loadCatalog
    self.loadCheckedCatalog = loadCheckedCatalog
    self.packStamp = packStamp
    self.history = history
    self.now = now
    self.wallClock = wallClock
    self.seeds = seeds
    self.canonicalPath = canonicalPath
    self.readingCheck = readingCheck
    self.background = background
  }
}

/// The `biki/*` methods and the pack-file language features, behind the LSP lifecycle: the
/// message loop's side of the server. It holds what the loop shares (the catalog, the table of
/// open requests, the mailbox work off the loop reports to, the reload and the pack poll) and
/// routes each message to one of two services, the quiz (`quiz`, the one source of truth for
/// sessions) and the pack files as a language (`language`), which share nothing else.
///
/// Its fourteen fields are those: its name and version and the world (`dependencies`), the
/// catalog and how it is kept current (the first catalog, the reload, the pack stamp and the
/// next poll), the table and the mailbox, whether `initialize` came, the two services, and
/// what the server asks of the client (`client`).
package struct BikiServer: LanguageServer {
  package let name = "biki"
  package let version: String
  let dependencies: ServerDependencies

  var catalog: Catalog {
    didSet {
      quiz.catalog = catalog
      language.catalog = catalog
    }
  }
  /// The first catalog while it loads off the loop; nil once adopted.
  private var firstCatalog: FirstCatalog?
  /// Whether `initialize` was answered: messages to the client wait for it.
  private var initialized = false
  /// Every request answered `.later`, with what it waits for, until it is answered.
  var open = OpenRequests()
  /// Where work off the loop reports what it made; drained by `drainCompletions`.
  let mailbox = Mailbox()
  var quiz: QuizService
  /// The pack files open in the client, served as a language.
  var language: PackLanguageService
  var packStamp: String
  var nextPoll: Double
  /// The reload running off the loop, if any, and who waits for it.
  var reload: PackReload?
  /// The requests sent to the client, its settings, progress, and whether it watches the files.
  var client = ClientLink()

  static let pollInterval = 2.0

  package init(version: String, dependencies: ServerDependencies) {
    self.version = version
    self.dependencies = dependencies
    nextPoll = dependencies.now() + BikiServer.pollInterval
    guard dependencies.loadsCatalogAhead else {
      catalog = dependencies.loadCatalog()
      quiz = QuizService(dependencies: dependencies, mailbox: mailbox, catalog: catalog)
      language = PackLanguageService(dependencies: dependencies, mailbox: mailbox, catalog: catalog)
      packStamp = dependencies.packStamp()
      // Before `initialize` nothing can be sent: the client has said nothing of progress yet.
      var unsent: [OutgoingMessage] = []
      checkUserPacksFully(outbox: &unsent)
      return
    }
    let first = FirstCatalog()
    dependencies.background.run { [dependencies] in
      first.load(
        dependencies.beginCatalog?() ?? .whole(dependencies.loadCatalog), stamp: dependencies.packStamp)
    }
    firstCatalog = first
    catalog = .empty
    quiz = QuizService(dependencies: dependencies, mailbox: mailbox, catalog: .empty)
    language = PackLanguageService(dependencies: dependencies, mailbox: mailbox, catalog: .empty)
    packStamp = ""
  }

  /// Start-up checks packs on a sample, to serve at once; the user's own packs are then
  /// checked as lint checks them, and a difference is announced with `biki/packsChanged`.
  private mutating func checkUserPacksFully(outbox: inout [OutgoingMessage]) {
    if dependencies.loadCheckedCatalog != nil, catalog.packs.packs.contains(where: { $0.precedence != .builtIn }) {
      startReload(announce: .ifChanged, outbox: &outbox)
    }
  }

  /// The first catalog, once it has loaded: waited for if it has not (`wait`), else taken only
  /// when ready. Every entry point after `initialize` adopts it before it looks at the catalog.
  private mutating func adoptFirstCatalog(wait: Bool, outbox: inout [OutgoingMessage]) {
    guard let first = firstCatalog, let (loaded, stamp) = wait ? first.wait() : first.ifLoaded else { return }
    firstCatalog = nil
    catalog = loaded
    packStamp = stamp
    checkUserPacksFully(outbox: &outbox)
    if initialized { logUnloadedSources(outbox: &outbox) }
  }

  /// Whether the request is served before the first catalog has loaded: a question or a
  /// session on one pack topic, as soon as the files that could define it are compiled
  /// (`FirstCatalog.early`), with a catalog of the topics so served until the whole is adopted.
  /// Every other request waits for the whole.
  private mutating func servesEarly(_ method: String, _ params: JSON?) -> Bool {
    guard let first = firstCatalog, method == GenerateRequest.method || method == StartSessionRequest.method,
      let topicID = params?["topicId"]?.stringValue, let early = first.early(topicID)
    else { return false }
    catalog = early
    return true
  }

  /// Sources that failed to load, told to the client's log once.
  private func logUnloadedSources(outbox: inout [OutgoingMessage]) {
    for (path, diagnostic) in catalog.registry.problems where diagnostic.severity == .error {
      outbox.append(Self.log("not loaded: \(diagnostic.formatted(path: path))", type: 2))
    }
  }

  package mutating func initialize(params: JSON?, outbox: inout [OutgoingMessage]) -> JSON {
    let formats = params?["capabilities"]?["textDocument"]?["hover"]?["contentFormat"]?.arrayValue ?? []
    language.hoverMarkdown = formats.contains { $0.stringValue == "markdown" }
    language.hierarchicalSymbols =
      params?["capabilities"]?["textDocument"]?["documentSymbol"]?["hierarchicalDocumentSymbolSupport"]?.boolValue
      ?? false
    language.positionEncoding = .negotiated(params)
    client.abilities = ClientLink.Abilities(params)
    if let options = params?["initializationOptions"], options.isObject {
      let section = options["biki"].flatMap { $0.isObject ? $0 : nil } ?? options
      apply(section, outbox: &outbox)
    }
    // LSP 3.17: a client that can pull diagnostics is answered when it asks, and sent none.
    language.pullsDiagnostics = params?["capabilities"]?["textDocument"]?["diagnostic"]?.isObject ?? false
    for warning in dependencies.history.summary().warnings { outbox.append(Self.log(warning, type: 2)) }
    dependencies.refitScheduler()
    initialized = true
    adoptFirstCatalog(wait: false, outbox: &outbox)
    if firstCatalog == nil {
      drainCompletionsQuietly(outbox: &outbox)
      logUnloadedSources(outbox: &outbox)
    }
    var capabilities: [(String, JSON)] = [
      ("positionEncoding", .string(language.positionEncoding.rawValue)),
      ("textDocumentSync", ["openClose": true, "change": 2, "save": false]), ("hoverProvider", true),
      ("codeActionProvider", ["codeActionKinds": ["quickfix"]]), ("documentSymbolProvider", true),
      ("definitionProvider", true),
      ("completionProvider", ["triggerCharacters": ["\""]]), ("documentFormattingProvider", true),
      ("renameProvider", ["prepareProvider": true]),
      ("inlayHintProvider", true), ("codeLensProvider", ["resolveProvider": false]),
      ("executeCommandProvider", ["commands": [.string(ExecuteCommandRequest.sample)]]),
      ("experimental", ["biki": ["protocolVersion": 1]]),
    ]
    if language.pullsDiagnostics {
      capabilities.append(
        ("diagnosticProvider", ["identifier": "biki", "interFileDependencies": true, "workspaceDiagnostics": true]))
    }
    return .object(pairs: capabilities)
  }

  package mutating func request(_ id: RequestID, _ method: String, params: JSON?, outbox: inout [OutgoingMessage])
    throws(ResponseError) -> Reply
  {
    if !servesEarly(method, params) { adoptFirstCatalog(wait: true, outbox: &outbox) }
    guard let handle = Dispatcher.handler(for: method) else { throw .methodNotFound(method) }
    // A second request under the id of one still waiting for its response could not be told
    // apart from it, in the response or in a cancel.
    if hasPendingRequests, isWaiting(id) {
      throw ResponseError(
        code: ResponseError.invalidRequest,
        message:
          "request id \(id.json.serialized) is still waiting for its response; use an id no request in flight has")
    }
    let reply = try dispatch(id, params, to: handle, outbox: &outbox)
    // Work that finished at once (a test's runner, or a reload already done) is answered now.
    if case .later = reply, !mailbox.isEmpty { drainCompletions(outbox: &outbox) }
    return reply
  }

  /// A UTF-8 client's positions are converted on the way in and out, against the document's
  /// text; every other client's pass untouched.
  private mutating func dispatch(
    _ id: RequestID, _ params: JSON?, to handle: Dispatcher.RequestHandler, outbox: inout [OutgoingMessage]
  ) throws(ResponseError) -> Reply {
    guard language.positionEncoding == .utf8, let uri = params?["textDocument"]?["uri"]?.stringValue,
      let text = language.documents[uri]?.text
    else {
      return try handle(&self, id, Params(params), &outbox)
    }
    let lines = LineIndex(text)
    let reply = try handle(&self, id, Params(params.map(lines.toUTF16)), &outbox)
    guard case .result(let result) = reply else { return reply }
    return .result(lines.toUTF8(result))
  }

  /// Unknown notifications (didSave, workspace notifications) are ignored: nothing to do.
  package mutating func notification(_ method: String, params: JSON?, outbox: inout [OutgoingMessage]) {
    // Nothing asked at `initialized` needs the catalog, which may still be loading.
    if method == "initialized" { return clientReady(outbox: &outbox) }
    adoptFirstCatalog(wait: true, outbox: &outbox)
    switch method {
    case "workspace/didChangeConfiguration": configurationChanged(params, outbox: &outbox)
    case "workspace/didChangeWatchedFiles": watchedFilesChanged(outbox: &outbox)
    case "window/workDoneProgress/cancel": progressCancelled(params, outbox: &outbox)
    default: Dispatcher.notifications[method]?(&self, Params(params), &outbox)
    }
    if !mailbox.isEmpty { drainCompletions(outbox: &outbox) }
    // A close answers a pull waiting for that document; a change starts its check at once.
    if !open.isEmpty { answerDiagnosticPulls(outbox: &outbox) }
  }

  /// The pack poll, the next debounced check, the next time limit. Finished work needs no
  /// deadline: it wakes the loop itself.
  package var nextDeadline: Double? {
    mutating get {
      // Due at once: the loop's next pass starts them, after reading what else has arrived.
      if open.hasGeneratesDue { return -.infinity }
      // A client that watches the files tells the server when they change: no poll.
      var deadline = client.watchRegistration == nil ? nextPoll : .infinity
      if let check = language.nextCheck { deadline = min(deadline, check) }
      if client.abilities.progress, let slow = slowCheckDue { deadline = min(deadline, slow) }
      if let limit = quiz.nextTimeLimit { deadline = min(deadline, limit) }
      return deadline.isFinite ? deadline : nil
    }
  }

  package mutating func tick(now: Double, outbox: inout [OutgoingMessage]) {
    // Loading the first catalog wakes the loop when done; until then, nothing waits for it here.
    adoptFirstCatalog(wait: false, outbox: &outbox)
    guard firstCatalog == nil else { return }
    language.checkDueDocuments(now: now)
    quiz.startWaitingGenerates(open: &open)
    showSlowChecks(now: now, outbox: &outbox)
    if now >= nextPoll, client.watchRegistration == nil {
      nextPoll = now + BikiServer.pollInterval
      if dependencies.packStamp() != packStamp { startReload(announce: .always, outbox: &outbox) }
    }
    drainCompletions(outbox: &outbox)
    quiz.finishTimedOutSessions(now: now, open: &open, outbox: &outbox)
  }

  /// `window/logMessage`: 1 error, 2 warning, 3 info.
  static func log(_ message: String, type: Int64) -> OutgoingMessage {
    .notification(method: "window/logMessage", params: ["type": .integer(type), "message": .string(message)])
  }
}
