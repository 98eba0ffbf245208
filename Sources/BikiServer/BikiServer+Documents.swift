import BikiCore
import BikiJSON
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

/// Hover on a topic in an open pack: a few of the questions it generates, so an author sees
/// what the rules make without leaving the editor.
extension BikiServer {
  static let hoverSamples = 4

  func hover(_ params: Params) throws(ResponseError) -> JSON {
    let uri = try params.object("textDocument").string("uri")
    let position = try params.object("position")
    let line = try position.integer("line", in: 0...Int64(Int32.max))
    let character = try position.integer("character", in: 0...Int64(Int32.max))
    guard let document = documents[uri] else { return .null }
    let compilation = PackCompiler.compile(document.text, check: .sample(16))
    guard let pack = compilation.pack,
      let topic = pack.topics.first(where: { $0.range.contains(line: Int(line), utf16Column: Int(character)) })
    else { return .null }
    let id = "\(pack.id.value).\(topic.id.value)"
    var lines = ["**\(id)** — \(topic.title)", ""]
    if let compiled = compilation.topics.first(where: { $0.topic.id == id }), let generator = try? compiled.generator() {
      var order = QuestionOrder(count: generator.spaceSize, seed: 0)
      let samples = generator.questions(seeds: (0..<min(UInt64(Self.hoverSamples), generator.spaceSize)).map { _ in order.next() })
      lines.append("Sample questions (\(generator.spaceSize) in all):")
      for case .success(let question) in samples {
        lines.append("- \(question.kanjiDisplay) · \(question.display) · \(question.reading.all().joined(separator: " / "))")
      }
    } else {
      lines.append("This topic has errors; fix them to see sample questions.")
    }
    return ["contents": ["kind": "markdown", "value": .string(lines.joined(separator: "\n"))], "range": WireFormat.range(topic.range)]
  }
}

extension SourceRange {
  /// Whether an LSP position (0-based line, UTF-16 column) falls inside.
  func contains(line: Int, utf16Column: Int) -> Bool {
    let position = (line, utf16Column)
    return (start.line, start.utf16Column) <= position && position < (end.line, end.utf16Column)
  }
}
