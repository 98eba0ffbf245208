import BikiJSON
import BikiProtocol

/// A request or notification a client sends, as its params decode. Decoding reads every field
/// a handler needs, in a fixed order, so the first problem a client is told of does not depend
/// on which handler runs; `params` writes the value back as a client would send it, for tools
/// and tests.
protocol ClientMessage: Equatable, Sendable {
  static var method: String { get }
  init(_ params: Params) throws(ResponseError)
  var params: JSON { get }
}

extension ClientMessage {
  /// The `textDocument.uri` of an LSP request.
  static func documentURI(_ params: Params) throws(ResponseError) -> String {
    try params.object("textDocument").string("uri")
  }

  static func textDocument(_ uri: String) -> JSON { ["uri": .string(uri)] }

  /// Topic parameters, in a stable order so the same request is written the same way.
  static func parametersJSON(_ parameters: [String: Int64]) -> JSON {
    .object(pairs: parameters.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })
  }
}
