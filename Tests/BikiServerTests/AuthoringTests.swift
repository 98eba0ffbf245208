import BikiJSON
import BikiProtocol
import Testing

@testable import BikiServer

/// Quick fixes, the outline and go-to-definition for pack authors, over JSON-RPC messages.
@Suite struct AuthoringTests {
  static let uri = "file:///drafts/kitchen.json"

  /// A pack with a declared counter, a derived variable and three mistakes with suggestions.
  static let text = """
    {
      "format": 1, "id": "kitchen", "title": "Kitchen", "version": "1.0.0",
      "counters": [{ "id": "sara", "symbols": ["皿"], "reading": "さら", "whole": { "1": ["ひとさら"], "2": ["ふたさら"] }, "final": { "1": ["いっさら"], "8": ["はっさら"], "10": ["じゅっさら"] } }],
      "topics": [
        {
          "id": "plates", "title": "Plates", "description": "Plates.", "category": "counter", "skills": ["reading", "kana"],
          "variables": { "n": { "range": { "min": 1, "max": 12 } }, "twice": { "derive": "n + n" } },
          "parameters": { "max": { "target": "n.max", "min": 1, "max": 100, "description": "Most plates." } },
          "question": { "parts": [{ "number": "n", "counter": "sara" }], "answer": { "value": "twice - n", "postfix": "皿" } }
        },
        {
          "id": "typos", "titel": "Typos", "description": "Typos.", "category": "counter", "skills": ["reading"],
          "variables": { "count": { "range": { "min": 1, "max": 12 } } },
          "question": { "parts": [{ "number": "count", "counter": "sarra" }], "answer": { "value": "coutn + 1" } }
        }
      ]
    }
    """

  static func endpoint(hierarchical: Bool = true) -> Endpoint<BikiServer> {
    var endpoint = Endpoint(server: BikiServer(version: "test", dependencies: ServerFixtures.dependencies()))
    let capabilities: JSON = [
      "textDocument": ["documentSymbol": ["hierarchicalDocumentSymbolSupport": .bool(hierarchical)]]
    ]
    _ = endpoint.receive(.request(id: .number(0), method: "initialize", params: ["capabilities": capabilities]))
    _ = endpoint.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "json", "version": 1, "text": .string(text)]])
    return endpoint
  }

  /// The LSP position of the `occurrence`th `needle` in the text (UTF-16 columns).
  static func position(of needle: String, occurrence: Int = 0, offset: Int = 0) -> JSON {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var seen = 0
    for (number, line) in lines.enumerated() {
      var searchStart = line.startIndex
      while let found = line[searchStart...].range(of: needle) {
        if seen == occurrence {
          return [
            "line": .integer(Int64(number)),
            "character": .integer(Int64(line[..<found.lowerBound].utf16.count + offset)),
          ]
        }
        seen += 1
        searchStart = found.upperBound
      }
    }
    Issue.record("no \(needle) in the text")
    return .null
  }

  static func whole() -> JSON { ["start": ["line": 0, "character": 0], "end": ["line": 99, "character": 0]] }

  @Test func everyDidYouMeanHasAQuickFixThatMakesTheEdit() throws {
    var endpoint = Self.endpoint()
    let actions = try #require(
      endpoint.call(
        "textDocument/codeAction",
        ["textDocument": ["uri": .string(Self.uri)], "range": Self.whole(), "context": ["diagnostics": []]]
      ).arrayValue)
    let titles = actions.compactMap { $0["title"]?.stringValue }
    #expect(
      titles.sorted() == [
        "Change \"coutn\" to \"count\"", "Change \"sarra\" to \"sara\"", "Change \"titel\" to \"title\"",
      ])
    for action in actions {
      #expect(action["kind"] == "quickfix")
      #expect(action["diagnostics"]?.arrayValue?.count == 1)
    }
    func edit(_ title: String) -> JSON? {
      actions.first { $0["title"]?.stringValue == title }?["edit"]?["changes"]?[Self.uri]?.arrayValue?.first
    }
    #expect(edit("Change \"titel\" to \"title\"")?["newText"] == "\"title\"")
    #expect(edit("Change \"sarra\" to \"sara\"")?["newText"] == "\"sara\"")
    // Inside an expression only the name changes.
    #expect(edit("Change \"coutn\" to \"count\"")?["newText"] == "\"count + 1\"")
    #expect(edit("Change \"coutn\" to \"count\"")?["range"]?["start"] == Self.position(of: "\"coutn + 1\""))
    // A range that touches no fixable diagnostic gets none.
    let none = endpoint.call(
      "textDocument/codeAction",
      [
        "textDocument": ["uri": .string(Self.uri)],
        "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 1]],
        "context": ["diagnostics": []],
      ])
    #expect(none == [])
  }

  @Test func theOutlineListsTopicsVariablesParametersAndCounters() throws {
    var endpoint = Self.endpoint()
    let symbols = try #require(
      endpoint.call("textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]]).arrayValue)
    #expect(symbols.compactMap { $0["name"]?.stringValue } == ["plates", "typos", "sara"])
    let plates = symbols[0]
    #expect(plates["detail"] == "Plates")
    #expect(plates["selectionRange"]?["start"] == Self.position(of: "\"plates\""))
    #expect(plates["children"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["n", "twice", "max"])
    #expect(symbols[2]["detail"] == "皿")

    var flat = Self.endpoint(hierarchical: false)
    let list = try #require(
      flat.call("textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]]).arrayValue)
    #expect(list.compactMap { $0["name"]?.stringValue } == ["plates", "n", "twice", "max", "typos", "count", "sara"])
    #expect(list[1]["containerName"] == "plates")
    #expect(list[1]["location"]?["uri"] == .string(Self.uri))
  }

  @Test func definitionGoesFromANameToItsDeclaration() throws {
    var endpoint = Self.endpoint()
    func definition(_ position: JSON) -> JSON {
      endpoint.call("textDocument/definition", ["textDocument": ["uri": .string(Self.uri)], "position": position])
    }
    let variableN = Self.position(of: "\"n\": { \"range\"")
    // A part's number, the answer's expression, a parameter's target, a derived value: to n.
    for place in [
      Self.position(of: "\"number\": \"n\"", offset: 11), Self.position(of: "twice - n", offset: 8),
      Self.position(of: "n.max", offset: 0),
      Self.position(of: "n + n", offset: 4),
      // On the name's opening or closing quote, as a word motion leaves the cursor.
      Self.position(of: "\"number\": \"n\"", offset: 10), Self.position(of: "\"number\": \"n\"", offset: 12),
    ] {
      #expect(definition(place)["range"]?["start"] == variableN, "\(place)")
    }
    #expect(
      definition(Self.position(of: "twice - n", offset: 2))["range"]?["start"] == Self.position(of: "\"twice\": {"))
    // On an answer's opening quote: its first name.
    #expect(
      definition(Self.position(of: "\"twice - n\"", offset: 0))["range"]?["start"]
        == Self.position(of: "\"twice\": {"))
    // A part's counter to the pack's own counter; a built-in or unknown counter has no place here.
    #expect(
      definition(Self.position(of: "\"counter\": \"sara\"", offset: 13))["range"]?["start"]
        == Self.position(of: "{ \"id\": \"sara\""))
    #expect(
      definition(Self.position(of: "\"counter\": \"sara\"", offset: 11))["range"]?["start"]
        == Self.position(of: "{ \"id\": \"sara\""))
    #expect(definition(Self.position(of: "\"sarra\"", offset: 2)) == .null)
    #expect(definition(["line": 0, "character": 0]) == .null)
  }
}

/// Completion on text as it is being typed.
@Suite struct CompletionTests {
  static let uri = "file:///drafts/kitchen.json"

  /// Opens the finished pack (so its names are known), then changes the text to `marked`
  /// (the `|` is the cursor, and is removed) and completes there.
  static func complete(_ marked: String) throws -> [String] {
    var endpoint = AuthoringTests.endpoint()
    let text = marked.replacingOccurrences(of: "|", with: "")
    let before = try #require(marked.range(of: "|")).lowerBound
    let lines = marked[..<before].split(separator: "\n", omittingEmptySubsequences: false)
    _ = endpoint.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(uri), "version": 2], "contentChanges": [["text": .string(text)]]])
    let result = endpoint.call(
      "textDocument/completion",
      [
        "textDocument": ["uri": .string(uri)],
        "position": ["line": .integer(Int64(lines.count - 1)), "character": .integer(Int64(lines.last!.utf16.count))],
      ])
    return result["items"]?.arrayValue?.compactMap { $0["label"]?.stringValue } ?? []
  }

  @Test func keysTheObjectCanStillTake() throws {
    #expect(
      try Self.complete(#"{"format": 1, "id": "kitchen", |"#) == [
        "title", "version", "topics", "$schema", "description", "counters", "objects",
      ])
    #expect(try Self.complete(#"{"objects": [{"name": "猫", |"#) == ["reading", "counters", "meaning", "uncommon"])
    let topicKeys = try Self.complete(#"{"topics": [{"id": "x", "ti|"#)
    #expect(
      topicKeys == ["title", "category", "skills", "variables", "question", "description", "parameters", "favour"])
    #expect(
      try Self.complete(#"{"topics": [{"question": {"answer": {"|"#) == [
        "value", "prefix", "postfix", "accept", "style", "decimals", "denominator",
      ])
    // Keys written after the cursor are the object's too: offering them would make a duplicate.
    #expect(
      try Self.complete(
        #"{"topics": [{"id": "x", "|", "title": "T", "skills": [], "variables": {"n": {"range": {}}}}]}"#)
        == ["category", "question", "description", "parameters", "favour"])
  }

  @Test func valuesTheFormatAllows() throws {
    #expect(
      try Self.complete(#"{"topics": [{"category": "|"#) == [
        "number", "money", "duration", "dateTime", "counter", "everyday",
      ])
    #expect(try Self.complete(#"{"topics": [{"skills": ["kana", "|"#) == ["listening", "reading", "kana", "counter"])
    #expect(try Self.complete(#"{"topics": [{"favour": "|"#) == ["sound-changes"])
    #expect(
      try Self.complete(#"{"topics": [{"variables": {"y": {"eraYear": {"eras": ["|"#) == ["明治", "大正", "昭和", "平成", "令和"])
  }

  @Test func countersAndTheTopicsOwnVariables() throws {
    let text = AuthoringTests.text
    // In the plates topic: the part's number, the answer and a parameter's target.
    let number = text.replacingOccurrences(of: #""number": "n", "counter": "sara""#, with: #""number": "|""#)
    #expect(try Self.complete(number) == ["n", "twice"])
    let target = text.replacingOccurrences(of: #""target": "n.max""#, with: #""target": "|""#)
    #expect(try Self.complete(target) == ["n.min", "n.max"])
    let counter = text.replacingOccurrences(of: #""counter": "sara""#, with: #""counter": "|""#)
    let counters = try Self.complete(counter)
    #expect(Array(counters.prefix(2)) == ["sara", "皿"])
    for builtIn in ["hon", "本", "hiki", "匹", "nin", "人"] { #expect(counters.contains(builtIn)) }
  }

  @Test func insideAStringOnlyWhatWasTypedIsReplaced() throws {
    var endpoint = AuthoringTests.endpoint()
    let text = #"{"topics": [{"category": "mon"#
    _ = endpoint.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(Self.uri), "version": 2], "contentChanges": [["text": .string(text)]]])
    let items =
      endpoint.call(
        "textDocument/completion",
        [
          "textDocument": ["uri": .string(Self.uri)],
          "position": ["line": 0, "character": .integer(Int64(text.utf16.count))],
        ])["items"]?.arrayValue ?? []
    let money = try #require(items.first { $0["label"] == "money" })
    #expect(money["textEdit"]?["newText"] == "money")
    #expect(money["textEdit"]?["range"]?["start"]?["character"] == .integer(Int64(text.utf16.count - 3)))
  }
}
