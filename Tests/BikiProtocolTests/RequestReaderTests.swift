import BikiJSON
import Testing

@testable import BikiProtocol

/// A request read straight from its bytes is the request the parser reads; what the reader
/// leaves to the parser, the parser reads. `fuzz-request` searches for a body where they differ.
@Suite struct RequestReaderTests {
  static let readFromBytes: [String] = [
    #"{"jsonrpc":"2.0","id":1,"method":"biki/generate","params":{"topicId":"numbers.beginner","seed":5,"count":1}}"#,
    // Any order, any spacing, strings for ids, the first of a repeated key.
    " {\r\n\t\"method\" : \"biki/read\", \"params\":{\"text\":\"3本と\\n😀\"},\"id\":\"a-1\",\"jsonrpc\":\"2.0\"} \n",
    #"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"biki/topics","params":[]}"#,
    #"{"jsonrpc":"2.0","id":2,"method":"m","params":null,"params":5}"#,
    #"{"jsonrpc":"2.0","id":3,"id":4,"method":"m","extra":[1,{"a":[true,false,null]}],"params":{"a":{}}}"#,
    #"{"jsonrpc":"2.0","id":5,"method":"m","params":{"x":"\ud83d\ude00\u00e9\"\\\/\b\f\n\r\t","y":-0.5e-3}}"#,
  ]

  @Test(arguments: readFromBytes) func aRequestReadFromItsBytesIsTheParsersRequest(_ text: String) throws {
    let body = Array(text.utf8)
    let read = try #require(IncomingMessage.readRequest(body))
    #expect(read == IncomingMessage.parseTree(body))
    guard case .request(_, _, let params?) = read else { return }
    // Kept as the client's text, and read member by member as the tree would be.
    guard case .written = params else {
      Issue.record("params were read into a tree")
      return
    }
    let tree = try #require(IncomingMessage.parseTree(body).params)
    for member in tree.objectMembers ?? [] { #expect(params[member.key] == tree[member.key]) }
    #expect(params.objectMembers?.map(\.key) == tree.objectMembers?.map(\.key))
    #expect(params.kindDescription == tree.kindDescription)
    #expect(params.hashValue == tree.hashValue)
  }

  static let leftToTheParser: [(String, String)] = [
    (#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#, "a notification"),
    (#"{"jsonrpc":"2.0","id":7,"result":null}"#, "a response"),
    (#"{"jsonrpc":"1.0","id":1,"method":"m"}"#, "another version"),
    (#"{"jsonrpc":"2.0","id":1.0,"method":"m"}"#, "an id written as a fraction"),
    (#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"m"}"#, "an id past Int64"),
    (#"{"jsonrpc":"2.0","id":"\u0061","method":"m"}"#, "an id with an escape"),
    (#"{"jsonrpc":"2.0","\u0069d":1,"method":"m"}"#, "a key with an escape"),
    (#"{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}"#, "params that are a string"),
    (#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":01}}"#, "a leading zero"),
    (#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\ud83d"}}"#, "an unpaired surrogate"),
    (#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\udc00"}}"#, "a lone low surrogate"),
    ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"a\":\"\t\"}}", "a control character"),
    (#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,}}"#, "a trailing comma"),
    (#"{"jsonrpc":"2.0","id":1,"method":"m"} x"#, "text after the message"),
    ("\u{FEFF}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}", "a byte order mark"),
    (#"[{"jsonrpc":"2.0","id":1,"method":"m"}]"#, "a batch"),
  ]

  @Test(arguments: leftToTheParser) func whatTheReaderLeavesTheParserReads(_ text: String, _ what: String) {
    #expect(IncomingMessage.readRequest(Array(text.utf8)) == nil, "\(what)")
  }

  @Test func invalidUTF8AndDeepNestingAreLeftToTheParser() {
    let prefix = Array(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":""#.utf8)
    for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE3, 0x81]] {
      #expect(IncomingMessage.readRequest(prefix + bad + Array("\"}}".utf8)) == nil)
    }
    func nested(_ depth: Int) -> [UInt8] {
      Array(
        (#"{"jsonrpc":"2.0","id":1,"method":"m","params":"# + String(repeating: "[", count: depth)
          + String(repeating: "]", count: depth) + "}").utf8)
    }
    // The parser allows 256 levels, the message itself being the first.
    #expect(IncomingMessage.readRequest(nested(255)) == IncomingMessage.parseTree(nested(255)))
    #expect(IncomingMessage.readRequest(nested(256)) == nil)
    if case .invalid = IncomingMessage.parseTree(nested(256)) {} else { Issue.record("the parser took 257 levels") }
  }
}

extension IncomingMessage {
  fileprivate var params: JSON? {
    if case .request(_, _, let params) = self { params } else { nil }
  }
}
