import BikiJSON
import BikiPacks
import BikiProtocol

/// Diagnostics for a client that pulls them (LSP 3.17): a document's are answered once its
/// current text is checked, `unchanged` when the client has them already; the workspace's are
/// every open document's that are known, and every pack of the user's not open, as it was last
/// loaded. Nothing is pushed to such a client.
extension PackLanguageService {
  /// The report for `uri`, or nil while its current text is still to be checked (the check is
  /// then started at once: the client is asking now). A document not open has none.
  mutating func pulledReport(_ request: DocumentDiagnosticRequest) -> JSON? {
    guard let document = documents[request.uri] else {
      return Self.full(resultID: "closed", items: [], previous: request.previousResultID)
    }
    if let report = document.report, report.edit == document.edits, document.checkAt == nil,
      checks[request.uri] == nil
    {
      return Self.full(resultID: report.resultID, items: report.items, previous: request.previousResultID)
    }
    if checks[request.uri] == nil || document.checkAt != nil { startCheck(request.uri) }
    return nil
  }

  /// `workspace/diagnostic`: each open document whose current text is checked, then each of the
  /// user's packs not open.
  func workspaceReport(_ request: WorkspaceDiagnosticRequest) -> JSON {
    let open: [JSON] = documents.keys.sorted().compactMap { uri in
      guard let document = documents[uri], let report = document.report, report.edit == document.edits,
        document.checkAt == nil, checks[uri] == nil
      else { return nil }
      return .object(
        pairs: [("uri", .string(uri)), ("version", report.version.map { .integer($0) } ?? .null)]
          + Self.pairs(resultID: report.resultID, items: report.items, previous: request.previousResultIDs[uri]))
    }
    return ["items": .array(open + closedPackItems(request))]
  }

  /// The user's packs not open in the client, with what their last load found (a reload checks
  /// them as lint does), so the client lists a workspace's problems before a file is opened.
  /// Built-in packs are Biki's, never the user's to fix, and are left out.
  private func closedPackItems(_ request: WorkspaceDiagnosticRequest) -> [JSON] {
    let openPaths = Set(documents.keys.compactMap(DocumentURI.path))
    var problems: [String: [Diagnostic]] = [:]
    for (path, diagnostic) in catalog.registry.problems { problems[path, default: []].append(diagnostic) }
    return catalog.packs.packs.compactMap { pack -> JSON? in
      guard pack.precedence != .builtIn, let text = pack.text, !openPaths.contains(pack.path) else { return nil }
      let uri = DocumentURI.fileURI(pack.path)
      let diagnostics = JSON.array((problems[pack.path] ?? []).map(WireFormat.diagnostic))
      let items = positionEncoding == .utf8 ? LineIndex(text).toUTF8(diagnostics) : diagnostics
      // Named by what it holds, so the same problems after a reload are `unchanged`.
      let resultID = "pack-" + String(Self.fingerprint(items.bytes), radix: 16)
      return .object(
        pairs: [("uri", .string(uri)), ("version", .null)]
          + Self.pairs(resultID: resultID, items: items, previous: request.previousResultIDs[uri]))
    }
  }

  /// FNV-1a: the same bytes give the same result id in every run.
  static func fingerprint(_ bytes: [UInt8]) -> UInt64 {
    bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
  }

  /// A full report, or `unchanged` when the client has this result.
  static func full(resultID: String, items: JSON, previous: String?) -> JSON {
    .object(pairs: pairs(resultID: resultID, items: items, previous: previous))
  }

  private static func pairs(resultID: String, items: JSON, previous: String?) -> [(String, JSON)] {
    guard previous != resultID else { return [("kind", "unchanged"), ("resultId", .string(resultID))] }
    return [("kind", "full"), ("resultId", .string(resultID)), ("items", items)]
  }
}
