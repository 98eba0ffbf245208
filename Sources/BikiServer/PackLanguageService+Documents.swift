import BikiCore
import BikiHost
import BikiJSON
import BikiPacks
import BikiProtocol

/// An open pack file: the editor's text, which is the truth while it is open.
struct Document {
  var text: [UInt8]
  var version: Int64?
  /// When its diagnostics are due; nil when they are up to date.
  var checkAt: Double?
  /// Counts the texts it has had, so a check's result is known to be of the current one.
  var edits = 0
  /// The compilation of the current text, once a check of it has finished: hover reads it
  /// instead of compiling on the message loop.
  var compilation: PackCompilation?
  /// The last pack its text decoded to, kept while the text is broken mid-edit, so completion
  /// still knows the topics' variables and the pack's counters.
  var lastPack: PackDefinition?
  /// How long its last finished check took, from start to result, which sets how long the next
  /// edit waits to be checked.
  var lastCheckSeconds: Double?
  /// The diagnostics of its last finished check, for a client that pulls them.
  var report: DiagnosticReport?
}

/// A check's diagnostics as a pulling client gets them: `resultId` names this result, so a
/// client that has it is told `unchanged`.
struct DiagnosticReport {
  var resultID: String
  /// Which of the document's texts was checked (`Document.edits`).
  var edit: Int
  var version: Int64?
  /// In the client's position encoding.
  var items: JSON
}

/// Pack files as a language: full document sync, and on each change (after `debounce(afterACheckOf:)`
/// seconds) the diagnostics `biki-pack lint` would give, against the loaded packs.
/// Checks run away from the message loop, so requests are answered while a large pack is
/// checked; a newer edit or a close cancels the check it supersedes.
extension PackLanguageService {
  /// Open documents may hold this much text in all; beyond it, a document is not kept.
  static let maximumOpenBytes = 64 << 20
  static let maximumOpenDocuments = 1000

  /// `notification` is nil when its params do not decode.
  mutating func didOpen(_ notification: DidOpenNotification?, outbox: inout [OutgoingMessage]) {
    guard let notification else {
      outbox.append(
        BikiServer.log("textDocument/didOpen without textDocument.uri and textDocument.text; ignored", type: 1))
      return
    }
    let uri = notification.uri
    guard keep(uri: uri, text: Array(notification.text.utf8), version: notification.version, outbox: &outbox) else {
      return
    }
    startCheck(uri)
  }

  /// `notification` is nil when its params do not decode.
  mutating func didChange(_ notification: DidChangeNotification?, outbox: inout [OutgoingMessage]) {
    guard let notification else {
      outbox.append(
        BikiServer.log("textDocument/didChange without textDocument.uri and contentChanges; ignored", type: 1))
      return
    }
    let uri = notification.uri
    guard documents[uri] != nil else {
      outbox.append(
        BikiServer.log("textDocument/didChange for \(Excerpt.of(uri, limit: 200)), which is not open; ignored", type: 1)
      )
      return
    }
    // Incremental sync, as the server announces: each change replaces a range, or (with no
    // range) the whole text; they apply in order.
    var text = documents[uri]?.text ?? []
    for (number, change) in notification.changes.enumerated() {
      let edited: [UInt8]?
      switch change {
      case .whole(let replacement): edited = Array(replacement.utf8)
      // Nil for a range that ends before it starts or names a line the text does not have.
      case .edit(let edit): edited = edit.applied(to: text, encoding: positionEncoding)
      case .invalidRange: edited = nil
      case .missingText:
        outbox.append(
          BikiServer.log(
            "textDocument/didChange for \(Excerpt.of(uri, limit: 200)): change \(number + 1) has no \"text\"; the document is closed until it is reopened",
            type: 1))
        forgetAfterBadChange(uri, outbox: &outbox)
        return
      }
      guard let edited else {
        outbox.append(
          BikiServer.log(
            "textDocument/didChange for \(Excerpt.of(uri, limit: 200)): change \(number + 1) has no valid \"range\" (start and end, each a line and character, start first, within the document's \(Self.lineCount(text)) lines); the document is closed until it is reopened",
            type: 1))
        forgetAfterBadChange(uri, outbox: &outbox)
        return
      }
      text = edited
    }
    let checkAt =
      documents[uri]?.checkAt ?? dependencies.now()
      + delay(afterACheckOf: documents[uri]?.lastCheckSeconds)
    guard keep(uri: uri, text: text, version: notification.version, outbox: &outbox) else {
      // What was shown for the older text no longer holds.
      clearDiagnostics(uri, outbox: &outbox)
      return
    }
    documents[uri]?.checkAt = checkAt
  }

  /// Lines as LSP counts them: line breaks plus one.
  static func lineCount(_ text: [UInt8]) -> Int {
    var count = 1
    for (index, byte) in text.enumerated()
    where byte == 0x0A || (byte == 0x0D && (index + 1 == text.count || text[index + 1] != 0x0A)) {
      count += 1
    }
    return count
  }

  /// After a change that cannot be applied the server's copy is no longer the editor's text, so
  /// it is dropped (and its diagnostics cleared) rather than checked wrongly.
  private mutating func forgetAfterBadChange(_ uri: String, outbox: inout [OutgoingMessage]) {
    forget(uri)
    clearDiagnostics(uri, outbox: &outbox)
  }

  /// A close that does not decode is ignored: there is nothing to close.
  mutating func didClose(_ notification: DidCloseNotification?, outbox: inout [OutgoingMessage]) {
    guard let uri = notification?.uri, forget(uri) else { return }
    clearDiagnostics(uri, outbox: &outbox)
  }

  /// Clears what was pushed for a document; a pulling client asks again and gets nothing.
  private func clearDiagnostics(_ uri: String, outbox: inout [OutgoingMessage]) {
    guard !pullsDiagnostics else { return }
    outbox.append(
      .notification(method: "textDocument/publishDiagnostics", params: ["uri": .string(uri), "diagnostics": []]))
  }

  /// Stores a document's text unless open documents would then hold too much, which the
  /// user is told once per document; a document that is not kept is forgotten.
  private mutating func keep(uri: String, text: [UInt8], version: Int64?, outbox: inout [OutgoingMessage]) -> Bool {
    let others = openBytes - (documents[uri]?.text.count ?? 0)
    let count = documents.count + (documents[uri] == nil ? 1 : 0)
    guard others + text.count <= Self.maximumOpenBytes, count <= Self.maximumOpenDocuments else {
      forget(uri)
      let limit = "\(Self.maximumOpenDocuments) documents or \(Self.maximumOpenBytes >> 20) MiB of text"
      outbox.append(
        .notification(
          method: "window/showMessage",
          params: [
            "type": 2,
            "message": .string(
              "Biki is not checking \(Excerpt.of(uri, limit: 200)): open pack documents would exceed \(limit). Close some to have it checked."
            ),
          ]))
      return false
    }
    openBytes = others + text.count
    documents[uri] = Document(
      text: text, version: version, checkAt: nil, edits: (documents[uri]?.edits ?? 0) + 1,
      lastPack: documents[uri]?.lastPack,
      lastCheckSeconds: documents[uri]?.lastCheckSeconds, report: documents[uri]?.report)
    return true
  }

  /// Drops a document and any check of it; false if it was not open.
  @discardableResult
  private mutating func forget(_ uri: String) -> Bool {
    checks.removeValue(forKey: uri)?.work.cancel()
    guard let document = documents.removeValue(forKey: uri) else { return false }
    openBytes -= document.text.count
    return true
  }

  mutating func checkDueDocuments(now: Double) {
    for (uri, document) in documents where (document.checkAt ?? .infinity) <= now { startCheck(uri) }
  }

  /// Starts checking a document's current text, cancelling a check of an older text.
  mutating func startCheck(_ uri: String) {
    guard let document = documents[uri] else { return }
    documents[uri]?.checkAt = nil
    checks[uri]?.work.cancel()
    let packs = catalog.packs
    let directories = catalog.packDirectories
    let dependencies = dependencies
    let text = document.text
    let check: @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> DocumentCheck.Result = { isCancelled in
      Self.check(
        uri: uri, text: text, packs: packs, packDirectories: directories, dependencies: dependencies,
        isCancelled: isCancelled)
    }
    let work = dependencies.background.start(check, reporting: { .check(uri: uri, $0, $1) }, to: mailbox)
    checks[uri] = DocumentCheck(
      version: document.version, edit: document.edits, text: text, startedAt: dependencies.now(), work: work)
  }

  /// A check is done: its diagnostics are published, and its compilation kept for hover if the
  /// text it checked is still the document's. A check since superseded or closed is dropped.
  mutating func checkFinished(
    _ uri: String, _ ticket: WorkTicket, _ found: DocumentCheck.Result, outbox: inout [OutgoingMessage]
  ) {
    guard let check = checks[uri], check.work === ticket else { return }
    checks[uri] = nil
    documents[uri]?.lastCheckSeconds = dependencies.now() - check.startedAt
    if documents[uri]?.edits == check.edit {
      documents[uri]?.compilation = found.compilation
      if let pack = found.compilation?.pack { documents[uri]?.lastPack = pack }
    }
    let diagnostics = JSON.array(found.diagnostics.map(WireFormat.diagnostic))
    // Positions in the text that was checked, as the client counts them.
    let items = positionEncoding == .utf8 ? LineIndex(check.text).toUTF8(diagnostics) : diagnostics
    guard !pullsDiagnostics else {
      reportsMade += 1
      documents[uri]?.report = DiagnosticReport(
        resultID: String(reportsMade), edit: check.edit, version: check.version, items: items)
      return
    }
    var params: [(String, JSON)] = [("uri", .string(uri))]
    if let version = check.version { params.append(("version", .integer(version))) }
    params.append(("diagnostics", items))
    outbox.append(.notification(method: "textDocument/publishDiagnostics", params: .object(pairs: params)))
  }

  /// The pack checks for a document's text. Only the text is used: nothing is read from the
  /// URI, and a plugin library is never loaded from one. Runs off the message loop.
  static func check(
    uri: String, text: [UInt8], packs: PackLoad, packDirectories: [String] = [], dependencies: ServerDependencies,
    isCancelled: @escaping @Sendable () -> Bool
  ) -> DocumentCheck.Result {
    let filePath = DocumentURI.path(uri)
    let path = filePath ?? uri
    // A file must be JSON by name; an unsaved buffer is judged by its text alone.
    if filePath != nil, !path.hasSuffix(".json") || path.hasSuffix(".schema.json") {
      return DocumentCheck.Result(diagnostics: [])
    }
    let canonical = dependencies.canonicalPath(path)
    func directory(_ path: String) -> Substring { path[..<(path.lastIndex(of: "/") ?? path.startIndex)] }
    let inPackDirectory =
      filePath != nil
      && (packDirectories.contains { dependencies.canonicalPath($0) == directory(canonical) }
        || packs.packs.contains { directory(dependencies.canonicalPath($0.path)) == directory(canonical) })
    guard PackDocument.isPack(text, inPackDirectory: inPackDirectory) else {
      return DocumentCheck.Result(diagnostics: [])
    }
    let (compilation, diagnostics) = packs.lintDocument(
      path: path, text: text, check: dependencies.readingCheck, isCancelled: isCancelled
    ) {
      dependencies.canonicalPath($0) == canonical
    }
    return DocumentCheck.Result(diagnostics: diagnostics, compilation: compilation)
  }
}

/// Hover on a topic in an open pack: a few of the questions it generates, so an author sees
/// what the rules make without leaving the editor. It reads the compilation the document's
/// last check made, so hovering never compiles on the message loop.
extension PackLanguageService {
  static let hoverSamples = 4

  func hover(_ request: HoverRequest) -> JSON {
    let position = request.position
    // The last finished check of the current text; until there is one, nothing to show.
    guard let compilation = documents[request.uri]?.compilation else { return .null }
    guard let pack = compilation.pack,
      let topic = pack.topics.first(where: { $0.range.contains(line: position.line, utf16Column: position.character) })
    else { return .null }
    let id = "\(pack.id.value).\(topic.id.value)"
    var lines = [hoverMarkdown ? "**\(id)** — \(topic.title)" : "\(id) — \(topic.title)", ""]
    if let compiled = compilation.topics.first(where: { $0.topic.id == id }), let generator = try? compiled.generator()
    {
      var order = generator.order(seed: 0)
      let samples = generator.questions(
        seeds: (0..<min(UInt64(Self.hoverSamples), generator.spaceSize)).map { _ in order.next() })
      lines.append("Sample questions (\(generator.spaceSize) in all):")
      for case .success(let question) in samples {
        lines.append(
          "\(hoverMarkdown ? "- " : "  ")\(question.kanjiDisplay) · \(question.display) · \(question.reading.all().joined(separator: " / "))"
        )
      }
    } else {
      lines.append("This topic has errors; fix them to see sample questions.")
    }
    let kind: JSON = hoverMarkdown ? "markdown" : "plaintext"
    return [
      "contents": ["kind": kind, "value": .string(lines.joined(separator: "\n"))],
      "range": WireFormat.range(topic.range),
    ]
  }
}

extension SourceRange {
  /// Whether an LSP position (0-based line, UTF-16 column) falls inside.
  func contains(line: Int, utf16Column: Int) -> Bool {
    let position = (line, utf16Column)
    return (start.line, start.utf16Column) <= position && position < (end.line, end.utf16Column)
  }

  /// Whether a cursor is on this token, its end included: a string token's range holds its
  /// quotes, so a cursor on either quote (where editors leave it after a jump or a word motion)
  /// is on the name.
  func isUnder(_ position: Position) -> Bool {
    (start.line, start.utf16Column) <= (position.line, position.character)
      && (position.line, position.character) <= (end.line, end.utf16Column)
  }
}
