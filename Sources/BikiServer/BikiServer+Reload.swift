import BikiHost
import BikiJSON
import BikiPacks
import BikiProtocol

/// Reloading packs and plugins off the message loop. A reload checks the user's own packs as
/// `biki-pack lint` checks them (every question of a topic, up to lint's limits), so the
/// problems it lists are the ones lint reports for the same file and no topic lint refuses is
/// served. Built-in packs keep their quick check: they are shipped lint-clean.
struct PackReload {
  let job: Job<Catalog>
  var announce: Announce

  /// Whether the result goes out as `biki/packsChanged`.
  enum Announce: Comparable {
    case never
    /// After start-up: only when checking the user's packs in full changed what is served
    /// or what is reported.
    case ifChanged
    /// The pack files changed on disk.
    case always
  }
}

extension BikiServer {
  /// `biki/reloadPacks`: answered once the reload is done, at once when it finishes at once.
  mutating func reloadPacks(_ replyID: RequestID, outbox: inout [OutgoingMessage]) -> Reply {
    startReload(reply: replyID)
    guard let running = reload, let found = running.job.found else { return .later }
    reload = nil
    let others = open.reloadRequests.filter { $0 != replyID }
    open.remove(replyID)
    return .result(finish(running, found, answering: others, outbox: &outbox))
  }

  /// Starts loading the catalog again off the loop. A reload already running is superseded
  /// (the files may have changed since it began): its waiting requests and announcement pass
  /// to the new one.
  mutating func startReload(reply: RequestID? = nil, announce: PackReload.Announce = .never) {
    packStamp = dependencies.packStamp()
    if let reply { open.add(reply, .reload) }
    var announcement = announce
    if let running = reload {
      running.job.cancel()
      announcement = max(announcement, running.announce)
    }
    let dependencies = dependencies
    let job = dependencies.background.start { isCancelled in
      dependencies.loadCheckedCatalog?(isCancelled) ?? dependencies.loadCatalog()
    }
    reload = PackReload(job: job, announce: announcement)
  }

  /// A finished reload: the catalog it made serves, waiting requests are answered, and the
  /// result is announced as asked.
  mutating func collectReload(outbox: inout [OutgoingMessage]) {
    guard let running = reload, let found = running.job.found else { return }
    reload = nil
    _ = finish(running, found, answering: open.reloadRequests, outbox: &outbox)
  }

  private mutating func finish(
    _ running: PackReload, _ found: Catalog, answering replies: [RequestID], outbox: inout [OutgoingMessage]
  ) -> JSON {
    let (report, changed) = adopt(found)
    for id in replies {
      open.remove(id)
      outbox.append(.result(id: id, report))
    }
    if running.announce == .always || (running.announce == .ifChanged && changed) {
      outbox.append(.notification(method: "biki/packsChanged", params: report))
    }
    return report
  }

  /// At `initialize`: a reload already done serves without being announced, as `initialize`
  /// reports its problems itself.
  mutating func adoptFinishedReloadQuietly() {
    guard let running = reload, open.reloadRequests.isEmpty, let found = running.job.found else { return }
    reload = nil
    _ = adopt(found)
  }

  /// Serves `found`; returns what reloads report and whether it differs from the catalog it
  /// replaces (topics or problems).
  private mutating func adopt(_ found: Catalog) -> (JSON, changed: Bool) {
    let before = Self.packsReport(catalog)
    let topicsBefore = catalog.registry.topics.map { "\($0.topic.id) \($0.source)" }
    catalog = found
    // A clash with a pack that changed on disk changes what an open document shows.
    let now = dependencies.now()
    language.checkAllAgain(now: now)
    let report = Self.packsReport(catalog)
    return (report, report != before || topicsBefore != catalog.registry.topics.map { "\($0.topic.id) \($0.source)" })
  }

  /// `{topicCount, problems, readingCoverage}`: what a reload reports. `readingCoverage` lists
  /// the user's pack files whose readings were checked on a spread of their questions rather
  /// than every one (as lint notes), so a clean report says how far it goes.
  static func packsReport(_ catalog: Catalog) -> JSON {
    let sampled = catalog.packs.packs.filter { $0.precedence != .builtIn && $0.compilation.readingCoverage.isSample }
    return [
      "topicCount": .integer(Int64(catalog.registry.topics.count)),
      "problems": .array(catalog.registry.problems.map { WireFormat.problem(path: $0.path, $0.diagnostic) }),
      "readingCoverage": .array(
        sampled.map { pack in
          let coverage = pack.compilation.readingCoverage
          return [
            "path": .string(pack.path), "uri": .string(DocumentURI.fileURI(pack.path)),
            "checked": .integer(Int64(clamping: coverage.checked)),
            "possible": .integer(Int64(clamping: coverage.possible)),
          ]
        }),
    ]
  }
}
