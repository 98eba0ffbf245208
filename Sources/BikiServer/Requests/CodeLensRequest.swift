import BikiCore
import BikiJSON
import BikiProtocol

/// `textDocument/codeLens`: a "sample" lens on each topic of a pack.
struct CodeLensRequest: ClientMessage {
  static let method = "textDocument/codeLens"

  var uri: String

  init(uri: String) { self.uri = uri }

  init(_ params: Params) throws(ResponseError) {
    uri = try Self.documentURI(params)
  }

  var params: JSON { ["textDocument": Self.textDocument(uri)] }
}

/// `workspace/executeCommand`: the commands the server's lenses name. `biki.sample` takes the
/// document's URI and a topic id (`pack.topic`).
struct ExecuteCommandRequest: ClientMessage {
  static let method = "workspace/executeCommand"
  static let sample = "biki.sample"

  var command: String
  var uri: String
  var topicID: String

  init(command: String, uri: String, topicID: String) {
    self.command = command
    self.uri = uri
    self.topicID = topicID
  }

  init(_ params: Params) throws(ResponseError) {
    let command = try params.string("command")
    guard command == Self.sample else {
      throw .invalidParams(
        "\"command\": no command \"\(Excerpt.of(command, limit: 80))\"; the server offers \"\(Self.sample)\"")
    }
    guard let arguments = params.value?["arguments"]?.arrayValue, arguments.count == 2,
      let uri = arguments[0].stringValue, let topicID = arguments[1].stringValue
    else { throw .invalidParams("\"arguments\" must be [document URI, topic id] for \"\(Self.sample)\"") }
    self.init(command: command, uri: uri, topicID: topicID)
  }

  var params: JSON { ["command": .string(command), "arguments": [.string(uri), .string(topicID)]] }
}
