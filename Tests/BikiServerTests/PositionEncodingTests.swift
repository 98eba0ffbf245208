import BikiJSON
import BikiProtocol
import Testing

@testable import BikiServer

/// A client that counts columns in UTF-8 bytes (LSP 3.17's `positionEncoding`; ALE assumes it)
/// gets and gives every position in bytes, on lines where bytes and UTF-16 units differ.
@Suite struct PositionEncodingTests {
  static let uri = "file:///drafts/mine.json"
  /// 本 is 3 bytes and one UTF-16 unit; 🎌 is 4 bytes and two units.
  static let text = """
    {
      "format": 1, "id": "mine", "title": "本🎌 – 長い物", "version": "1.0.0", "topicz": [],
      "topics": []
    }
    """

  static func endpoint(_ initialize: JSON) -> (Endpoint<BikiServer>, JSON, [OutgoingMessage]) {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    var capabilities: JSON = .null
    for case .result(_, let result) in endpoint.receive(
      .request(id: .number(0), method: "initialize", params: initialize))
    { capabilities = result["capabilities"] ?? .null }
    let opened = endpoint.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "json", "version": 1, "text": .string(text)]])
    return (endpoint, capabilities, opened)
  }

  static let line = text.split(separator: "\n")[1]
  static func bytes(before needle: String) -> Int64 { Int64(line[..<line.range(of: needle)!.lowerBound].utf8.count) }
  static func units(before needle: String) -> Int64 { Int64(line[..<line.range(of: needle)!.lowerBound].utf16.count) }

  @Test(arguments: [
    ["capabilities": ["general": ["positionEncodings": ["utf-8", "utf-16"]]]] as JSON,
    ["capabilities": [:], "initializationOptions": ["positionEncoding": "utf-8"]] as JSON,
  ])
  func aUTF8ClientGetsAndGivesColumnsInBytes(initialize: JSON) throws {
    var (endpoint, capabilities, opened) = Self.endpoint(initialize)
    #expect(capabilities["positionEncoding"] == "utf-8")
    let diagnostic = try #require(
      opened.notifications("textDocument/publishDiagnostics").first?["diagnostics"]?.arrayValue?.first {
        $0["code"] == "unknown-key"
      })
    #expect(diagnostic["range"]?["start"]?["character"] == .integer(Self.bytes(before: "\"topicz\"")))
    #expect(diagnostic["range"]?["end"]?["character"] == .integer(Self.bytes(before: "\"topicz\"") + 8))

    // The quick fix, asked for at byte columns, edits at byte columns.
    let actions = endpoint.call(
      "textDocument/codeAction",
      [
        "textDocument": ["uri": .string(Self.uri)], "range": diagnostic["range"] ?? .null,
        "context": ["diagnostics": [diagnostic]],
      ])
    let edit = try #require(actions.arrayValue?.first?["edit"]?["changes"]?[Self.uri]?.arrayValue?.first)
    #expect(edit["range"]?["start"]?["character"] == .integer(Self.bytes(before: "\"topicz\"")))
    #expect(edit["range"]?["end"]?["character"] == .integer(Self.bytes(before: "\"topicz\"") + 8))
    #expect(edit["newText"] == "\"topics\"")

    // An incremental change at byte columns lands where the client means: after 長い物.
    let at = Self.bytes(before: "\", \"version\"")
    _ = endpoint.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2],
        "contentChanges": [
          [
            "range": [
              "start": ["line": 1, "character": .integer(at)], "end": ["line": 1, "character": .integer(at)],
            ], "text": "！",
          ]
        ],
      ])
    let formatted = endpoint.call(
      "textDocument/formatting", ["textDocument": ["uri": .string(Self.uri)], "options": [:]])
    #expect(
      formatted.arrayValue?.first?["newText"]?.stringValue?.contains("\"title\": \"本🎌 – 長い物！\"") == true, "\(formatted)"
    )
  }

  @Test func aClientThatSaysNothingCountsUTF16AsLSPSays() throws {
    let (endpoint, capabilities, opened) = Self.endpoint([
      "capabilities": ["general": ["positionEncodings": ["utf-32"]]]
    ])
    #expect(capabilities["positionEncoding"] == "utf-16")
    let diagnostic = try #require(
      opened.notifications("textDocument/publishDiagnostics").first?["diagnostics"]?.arrayValue?.first {
        $0["code"] == "unknown-key"
      })
    #expect(diagnostic["range"]?["start"]?["character"] == .integer(Self.units(before: "\"topicz\"")))
    _ = endpoint
  }

  @Test func columnsConvertBothWaysAndAColumnInsideACharacterIsItsStart() {
    let index = LineIndex(Array("a本🎌b\r\nx".utf8))
    // Between 🎌's two UTF-16 units: its start.
    #expect((0...5).map { index.utf8(line: 0, utf16: $0) } == [0, 1, 4, 4, 8, 9])
    // Inside 本 (bytes 1–3) and 🎌 (bytes 4–7): the character's start.
    #expect((0...9).map { index.utf16(line: 0, utf8: $0) } == [0, 1, 1, 1, 2, 2, 2, 2, 4, 5])
    #expect(index.utf16(line: 1, utf8: 1) == 1)
    #expect(index.utf16(line: 7, utf8: 3) == 0)
  }
}
