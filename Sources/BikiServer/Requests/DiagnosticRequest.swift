import BikiJSON
import BikiProtocol

/// `textDocument/diagnostic` (LSP 3.17): a client that pulls diagnostics asks for a document's.
struct DocumentDiagnosticRequest: ClientMessage {
  static let method = "textDocument/diagnostic"

  var uri: String
  /// The result the client has; unchanged, it is answered `unchanged`.
  var previousResultID: String?

  init(uri: String, previousResultID: String? = nil) {
    self.uri = uri
    self.previousResultID = previousResultID
  }

  init(_ params: Params) throws(ResponseError) {
    uri = try Self.documentURI(params)
    previousResultID = try params.optionalString("previousResultId")
  }

  var params: JSON {
    var members: [(String, JSON)] = [("textDocument", Self.textDocument(uri))]
    if let previousResultID { members.append(("previousResultId", .string(previousResultID))) }
    return .object(pairs: members)
  }
}

/// `workspace/diagnostic` (LSP 3.17): every open pack document's diagnostics that are known.
struct WorkspaceDiagnosticRequest: ClientMessage {
  static let method = "workspace/diagnostic"

  /// The result the client has for each document, by URI.
  var previousResultIDs: [String: String]

  init(previousResultIDs: [String: String] = [:]) { self.previousResultIDs = previousResultIDs }

  init(_ params: Params) throws(ResponseError) {
    var previous: [String: String] = [:]
    for entry in try params.optionalArray("previousResultIds") ?? [] {
      guard let uri = entry["uri"]?.stringValue, let value = entry["value"]?.stringValue else {
        throw .invalidParams("\"previousResultIds\" must be a list of {uri, value}, each a string")
      }
      previous[uri] = value
    }
    previousResultIDs = previous
  }

  var params: JSON {
    [
      "previousResultIds": .array(
        previousResultIDs.sorted { $0.key < $1.key }.map { ["uri": .string($0.key), "value": .string($0.value)] })
    ]
  }
}

extension DocumentDiagnosticRequest: ClientRequest { typealias Response = JSON }
extension WorkspaceDiagnosticRequest: ClientRequest { typealias Response = JSON }
