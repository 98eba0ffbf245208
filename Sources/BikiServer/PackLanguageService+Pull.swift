import BikiJSON
import BikiProtocol

/// Diagnostics for a client that pulls them (LSP 3.17): a document's are answered once its
/// current text is checked, `unchanged` when the client has them already; the workspace's are
/// every open document's that are known. Nothing is pushed to such a client.
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

  /// `workspace/diagnostic`: each open document whose current text is checked.
  func workspaceReport(_ request: WorkspaceDiagnosticRequest) -> JSON {
    let items: [JSON] = documents.keys.sorted().compactMap { uri in
      guard let document = documents[uri], let report = document.report, report.edit == document.edits,
        document.checkAt == nil, checks[uri] == nil
      else { return nil }
      return .object(
        pairs: [("uri", .string(uri)), ("version", report.version.map { .integer($0) } ?? .null)]
          + Self.pairs(resultID: report.resultID, items: report.items, previous: request.previousResultIDs[uri]))
    }
    return ["items": .array(items)]
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
