import BikiJSON

/// A JSON-RPC request id: a number or a string.
package enum RequestID: Hashable, Sendable {
  case number(Int64)
  case string(String)

  /// The id a JSON value names, as `$/cancelRequest` gives it; nil for anything else.
  package init?(_ value: JSON?) {
    switch value {
    case .integer(let number)?: self = .number(number)
    case .string(let text)?: self = .string(text)
    default: return nil
    }
  }

  package var json: JSON {
    switch self {
    case .number(let value): .integer(value)
    case .string(let text): .string(text)
    }
  }
}

/// A JSON-RPC error, with the codes JSON-RPC 2.0 and LSP define.
package struct ResponseError: Error, Hashable, Sendable {
  package var code: Int
  package var message: String
  var data: JSON?

  package init(code: Int, message: String, data: JSON? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  static let parseError = -32700
  package static let invalidRequest = -32600
  static let methodNotFound = -32601
  package static let invalidParams = -32602
  static let internalError = -32603
  /// LSP: the document a request is about changed before it was answered.
  package static let contentModified = -32801
  static let serverNotInitialized = -32002
  package static let requestCancelled = -32800
  /// LSP 3.17: the request was valid but could not be carried out.
  package static let requestFailed = -32803

  package static func invalidParams(_ message: String) -> ResponseError {
    ResponseError(code: invalidParams, message: message)
  }
  package static func requestFailed(_ message: String) -> ResponseError {
    ResponseError(code: requestFailed, message: message)
  }

  var json: JSON {
    var members: [(String, JSON)] = [("code", .integer(Int64(code))), ("message", .string(message))]
    if let data { members.append(("data", data)) }
    return .object(pairs: members)
  }
}

/// A message from the client, as far as JSON-RPC is concerned.
package enum IncomingMessage: Equatable, Sendable {
  case request(id: RequestID, method: String, params: JSON?)
  case notification(method: String, params: JSON?)
  /// A response to a request the server sent: its result, or the error the client gave (a
  /// response the server cannot read is an error too, so it never waits for it).
  case response(id: RequestID?, Result<JSON, ResponseError>)
  /// Not a valid message; answer it with this error (the id is null when it cannot be read).
  case invalid(id: RequestID?, error: ResponseError)
  /// A notification with unusable params: never answered (JSON-RPC forbids answering a
  /// notification), but `exit` still exits and the client is told in its log.
  case invalidNotification(method: String, error: ResponseError)

  /// Classifies one framed body: a request straight from its bytes where it can
  /// (`RequestReader`), anything else through a tree.
  package static func parse(_ body: [UInt8]) -> IncomingMessage {
    RequestReader.request(body) ?? parseTree(body)
  }

  /// A request as `parse` reads it without a tree, or nil where it leaves the body to
  /// `parseTree`: for tests and the fuzz target that hold the two to the same answers.
  package static func readRequest(_ body: [UInt8]) -> IncomingMessage? { RequestReader.request(body) }

  /// Classifies one framed body by parsing it whole.
  package static func parseTree(_ body: [UInt8]) -> IncomingMessage {
    let root: JSON
    do {
      root = try JSONParser.value(body)
    } catch {
      return .invalid(
        id: nil,
        error: ResponseError(
          code: ResponseError.parseError, message: "invalid JSON at \(error.position): \(error.message)"))
    }
    if case .array = root {
      return .invalid(
        id: nil,
        error: ResponseError(
          code: ResponseError.invalidRequest, message: "batches are not supported; send one message at a time"))
    }
    guard case .object(let members) = root else {
      return .invalid(
        id: nil,
        error: ResponseError(
          code: ResponseError.invalidRequest, message: "a message must be a JSON object, not \(root.kindDescription)"))
    }
    // One pass over the members rather than a search for each; the first of a repeated key counts.
    var idValue: JSON?
    var version: JSON?
    var methodValue: JSON?
    var params: JSON?
    var result: JSON?
    var error: JSON?
    for member in members {
      switch member.key {
      case "id" where idValue == nil: idValue = member.value
      case "jsonrpc" where version == nil: version = member.value
      case "method" where methodValue == nil: methodValue = member.value
      case "params" where params == nil: params = member.value
      case "result" where result == nil: result = member.value
      case "error" where error == nil: error = member.value
      default: continue
      }
    }
    var id: RequestID?
    switch idValue {
    case .integer(let value)?: id = .number(value)
    case .string(let text)?: id = .string(text)
    case .double(let value)? where value.rounded() == value && abs(value) < 9e18: id = .number(Int64(value))
    case nil, .null?: id = nil
    case let other?:
      return .invalid(
        id: nil,
        error: ResponseError(
          code: ResponseError.invalidRequest,
          message:
            "\"id\" must be an integer or a string, not \(other.kindDescription == "a number" ? "a fraction or a number that large" : other.kindDescription)"
        ))
    }
    guard version?.stringValue == "2.0" else {
      return .invalid(
        id: id, error: ResponseError(code: ResponseError.invalidRequest, message: "\"jsonrpc\" must be \"2.0\""))
    }
    guard let methodValue else {
      if let error {
        let code = error["code"]?.integerValue.map { Int(clamping: $0) } ?? ResponseError.internalError
        let message = error["message"]?.stringValue ?? "the client's error has no message"
        return .response(id: id, .failure(ResponseError(code: code, message: message)))
      }
      if let result { return .response(id: id, .success(result)) }
      return .invalid(
        id: id, error: ResponseError(code: ResponseError.invalidRequest, message: "a request needs a \"method\""))
    }
    guard let method = methodValue.stringValue else {
      return .invalid(
        id: id, error: ResponseError(code: ResponseError.invalidRequest, message: "\"method\" must be a string"))
    }
    // `"params": null` is how several clients (eglot, jsonrpc.el) spell "no params".
    if case .null? = params { params = nil }
    if let params, !(params.isObject || params.arrayValue != nil) {
      let error = ResponseError(
        code: ResponseError.invalidParams,
        message: "\"params\" must be an object or an array, not \(params.kindDescription)")
      guard let id else { return .invalidNotification(method: method, error: error) }
      return .invalid(id: id, error: error)
    }
    guard let id else { return .notification(method: method, params: params) }
    return .request(id: id, method: method, params: params)
  }
}

/// What the server sends.
package enum OutgoingMessage: Sendable {
  case result(id: RequestID?, JSON)
  case error(id: RequestID?, ResponseError)
  case notification(method: String, params: JSON)
  /// A request to the client; its response comes back as `IncomingMessage.response`. Params of
  /// `.null` are left out: JSON-RPC allows no params but never null ones
  /// (`workspace/diagnostic/refresh` has none).
  case request(id: RequestID, method: String, params: JSON)

  package var json: JSON {
    switch self {
    case .request(let id, let method, .null):
      ["jsonrpc": "2.0", "id": id.json, "method": .string(method)]
    case .request(let id, let method, let params):
      ["jsonrpc": "2.0", "id": id.json, "method": .string(method), "params": params]
    case .result(let id, let result): ["jsonrpc": "2.0", "id": id?.json ?? .null, "result": result]
    case .error(let id, let error): ["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json]
    case .notification(let method, let params): ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }
  }

  /// The framed bytes to write.
  var framed: [UInt8] {
    var writer = JSONWriter()
    var output: [UInt8] = []
    frame(into: &output, using: &writer)
    return output
  }

  /// Appends the framed message to `output`, its body written by `writer` (cleared first).
  /// The same text as `json`, written without building the envelope as a tree: every response
  /// passes here.
  package func frame(into output: inout [UInt8], using writer: inout JSONWriter) {
    // The most common message of all, the answer to a numbered request written already: only
    // its id differs from one to the next.
    if case .result(.number(let id)?, .written(let result)) = self {
      return MessageFramer.frameResult(id: id, result, into: &output)
    }
    writer.clear()
    writer.beginObject()
    writer.key("jsonrpc")
    writer.string("2.0")
    let payload: JSON
    switch self {
    case .result(let id, let result):
      Self.write(id, to: &writer)
      writer.key("result")
      payload = result
    case .error(let id, let error):
      Self.write(id, to: &writer)
      writer.key("error")
      payload = error.json
    case .notification(let method, let params):
      writer.key("method")
      writer.string(method)
      writer.key("params")
      payload = params
    case .request(let id, let method, .null):
      Self.write(id, to: &writer)
      writer.key("method")
      writer.string(method)
      writer.endObject()
      writer.withBytes { MessageFramer.frame($0, into: &output) }
      return
    case .request(let id, let method, let params):
      Self.write(id, to: &writer)
      writer.key("method")
      writer.string(method)
      writer.key("params")
      payload = params
    }
    // The payload is the envelope's last member. A large one written already (a reload's
    // report of every problem, tens of megabytes) goes straight into the output: copied into
    // the body first, it would be held three times while it is sent.
    if case .written(let bytes) = payload, bytes.count > Self.payloadCopiedUpTo {
      writer.withBytes { MessageFramer.frame($0, bytes, UInt8(ascii: "}"), into: &output) }
      return
    }
    writer.value(payload)
    writer.endObject()
    writer.withBytes { MessageFramer.frame($0, into: &output) }
  }

  /// The largest written payload copied into the message's body; past it, it is framed in place.
  static let payloadCopiedUpTo = 64 << 10

  private static func write(_ id: RequestID?, to writer: inout JSONWriter) {
    writer.key("id")
    switch id {
    case .number(let number)?: writer.integer(number)
    case .string(let text)?: writer.string(text)
    case nil: writer.value(.null)
    }
  }
}
