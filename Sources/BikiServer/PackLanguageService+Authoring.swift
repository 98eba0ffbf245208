import BikiJSON
import BikiJapanese
import BikiPacks
import BikiProtocol

/// What a pack author gets beyond diagnostics: quick fixes for every did-you-mean, the outline
/// (topics, their variables, counters) and go-to-definition from a name to where it is declared.
/// All read the document's last finished check, never compiling on the message loop.
extension PackLanguageService {
  /// The document's last check, when it is of the current text.
  private func checked(_ uri: String) -> (uri: String, document: Document, compilation: PackCompilation)? {
    guard let document = documents[uri], let compilation = document.compilation else { return nil }
    return (uri, document, compilation)
  }

  /// `textDocument/codeAction`: a quick fix for each diagnostic with a suggestion that touches
  /// the requested range.
  func codeActions(_ request: CodeActionRequest) -> JSON {
    let (start, end) = (request.start, request.end)
    guard let (uri, document, compilation) = checked(request.uri) else { return [] }
    var actions: [JSON] = []
    for diagnostic in compilation.diagnostics {
      guard let fix = diagnostic.fix, diagnostic.range.touches(start: start, end: end),
        let newText = Self.replacing(fix, in: document.text, range: diagnostic.range)
      else { continue }
      actions.append([
        "title": .string("Change \"\(fix.word)\" to \"\(fix.replacement)\""), "kind": "quickfix", "isPreferred": true,
        "diagnostics": [WireFormat.diagnostic(diagnostic)],
        "edit": [
          "changes": .object(pairs: [
            (uri, JSON.array([["range": WireFormat.range(diagnostic.range), "newText": .string(newText)]]))
          ])
        ],
      ])
    }
    return .array(actions)
  }

  /// The text of `range` with the fix's word replaced wherever it stands as a whole word; nil
  /// when it does not occur (the text moved on since the check).
  static func replacing(_ fix: Diagnostic.Fix, in text: [UInt8], range: SourceRange) -> String? {
    guard range.start.offset <= range.end.offset, range.end.offset <= text.count else { return nil }
    let slice = Array(text[range.start.offset..<range.end.offset])
    let word = Array(fix.word.utf8)
    guard !word.isEmpty else { return nil }
    // Counter names may be kana or kanji: any non-ASCII byte is part of a word here.
    func isWordByte(_ byte: UInt8) -> Bool { byte >= 0x80 || isNameByte(byte) }
    var result: [UInt8] = []
    var index = 0
    var replaced = false
    while index < slice.count {
      let end = index + word.count
      if end <= slice.count, slice[index..<end].elementsEqual(word), index == 0 || !isWordByte(slice[index - 1]),
        end == slice.count || !isWordByte(slice[end])
      {
        result += fix.replacement.utf8
        index = end
        replaced = true
      } else {
        result.append(slice[index])
        index += 1
      }
    }
    return replaced ? String(decoding: result, as: UTF8.self) : nil
  }

  /// `textDocument/documentSymbol`: the pack's topics (with their variables and parameters)
  /// and counters, nested when the client can show a tree.
  func documentSymbols(_ request: DocumentSymbolRequest) -> JSON {
    guard let (uri, _, compilation) = checked(request.uri), let pack = compilation.pack else { return [] }
    // LSP SymbolKind: 2 module, 5 class, 7 property, 13 variable, 14 constant.
    var symbols:
      [(
        name: String, detail: String, kind: Int64, range: SourceRange, selection: SourceRange, children: [JSON],
        container: String?
      )] = []
    for topic in pack.topics where !topic.id.value.isEmpty {
      var children: [JSON] = []
      var flat: [(String, String, Int64, SourceRange)] = []
      for variable in topic.variables {
        let whole = SourceRange(start: variable.nameRange.start, end: variable.range.end)
        children.append(
          Self.symbol(variable.name, detail: variable.kind.name, kind: 13, range: whole, selection: variable.nameRange))
        flat.append((variable.name, variable.kind.name, 13, whole))
      }
      for parameter in topic.parameters {
        children.append(
          Self.symbol(parameter.name, detail: "parameter", kind: 7, range: parameter.range, selection: parameter.range))
        flat.append((parameter.name, "parameter", 7, parameter.range))
      }
      symbols.append((topic.id.value, topic.title, 5, topic.range, topic.id.range, children, nil))
      for (name, detail, kind, range) in flat { symbols.append((name, detail, kind, range, range, [], topic.id.value)) }
    }
    for counter in pack.counters where !counter.id.value.isEmpty {
      let detail = counter.symbols.map(\.value).joined(separator: " ")
      symbols.append((counter.id.value, detail, 14, counter.range, counter.id.range, [], nil))
    }
    if hierarchicalSymbols {
      return .array(
        symbols.filter { $0.container == nil }.map {
          Self.symbol(
            $0.name, detail: $0.detail, kind: $0.kind, range: $0.range, selection: $0.selection, children: $0.children)
        })
    }
    return .array(
      symbols.map { entry in
        var members: [(String, JSON)] = [
          ("name", .string(entry.name)), ("kind", .integer(entry.kind)),
          ("location", ["uri": .string(uri), "range": WireFormat.range(entry.range)]),
        ]
        if let container = entry.container { members.append(("containerName", .string(container))) }
        return .object(pairs: members)
      })
  }

  private static func symbol(
    _ name: String, detail: String, kind: Int64, range: SourceRange, selection: SourceRange, children: [JSON] = []
  ) -> JSON {
    var members: [(String, JSON)] = [
      ("name", .string(name)), ("detail", .string(detail)), ("kind", .integer(kind)),
      ("range", WireFormat.range(range)),
      ("selectionRange", WireFormat.range(selection)),
    ]
    if !children.isEmpty { members.append(("children", .array(children))) }
    return .object(pairs: members)
  }

  /// `textDocument/definition`: from a variable's name in a part, an answer, a parameter's
  /// target or a derived value to the variable; from a part's counter to the pack's own
  /// declaration of it. Built-in counters have no place in the document: null.
  func definition(_ request: DefinitionRequest) -> JSON {
    let position = request.position
    guard let (uri, document, compilation) = checked(request.uri), let pack = compilation.pack,
      let topic = pack.topics.first(where: { $0.range.contains(line: position.line, utf16Column: position.character) })
    else { return .null }
    func location(_ range: SourceRange) -> JSON { ["uri": .string(uri), "range": WireFormat.range(range)] }
    func variable(named name: String) -> JSON? {
      topic.variables.first { $0.name == name }.map { location($0.nameRange) }
    }
    func isOn(_ range: SourceRange) -> Bool { range.isUnder(position) }

    // Names that stand alone in their string: a part's number, money, choice or era year, and
    // its counter.
    for part in topic.parts {
      var names: [Located<String>] = []
      var counter: Located<String>?
      switch part.kind {
      case .number(let name, let partCounter, _):
        names.append(name)
        counter = partCounter
      case .money(let name), .choice(let name), .eraYear(let name), .clock(let name): names.append(name)
      case .text: break
      }
      if let counter, isOn(counter.range) {
        let own = pack.counters.first {
          $0.id.value == counter.value || $0.symbols.contains { $0.value == counter.value }
        }
        return own.map { location($0.range) } ?? .null
      }
      if let name = names.first(where: { isOn($0.range) }) {
        return variable(named: name.value) ?? .null
      }
    }
    // Names inside expressions: the answer, parameters' targets, derived variables.
    let expressions = topic.expressions
    if let expression = expressions.first(where: { isOn($0.range) }),
      let word = Self.word(at: position, in: document.text, within: expression.range)
    {
      return variable(named: word) ?? .null
    }
    return .null
  }

  /// The identifier around an LSP position inside a string token.
  static func word(at position: Position, in text: [UInt8], within range: SourceRange) -> String? {
    guard range.start.line == position.line, range.end.offset <= text.count,
      let at = IncrementalChange.offset(of: position, in: text)
    else {
      return nil
    }
    var offset = min(max(at, range.start.offset), range.end.offset)
    // On the opening quote, as a word motion leaves the cursor: the name just inside it.
    if offset == range.start.offset, offset < range.end.offset, text[offset] == UInt8(ascii: "\"") { offset += 1 }
    var start = offset
    var end = offset
    while start > range.start.offset, isNameByte(text[start - 1]) { start -= 1 }
    while end < range.end.offset, isNameByte(text[end]) { end += 1 }
    guard start < end else { return nil }
    return String(decoding: text[start..<end], as: UTF8.self)
  }

  /// A byte of an ASCII name: letters, digits, `_`.
  static func isNameByte(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
  }

}

extension SourceRange {
  /// Whether this range and an LSP range (UTF-16 columns) share a position, or touch.
  func touches(start: Position, end: Position) -> Bool {
    let from = (self.start.line, self.start.utf16Column)
    let to = (self.end.line, self.end.utf16Column)
    return from <= (end.line, end.character) && (start.line, start.character) <= to
  }
}

/// Completion in pack files: keys where a key goes, and where a value goes the values the
/// format allows there (categories, skills, styles, eras), the counters Biki and the pack know,
/// and the topic's variables. Works on unfinished text: the context comes from a forward scan,
/// and names from the document's last finished check.
extension PackLanguageService {
  func completion(_ request: CompletionRequest) -> JSON {
    let position = request.position
    guard let document = documents[request.uri] else { return .null }
    // A position past the document's lines is nowhere a key or value could go.
    guard let offset = IncrementalChange.offset(of: position, in: document.text),
      let cursor = JSONCursor.at(offset, in: document.text)
    else {
      return ["isIncomplete": false, "items": []]
    }
    let steps = cursor.path.map { step -> PackVocabulary.Step in
      switch step {
      case .key(let key): .key(key)
      case .element: .element
      }
    }
    // LSP CompletionItemKind: 6 variable, 10 property, 12 value, 20 enum member, 21 constant.
    var candidates: [(label: String, kind: Int64, detail: String)] = []
    switch cursor.slot {
    case .key:
      if let object = PackVocabulary.object(at: steps) {
        let keys = PackVocabulary.keys(of: object)
        for key in keys.required where !cursor.siblingKeys.contains(key) { candidates.append((key, 10, "required")) }
        for key in keys.optional where !cursor.siblingKeys.contains(key) { candidates.append((key, 10, "optional")) }
      }
    case .value(let key):
      candidates = valueCandidates(steps: steps, key: key, document: document, position: position)
    }
    // Inside a string, replace what was typed since its opening quote; elsewhere insert a string.
    let typedUnits = cursor.typed.utf16.count
    let items: [JSON] = candidates.map { candidate in
      let newText = cursor.stringStart == nil ? "\"\(candidate.label)\"" : candidate.label
      let range: JSON = [
        "start": [
          "line": .integer(Int64(position.line)), "character": .integer(Int64(max(0, position.character - typedUnits))),
        ],
        "end": ["line": .integer(Int64(position.line)), "character": .integer(Int64(position.character))],
      ]
      return [
        "label": .string(candidate.label), "kind": .integer(candidate.kind), "detail": .string(candidate.detail),
        "filterText": .string(candidate.label), "textEdit": ["range": range, "newText": .string(newText)],
      ]
    }
    return ["isIncomplete": false, "items": .array(items)]
  }

  private func valueCandidates(
    steps: [PackVocabulary.Step], key: String?, document: Document, position: Position
  ) -> [(label: String, kind: Int64, detail: String)] {
    // Array elements are completed by the array's key; the object is the array's owner.
    let inArray = key == nil
    guard case .key(let name)? = inArray ? steps.dropLast().last : steps.last else { return [] }
    guard let owner = PackVocabulary.object(at: Array(steps.dropLast(inArray ? 2 : 1))) else { return [] }
    let pack = document.compilation?.pack ?? document.lastPack
    let topic = pack?.topics.first { $0.range.contains(line: position.line, utf16Column: position.character) }
    func values(_ list: [String], _ detail: String) -> [(String, Int64, String)] { list.map { ($0, 20, detail) } }
    func variables(_ wanted: (VariableDefinition.Kind) -> Bool = { _ in true }) -> [(String, Int64, String)] {
      (topic?.variables ?? []).filter { wanted($0.kind) }.map { ($0.name, 6, "\($0.kind.name) variable") }
    }
    func counters() -> [(String, Int64, String)] {
      var seen = Set<String>()
      var found: [(String, Int64, String)] = []
      for counter in pack?.counters ?? [] {
        for name in [counter.id.value] + counter.symbols.map(\.value) where seen.insert(name).inserted {
          found.append((name, 21, "this pack's counter, read \(counter.reading.value)"))
        }
      }
      for counter in CounterCatalog.standard.counters {
        for name in [counter.id] + counter.symbols where seen.insert(name).inserted {
          found.append((name, 21, "\(counter.symbols.joined(separator: " ")) · \(counter.reading)"))
        }
      }
      return found
    }
    switch (owner, name, inArray) {
    case (.topic, "category", false): return values(PackVocabulary.categories, "category")
    case (.topic, "favour", false): return values(PackVocabulary.favours, "questions to favour")
    case (.topic, "skills", true): return values(PackVocabulary.skills, "skill")
    case (.counter, "kind", false): return values(PackVocabulary.counterKinds, "counter kind")
    case (.part, "style", false): return values(PackVocabulary.numberStyles, "number style")
    case (.answer, "style", false): return values(PackVocabulary.answerStyles, "answer style")
    case (.eraYear, "eras", true): return values(PackVocabulary.eras, "era")
    case (.part, "counter", false), (.variable, "counters", true): return counters()
    case (.part, "number", false), (.part, "money", false), (.answer, "value", false), (.variable, "derive", false):
      return variables {
        switch $0 {
        case .range, .derive: true
        default: false
        }
      }
    case (.part, "choice", false):
      return variables {
        if case .choice = $0 { return true }
        return false
      }
    case (.part, "eraYear", false):
      return variables {
        if case .eraYear = $0 { return true }
        return false
      }
    case (.parameter, "target", false):
      return (topic?.variables ?? []).flatMap { variable -> [(String, Int64, String)] in
        guard case .range = variable.kind else { return [] }
        return [
          ("\(variable.name).min", 6, "the least \(variable.name)"),
          ("\(variable.name).max", 6, "the most \(variable.name)"),
        ]
      }
    default: return []
    }
  }
}
