import BikiJSON
import BikiProtocol
import Testing

@testable import BikiServer

/// Formatting and renaming in a pack, over JSON-RPC messages, with each edit applied to the text
/// as an editor applies it.
@Suite struct EditingTests {
  static let uri = AuthoringTests.uri

  /// The text with LSP text edits applied (UTF-16 columns), last first so earlier ranges hold.
  static func applying(_ edits: [JSON], to text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).utf16) }
    func offset(_ position: JSON?) -> (Int, Int) {
      (Int(position?["line"]?.integerValue ?? 0), Int(position?["character"]?.integerValue ?? 0))
    }
    let sorted = edits.sorted { offset($0["range"]?["start"]) > offset($1["range"]?["start"]) }
    for edit in sorted {
      let (startLine, startColumn) = offset(edit["range"]?["start"])
      let (endLine, endColumn) = offset(edit["range"]?["end"])
      let before = Array(lines[startLine].prefix(startColumn))
      let after = Array(lines[min(endLine, lines.count - 1)].dropFirst(endColumn))
      let inserted = (edit["newText"]?.stringValue ?? "").split(separator: "\n", omittingEmptySubsequences: false).map {
        Array(String($0).utf16)
      }
      var replacement = inserted
      replacement[0] = before + replacement[0]
      replacement[replacement.count - 1] += after
      lines.replaceSubrange(startLine...min(endLine, lines.count - 1), with: replacement)
    }
    return lines.map { String(decoding: $0, as: UTF16.self) }.joined(separator: "\n")
  }

  static func open(_ text: String) -> Endpoint<BikiServer> {
    var endpoint = AuthoringTests.endpoint()
    _ = endpoint.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(uri), "version": 2], "contentChanges": [["text": .string(text)]]])
    return endpoint
  }

  @Test func formattingGivesTheCanonicalLayoutAndFormattingThatChangesNothing() throws {
    var endpoint = Self.open(AuthoringTests.text)
    let edits = try #require(
      endpoint.call(
        "textDocument/formatting",
        ["textDocument": ["uri": .string(Self.uri)], "options": ["tabSize": 4, "insertSpaces": true]]
      ).arrayValue)
    #expect(edits.count == 1)
    let formatted = Self.applying(edits, to: AuthoringTests.text)
    #expect(formatted == String(decoding: try JSONLayout.format(Array(AuthoringTests.text.utf8)), as: UTF8.self))
    #expect(
      formatted.contains(
        #"    "counters": [{ "id": "sara", "symbols": ["皿"], "reading": "さら", "whole": { "1": ["ひとさら"], "2": ["ふたさら"] } }],"#
      ) == false)
    #expect(formatted.contains("\n  \"counters\": [\n"), "\(formatted)")
    // Every value is kept; only the layout changed.
    #expect(try JSONParser.value(Array(formatted.utf8)) == JSONParser.value(Array(AuthoringTests.text.utf8)))
    var again = Self.open(formatted)
    #expect(again.call("textDocument/formatting", ["textDocument": ["uri": .string(Self.uri)], "options": [:]]) == [])
  }

  @Test func textThatIsNotJSONIsNotFormattedAndTheErrorSaysWhere() {
    var endpoint = Self.open("{\n  \"format\": 1,\n  \"id\": \n}")
    let error = endpoint.failure(
      "textDocument/formatting", ["textDocument": ["uri": .string(Self.uri)], "options": [:]])
    #expect(error?.code == ResponseError.requestFailed)
    #expect(
      error?.message.hasPrefix("cannot format: line 4, column 1: expected a value") == true, "\(error?.message ?? "")")
  }

  func rename(_ needle: String, offset: Int, to newName: String) -> (String, [JSON]) {
    var endpoint = AuthoringTests.endpoint()
    let result = endpoint.call(
      "textDocument/rename",
      [
        "textDocument": ["uri": .string(Self.uri)], "position": AuthoringTests.position(of: needle, offset: offset),
        "newName": .string(newName),
      ])
    let edits = result["changes"]?[Self.uri]?.arrayValue ?? []
    return (Self.applying(edits, to: AuthoringTests.text), edits)
  }

  @Test func aVariableIsRenamedInItsKeyPartsAnswerTargetsAndExpressions() {
    let (renamed, edits) = rename("\"number\": \"n\"", offset: 11, to: "plates")
    #expect(edits.count == 6)
    #expect(
      renamed.contains(
        #""variables": { "plates": { "range": { "min": 1, "max": 12 } }, "twice": { "derive": "plates + plates" } }"#),
      "\(renamed)")
    #expect(renamed.contains(#""target": "plates.max""#))
    #expect(renamed.contains(#""number": "plates", "counter": "sara""#))
    #expect(renamed.contains(#""value": "twice - plates""#))
    // The other topic's variables are its own.
    #expect(renamed.contains(#""count": { "range""#))
  }

  @Test func aCounterThePackDeclaresIsRenamedWhereverItIsUsed() {
    let (renamed, edits) = rename("{ \"id\": \"sara\"", offset: 10, to: "plate")
    #expect(edits.count == 2)
    #expect(renamed.contains(#""counters": [{ "id": "plate", "symbols": ["皿"]"#))
    #expect(renamed.contains(#""number": "n", "counter": "plate""#))
  }

  @Test func whatCannotBeRenamedIsSaidSo() {
    var endpoint = AuthoringTests.endpoint()
    func prepare(_ needle: String, _ offset: Int) -> JSON {
      endpoint.call(
        "textDocument/prepareRename",
        ["textDocument": ["uri": .string(Self.uri)], "position": AuthoringTests.position(of: needle, offset: offset)])
    }
    // A counter the pack does not declare (a typo here) has no declaration to rename.
    #expect(prepare("\"sarra\"", 2) == .null)
    #expect(prepare("\"format\"", 2) == .null)
    let topic = prepare("\"plates\", \"title\"", 3)
    #expect(topic["placeholder"] == "plates")
    #expect(
      topic["range"]?["start"]?["character"]
        == .integer((AuthoringTests.position(of: "\"plates\", \"title\"")["character"]?.integerValue ?? 0) + 1))
    func refused(_ needle: String, _ offset: Int, _ newName: String) -> String {
      endpoint.failure(
        "textDocument/rename",
        [
          "textDocument": ["uri": .string(Self.uri)], "position": AuthoringTests.position(of: needle, offset: offset),
          "newName": .string(newName),
        ]
      )?.message ?? ""
    }
    #expect(refused("\"number\": \"n\"", 11, "twice") == #"this pack already has a variable "twice""#)
    #expect(refused("\"number\": \"n\"", 11, "two words").hasPrefix(#""two words" cannot name a variable"#))
    #expect(refused("\"plates\", \"title\"", 3, "typos") == #"this pack already has a topic id "typos""#)
    #expect(refused("\"plates\", \"title\"", 3, "Bad Id").hasPrefix(#""Bad Id" is not a valid topic id"#))
    #expect(refused("\"format\"", 2, "x").hasPrefix("nothing here can be renamed"))
  }
}

/// Biki's readings beside the number phrases of a pack's prose.
@Suite struct InlayHintTests {
  static let text = """
    {
      "format": 1, "id": "kitchen", "title": "Kitchen (1–10)", "version": "1.0.0",
      "description": "Cups: 8本, ¥600 and 3,000円; 10分 or 1日. Ranks 1 to 3.",
      "topics": [{ "id": "x", "title": "Escaped \\u0038本", "note": "6杯", "category": "counter" }]
    }
    """

  func hints(lines: ClosedRange<Int> = 0...10) -> [(line: Int64, character: Int64, label: String)] {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    _ = endpoint.receive(.request(id: .number(0), method: "initialize", params: [:]))
    _ = endpoint.notify(
      "textDocument/didOpen",
      [
        "textDocument": [
          "uri": "file:///p/kitchen.json", "languageId": "json", "version": 1, "text": .string(Self.text),
        ]
      ])
    let result = endpoint.call(
      "textDocument/inlayHint",
      [
        "textDocument": ["uri": "file:///p/kitchen.json"],
        "range": [
          "start": ["line": .integer(Int64(lines.lowerBound)), "character": 0],
          "end": ["line": .integer(Int64(lines.upperBound)), "character": 0],
        ],
      ])
    return (result.arrayValue ?? []).map {
      (
        $0["position"]?["line"]?.integerValue ?? -1, $0["position"]?["character"]?.integerValue ?? -1,
        $0["label"]?.stringValue ?? ""
      )
    }
  }

  @Test func eachNumberPhraseInProseGetsItsReadingWhereItEnds() {
    let found = hints()
    #expect(found.map(\.label) == ["‹はっぽん›", "‹ろっぴゃくえん›", "‹さんぜんえん›", "‹じゅっぷん›", "‹いちにち›", "‹ろっぱい›"], "\(found)")
    // Each hint sits right after its phrase: after 本 of 8本 on the description's line.
    let line = Self.text.split(separator: "\n")[2]
    #expect(found.first?.line == 2)
    #expect(found.first?.character == Int64(line[..<line.range(of: "8本")!.upperBound].utf16.count))
    // A string with escapes has no hints (their columns would be wrong), bare numbers none.
    #expect(!found.contains { $0.line == 3 && $0.label == "‹はっぽん›" })
  }

  /// A hostile pack cannot hold up the message loop with hints: long prose gets none, and a
  /// request at most a thousand.
  @Test func hintsAreBoundedWhateverThePackHolds() throws {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    _ = endpoint.receive(.request(id: .number(0), method: "initialize", params: [:]))
    let long = String(repeating: "8本 ", count: 1_000)
    let many = (0..<3_000).map { #"{"id": "t\#($0)", "title": "8本"}"# }.joined(separator: ", ")
    let text = #"{"format": 1, "id": "big", "description": "\#(long)", "topics": [\#(many)]}"#
    _ = endpoint.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": "file:///p/big.json", "languageId": "json", "version": 1, "text": .string(text)]])
    let result = endpoint.call(
      "textDocument/inlayHint",
      [
        "textDocument": ["uri": "file:///p/big.json"],
        "range": ["start": ["line": 0, "character": 0], "end": ["line": 1, "character": 0]],
      ])
    #expect(result.arrayValue?.count == PackLanguageService.maximumHints)
  }

  @Test func onlyTheLinesAskedForAreHinted() {
    #expect(hints(lines: 3...3).map(\.label) == ["‹ろっぱい›"])
    #expect(hints(lines: 0...1).isEmpty)
  }
}

/// The lens over each topic, and the command it runs.
@Suite struct CodeLensTests {
  @Test func eachTopicHasALensThatSamplesItsQuestionsFromTheEditedText() throws {
    var endpoint = AuthoringTests.endpoint()
    let lenses = try #require(
      endpoint.call("textDocument/codeLens", ["textDocument": ["uri": .string(AuthoringTests.uri)]]).arrayValue)
    // Both topics have lenses; the second has errors, and its command says so when run.
    #expect(lenses.count == 2)
    let command = try #require(lenses.first?["command"])
    #expect(command["command"] == "biki.sample")
    #expect(command["arguments"] == [.string(AuthoringTests.uri), "kitchen.plates"])
    let messages = endpoint.receive(
      .request(
        id: .number(7), method: "workspace/executeCommand",
        params: ["command": "biki.sample", "arguments": command["arguments"] ?? .null]))
    var result: JSON = .null
    for case .result(_, let found) in messages { result = found }
    let questions = try #require(result["questions"]?.arrayValue)
    #expect(questions.count == 8)
    #expect(questions.allSatisfy { ($0["display"]?.stringValue ?? "").hasSuffix("皿") })
    let shown = messages.notifications("window/showMessage").first?["message"]?.stringValue ?? ""
    #expect(shown.hasPrefix("kitchen.plates: 12 questions; a sample:"), "\(shown)")
    let typos = endpoint.failure(
      "workspace/executeCommand",
      ["command": "biki.sample", "arguments": [.string(AuthoringTests.uri), "kitchen.typos"]])
    #expect(typos?.message.hasPrefix(#"no topic "kitchen.typos" without errors"#) == true, "\(typos?.message ?? "")")
  }
}
