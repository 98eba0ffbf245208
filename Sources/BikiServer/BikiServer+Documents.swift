import BikiPacks
import BikiProtocol

/// An open pack file: the editor's text, which is the truth while it is open.
struct Document {
  var text: [UInt8]
  var version: Int64?
  /// When its diagnostics are due; nil when they are up to date.
  var checkAt: Double?
}

/// Pack files as a language: full document sync, and on each change (at most every
/// `debounce` seconds) the diagnostics `biki-pack lint` would give, against the loaded packs.
extension BikiServer {
  mutating func didOpen(_ params: Params, outbox: inout [OutgoingMessage]) {
    guard let document = try? params.object("textDocument"), let uri = try? document.string("uri"),
      let text = try? document.string("text")
    else {
      outbox.append(Self.log("textDocument/didOpen without textDocument.uri and textDocument.text; ignored", type: 1))
      return
    }
    documents[uri] = Document(text: Array(text.utf8), version: try? document.optionalInteger("version"), checkAt: nil)
    publishDiagnostics(uri, outbox: &outbox)
  }

  mutating func didChange(_ params: Params, outbox: inout [OutgoingMessage]) {
    guard let document = try? params.object("textDocument"), let uri = try? document.string("uri"),
      case .array(let changes)? = params.value?["contentChanges"]
    else {
      outbox.append(Self.log("textDocument/didChange without textDocument.uri and contentChanges; ignored", type: 1))
      return
    }
    guard documents[uri] != nil else {
      outbox.append(Self.log("textDocument/didChange for \(uri), which is not open; ignored", type: 1))
      return
    }
    // Full sync, as the server announced: the last change holds the whole text.
    guard let last = changes.last else { return }
    guard last["range"] == nil, let text = last["text"]?.stringValue else {
      outbox.append(Self.log("textDocument/didChange for \(uri) is not a full-text change; this server asks for full sync", type: 1))
      return
    }
    documents[uri]?.text = Array(text.utf8)
    documents[uri]?.version = try? document.optionalInteger("version")
    if documents[uri]?.checkAt == nil { documents[uri]?.checkAt = dependencies.now() + BikiServer.debounce }
  }

  mutating func didClose(_ params: Params, outbox: inout [OutgoingMessage]) {
    guard let uri = try? params.object("textDocument").string("uri"), documents.removeValue(forKey: uri) != nil else { return }
    outbox.append(.notification(method: "textDocument/publishDiagnostics", params: ["uri": .string(uri), "diagnostics": []]))
  }

  mutating func checkDueDocuments(now: Double, outbox: inout [OutgoingMessage]) {
    for (uri, document) in documents where (document.checkAt ?? .infinity) <= now {
      publishDiagnostics(uri, outbox: &outbox)
    }
  }

  private mutating func publishDiagnostics(_ uri: String, outbox: inout [OutgoingMessage]) {
    guard let document = documents[uri] else { return }
    documents[uri]?.checkAt = nil
    var params: [(String, JSON)] = [("uri", .string(uri))]
    if let version = document.version { params.append(("version", .integer(version))) }
    params.append(("diagnostics", .array(diagnostics(uri: uri, text: document.text).map(WireFormat.diagnostic))))
    outbox.append(.notification(method: "textDocument/publishDiagnostics", params: .object(params)))
  }

  /// The pack checks for a document's text. Only the text is used: nothing is read from the
  /// URI, and a plugin library is never loaded from one.
  func diagnostics(uri: String, text: [UInt8]) -> [Diagnostic] {
    let path = DocumentURI.path(uri) ?? uri
    guard path.hasSuffix(".json"), !path.hasSuffix(".schema.json") else { return [] }
    let canonical = dependencies.canonicalPath(path)
    return catalog.packs.lint(path: path, text: text, check: dependencies.readingCheck) { dependencies.canonicalPath($0) == canonical }
  }
}
