import BikiHost
import BikiJSON
import BikiPacks
import BikiProtocol

/// Reloading packs and plugins off the message loop. A reload checks the user's own packs as
/// `biki-pack lint` checks them (every question of a topic, up to lint's limits), so the
/// problems it lists are the ones lint reports for the same file and no topic lint refuses is
/// served. Built-in packs keep their quick check: they are shipped lint-clean.
struct PackReload {
  let work: WorkTicket
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
  /// `biki/reloadPacks`: answered once the reload is done.
  mutating func reloadPacks(_ replyID: RequestID, outbox: inout [OutgoingMessage]) -> Reply {
    startReload(reply: replyID, outbox: &outbox)
    return .later
  }

  /// Starts loading the catalog again off the loop. A reload already running is superseded
  /// (the files may have changed since it began): its waiting requests and announcement pass
  /// to the new one.
  mutating func startReload(
    reply: RequestID? = nil, announce: PackReload.Announce = .never, outbox: inout [OutgoingMessage]
  ) {
    packStamp = dependencies.packStamp()
    client.beginProgress("reload", title: "Biki: loading packs", cancellable: true, outbox: &outbox)
    if let reply { open.add(reply, .reload) }
    var announcement = announce
    if let running = reload {
      running.work.cancel()
      announcement = max(announcement, running.announce)
    }
    let (dependencies, serving) = (dependencies, catalog.packs)
    let load: @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Catalog = { isCancelled in
      dependencies.loadCheckedCatalog?(serving, isCancelled) ?? dependencies.loadCatalog()
    }
    let work = dependencies.background.start(load, reporting: { .catalog($0, $1) }, to: mailbox)
    reload = PackReload(work: work, announce: announcement)
  }

  /// `window/workDoneProgress/cancel` on a reload's progress: the reload stops, the packs loaded
  /// before keep serving (until the files change again, or `biki/reloadPacks`), and requests
  /// waiting for it are told it was cancelled.
  mutating func progressCancelled(_ params: JSON?, outbox: inout [OutgoingMessage]) {
    guard let token = params?["token"]?.stringValue, client.subject(ofProgress: token) == "reload",
      let running = reload
    else { return }
    running.work.cancel()
    reload = nil
    for id in open.reloadRequests {
      open.remove(id)
      outbox.append(
        .error(
          id: id,
          ResponseError(
            code: ResponseError.requestCancelled,
            message: "the reload was cancelled from its progress; the packs loaded before still serve")))
    }
    client.endProgress("reload", message: "cancelled", outbox: &outbox)
  }

  /// A finished reload: the catalog it made serves, waiting requests are answered, and the
  /// result is announced as asked. A superseded reload's catalog is dropped.
  mutating func reloadFinished(_ ticket: WorkTicket, _ found: Catalog, outbox: inout [OutgoingMessage]) {
    guard let running = reload, running.work === ticket else { return }
    reload = nil
    finish(running, found, answering: open.reloadRequests, outbox: &outbox)
    client.endProgress("reload", message: "\(catalog.registry.topics.count) topics", outbox: &outbox)
  }

  private mutating func finish(
    _ running: PackReload, _ found: Catalog, answering replies: [RequestID], outbox: inout [OutgoingMessage]
  ) {
    let changed = adopt(found)
    let announces = running.announce == .always || (running.announce == .ifChanged && changed)
    // A report lists every problem: with 100,000 topics of one's own that is tens of MB,
    // written only when someone is told it.
    if !replies.isEmpty || announces {
      let report = PacksReport.written(catalog)
      for id in replies {
        open.remove(id)
        outbox.append(.result(id: id, report))
      }
      if announces { outbox.append(.notification(method: "biki/packsChanged", params: report)) }
    }
    // A client that pulls diagnostics holds what it pulled: told to pull again, it sees what
    // the packs now say, in closed packs and in open documents that clash with them.
    if changed, language.pullsDiagnostics { client.refreshDiagnostics(outbox: &outbox) }
  }

  /// Serves `found`; returns whether it differs from the catalog it replaces (topics or
  /// problems). The catalog replaced is let go before anything else is made: at the reload's
  /// peak two catalogs are held, and nothing more.
  private mutating func adopt(_ found: Catalog) -> Bool {
    let sameTopics = catalog.registry.topics.elementsEqual(found.registry.topics) {
      ($0.topic.id, $0.source) == ($1.topic.id, $1.source)
    }
    let changed = !sameTopics || !PacksReport.same(catalog, found)
    catalog = found
    // A clash with a pack that changed on disk changes what an open document shows.
    language.checkAllAgain(now: dependencies.now())
    return changed
  }
}
