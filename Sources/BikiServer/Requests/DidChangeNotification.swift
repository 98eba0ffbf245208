import BikiJSON
import BikiProtocol

/// `textDocument/didChange`: edits to an open document, applied in order.
struct DidChangeNotification: ClientMessage {
  static let method = "textDocument/didChange"

  /// One content change. Those that cannot be applied are kept, in their places: the changes
  /// before them apply, and the server drops the document at the first one it cannot apply.
  enum Change: Equatable, Sendable {
    /// The whole text (a change with no range).
    case whole(String)
    case edit(IncrementalChange)
    case missingText
    /// A `range` that is not a range.
    case invalidRange
  }

  var uri: String
  var version: Int64?
  var changes: [Change]

  init(uri: String, version: Int64? = nil, changes: [Change]) {
    self.uri = uri
    self.version = version
    self.changes = changes
  }

  /// A version that is not a whole number is dropped rather than costing the edit.
  init(_ params: Params) throws(ResponseError) {
    let document = try params.object("textDocument")
    uri = try document.string("uri")
    guard case .array(let changes)? = params.value?["contentChanges"] else {
      throw .invalidParams("\"contentChanges\" must be an array of changes")
    }
    self.changes = changes.map(Self.change)
    version = try? document.optionalInteger("version")
  }

  private static func change(_ json: JSON) -> Change {
    guard let text = json["text"]?.stringValue else { return .missingText }
    guard let range = json["range"] else { return .whole(text) }
    return IncrementalChange(range: range, text: text).map(Change.edit) ?? .invalidRange
  }

  var params: JSON {
    var document: [(String, JSON)] = [("uri", .string(uri))]
    if let version { document.append(("version", .integer(version))) }
    return ["textDocument": .object(pairs: document), "contentChanges": .array(changes.map(\.json))]
  }
}

extension DidChangeNotification.Change {
  /// As a client sends it; the two that cannot be applied as the simplest such changes.
  var json: JSON {
    switch self {
    case .whole(let text): ["text": .string(text)]
    case .edit(let edit): ["range": ["start": edit.start.json, "end": edit.end.json], "text": .string(edit.text)]
    case .missingText: [:]
    case .invalidRange: ["range": .null, "text": ""]
    }
  }
}
