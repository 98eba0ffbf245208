import BikiJSON
import Testing

@testable import BikiProtocol

@Suite struct MessageTests {
  func parse(_ text: String) -> IncomingMessage { IncomingMessage.parse(Array(text.utf8)) }

  @Test func requestsNotificationsAndResponses() {
    #expect(
      parse(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
        == .request(id: .number(1), method: "initialize", params: [:]))
    #expect(
      parse(#"{"jsonrpc":"2.0","id":"a","method":"shutdown"}"#)
        == .request(id: .string("a"), method: "shutdown", params: nil))
    #expect(
      parse(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
        == .notification(method: "initialized", params: [:]))
    #expect(parse(#"{"jsonrpc":"2.0","id":7,"result":null}"#) == .response(id: .number(7), .success(.null)))
    // The client's answers to what the server asked: a result, or an error, however written.
    #expect(
      parse(#"{"jsonrpc":"2.0","id":"biki-1","result":[{"delay":0.2}]}"#)
        == .response(id: .string("biki-1"), .success([["delay": .double(0.2)]])))
    #expect(
      parse(#"{"jsonrpc":"2.0","id":"biki-2","error":{"code":-32601,"message":"no"}}"#)
        == .response(id: .string("biki-2"), .failure(ResponseError(code: -32601, message: "no"))))
    #expect(
      parse(#"{"jsonrpc":"2.0","id":"biki-3","error":"odd"}"#)
        == .response(
          id: .string("biki-3"), .failure(ResponseError(code: -32603, message: "the client's error has no message"))))
  }

  @Test func aRequestToTheClientIsFramedAsJSONRPC() {
    let sent = OutgoingMessage.request(id: .string("biki-1"), method: "workspace/configuration", params: ["items": []])
    let framed = String(decoding: sent.framed, as: UTF8.self)
    #expect(
      framed.hasSuffix(
        #"{"jsonrpc":"2.0","id":"biki-1","method":"workspace/configuration","params":{"items":[]}}"#))
    #expect(sent.json["method"] == "workspace/configuration")
  }

  @Test(arguments: [
    ("{oops", -32700, false), ("[]", -32600, false), (#"[{"jsonrpc":"2.0","id":1,"method":"x"}]"#, -32600, false),
    ("42", -32600, false), (#"{"jsonrpc":"1.0","id":1,"method":"x"}"#, -32600, true),
    (#"{"jsonrpc":"2.0","id":1}"#, -32600, true),
    (#"{"jsonrpc":"2.0","id":1,"method":5}"#, -32600, true),
    (#"{"jsonrpc":"2.0","id":1,"method":"x","params":3}"#, -32602, true),
    (#"{"jsonrpc":"2.0","id":{},"method":"x"}"#, -32600, false),
    (#"{"jsonrpc":"2.0","id":1e400,"method":"x"}"#, -32600, false),
    (#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#, -32600, false),
  ])
  func invalidMessagesGetTheirCode(_ text: String, _ code: Int, _ keepsID: Bool) {
    guard case .invalid(let id, let error) = parse(text) else {
      Issue.record("accepted \(text)")
      return
    }
    #expect(error.code == code)
    #expect((id != nil) == keepsID)
  }

  /// eglot and jsonrpc.el send `"params": null` for "no params" (eglot's `shutdown`, and any
  /// `(jsonrpc-request conn :method nil)`); the spec allows params to be omitted, and null reads
  /// the same.
  @Test func nullParamsReadAsAbsent() {
    #expect(
      parse(#"{"jsonrpc":"2.0","id":1,"method":"shutdown","params":null}"#)
        == .request(id: .number(1), method: "shutdown", params: nil))
    #expect(parse(#"{"jsonrpc":"2.0","method":"exit","params":null}"#) == .notification(method: "exit", params: nil))
    #expect(
      parse(#"{"jsonrpc":"2.0","id":2,"method":"biki/topics","params":null}"#)
        == .request(id: .number(2), method: "biki/topics", params: nil))
  }

  /// A notification is never answered, even when its params are unusable.
  @Test func notificationsWithBadParamsAreNotRequests() {
    guard
      case .invalidNotification("textDocument/didOpen", let error) = parse(
        #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":7}"#)
    else {
      Issue.record("not classified as a bad notification")
      return
    }
    #expect(error.code == ResponseError.invalidParams)
    #expect(error.message.contains("not a number"))
  }

  @Test func invalidUTF8IsAParseError() {
    guard case .invalid(nil, let error) = IncomingMessage.parse([0x7B, 0xFF, 0x7D]) else {
      Issue.record("accepted invalid UTF-8")
      return
    }
    #expect(error.code == -32700)
  }

  @Test func responsesSerialiseWithStableKeyOrder() {
    #expect(
      OutgoingMessage.result(id: .number(1), ["a": 1, "b": "本\n\u{1}"]).json.serialized
        == #"{"jsonrpc":"2.0","id":1,"result":{"a":1,"b":"本\n\u0001"}}"#)
    #expect(
      OutgoingMessage.error(id: nil, ResponseError(code: -32700, message: "bad")).json.serialized
        == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#)
  }

  /// What the connection sends is written without the envelope's tree; it must be the same text.
  @Test(arguments: [
    OutgoingMessage.result(id: .number(-7), ["a": 1, "b": "本\n\u{1}"]),
    .result(id: .string("x\"y"), .written(Array(#"{"questions":[]}"#.utf8))),
    // A numbered request's written answer goes down without the writer: every id's digits.
    .result(id: .number(0), .written(Array(#"{"questions":[]}"#.utf8))),
    .result(id: .number(9), .written(Array("[]".utf8))),
    .result(id: .number(10), .written(Array("null".utf8))),
    .result(id: .number(-1), .written(Array(#""本""#.utf8))),
    .result(id: .number(Int64.max), .written(Array("{}".utf8))),
    .result(id: .number(Int64.min), .written(Array(repeating: UInt8(ascii: "1"), count: 99_999))),
    .result(id: nil, .null),
    .error(id: .number(Int64.max), ResponseError(code: -32602, message: "bad \"seed\"", data: ["k": [1, 2]])),
    .error(id: nil, ResponseError(code: -32700, message: "bad")),
    .notification(method: "window/logMessage", params: ["type": 2, "message": "読み"]),
  ])
  func framedTextIsTheEnvelopesText(_ message: OutgoingMessage) {
    let expected = MessageFramer.frame(message.json.bytes)
    #expect(message.framed == expected)
    // One writer and one buffer serve several messages in a row.
    var output: [UInt8] = []
    var writer = JSONWriter()
    message.frame(into: &output, using: &writer)
    message.frame(into: &output, using: &writer)
    #expect(output == expected + expected)
  }

  /// A large written payload (a reload's report) is framed in place, not through the body
  /// writer: the same text either way, on each side of the size where that starts.
  @Test(arguments: [OutgoingMessage.payloadCopiedUpTo - 1, OutgoingMessage.payloadCopiedUpTo + 1, 1 << 20])
  func aLargeWrittenPayloadIsFramedAsTheEnvelopesText(size: Int) {
    let text = "[" + String(repeating: "1,", count: (size - 3) / 2) + "1]"
    for message in [
      OutgoingMessage.result(id: .number(3), .written(Array(text.utf8))),
      .notification(method: "biki/packsChanged", params: .written(Array(text.utf8))),
    ] {
      var output: [UInt8] = []
      var writer = JSONWriter()
      message.frame(into: &output, using: &writer)
      message.frame(into: &output, using: &writer)
      let expected = MessageFramer.frame(message.json.bytes)
      #expect(output == expected + expected)
    }
  }

  @Test func jsonRoundTrips() throws {
    let value: JSON = ["s": "😀\"\\", "n": -5, "d": .double(1.5), "a": [true, false, .null], "o": [:]]
    #expect(
      parse(#"{"jsonrpc":"2.0","method":"m","params":"# + value.serialized + "}")
        == .notification(method: "m", params: value))
  }
}

@Suite struct JSONSerializationTests {
  @Test func escapesOnlyWhatJSONRequiresAndKeepsUTF8() {
    let text: JSON = [
      "s": "a\"b\\c\n\r\t\u{1}日本🎌", "n": [0, 7, -12, 1_234_567_890_123], "d": .double(0.5), "x": [true, false, .null],
    ]
    #expect(
      text.serialized == #"{"s":"a\"b\\c\n\r\t\u0001日本🎌","n":[0,7,-12,1234567890123],"d":0.5,"x":[true,false,null]}"#)
  }

  /// Long strings go through the eight-bytes-at-a-time check: an escape anywhere in them, or
  /// none, and the extremes of Int64, are written exactly.
  @Test func longStringsAndExtremeIntegersAreWrittenExactly() {
    let plain = String(repeating: "いっぽん", count: 9)
    let value: JSON = [
      "plain": .string(plain), "quoteAtTheEnd": .string(plain + "\""),
      "controlInTheMiddle": .string("abcdefgh\u{1F}ijklmnop"),
      "integers": [.integer(.min), .integer(.max), -10, 10, 9, 1_000_000],
    ]
    #expect(
      value.serialized
        == #"{"plain":"\#(plain)","quoteAtTheEnd":"\#(plain)\"","controlInTheMiddle":"abcdefgh\u001fijklmnop","integers":[-9223372036854775808,9223372036854775807,-10,10,9,1000000]}"#
    )
    // A value longer than the writer's first buffer.
    let long: JSON = .array(Array(repeating: .string(plain), count: 100))
    #expect(long.bytes.count == 100 * (plain.utf8.count + 3) + 1)
  }

  @Test func theWriterWritesWhatTheTreeWouldAndCommasWhereTheyBelong() {
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("empty")
    writer.beginArray()
    writer.endArray()
    writer.key("list")
    writer.beginArray()
    writer.beginObject()
    writer.key("s")
    writer.string("a\"b\n日本")
    writer.endObject()
    writer.beginObject()
    writer.endObject()
    writer.integer(-7)
    writer.value(["x": [true, .null]])
    writer.beginArray()
    writer.string("")
    writer.endArray()
    writer.endArray()
    writer.key("k\"ey")
    writer.integer(.min)
    writer.endObject()
    let written = writer.finish()
    let tree: JSON = [
      "empty": [], "list": [["s": "a\"b\n日本"], [:], -7, ["x": [true, .null]], [""]], "k\"ey": .integer(.min),
    ]
    #expect(written.serialized == tree.serialized)
    // Written text reads as the value it holds, and sends as itself inside another value.
    #expect(written == tree && written["list"]?.arrayValue?.count == 5)
    #expect(JSON.object(pairs: [("result", written)]).serialized == #"{"result":"# + tree.serialized + "}")
  }

  @Test func serializedTextParsesBackToTheSameValue() throws {
    let value: JSON = ["nested": ["key with \"quotes\"": ["deep": "\u{7F}\u{1F}"]], "empty": [:], "list": []]
    #expect(JSON(try JSONParser.parse(value.bytes)) == value)
  }
}
