import BikiCore
import BikiJSON
import BikiPacks
import BikiProtocol

/// Edits the server proposes to a pack being written: the canonical layout (as `biki-pack fmt`
/// writes it) and renaming a name everywhere the document uses it.
extension PackLanguageService {
  /// `textDocument/formatting`: one edit replacing the whole text with its canonical layout, or
  /// none when it is laid out already. The layout is the same for every editor, as gofmt's is,
  /// so the client's tab options are not read. Text that is not JSON cannot be laid out: the
  /// request fails with where and why.
  func formatting(_ request: FormattingRequest) throws(ResponseError) -> JSON {
    guard let document = documents[request.uri] else { return .null }
    let laidOut: [UInt8]
    do {
      laidOut = try JSONLayout.format(document.text)
    } catch {
      throw .requestFailed(
        "cannot format: line \(error.position.line + 1), column \(error.position.column + 1): \(error.message)")
    }
    guard laidOut != document.text else { return [] }
    let end = LineIndex(document.text).end
    return [
      [
        "range": [
          "start": ["line": 0, "character": 0],
          "end": ["line": .integer(Int64(end.line)), "character": .integer(Int64(end.character))],
        ],
        "newText": .string(String(decoding: laidOut, as: UTF8.self)),
      ]
    ]
  }
}

/// Renaming in a pack: a counter the pack declares (its id or a symbol), a thing, a topic's
/// variable, or a topic's id, with every use of it in the document. Names from outside the
/// document (built-in counters) are not renamed: their declaration is not here.
extension PackLanguageService {
  /// What the name under the cursor is, and every place the document writes it.
  struct RenameTarget {
    enum Kind {
      case counter, thing, variable, topic
      var noun: String {
        switch self {
        case .counter: "counter"
        case .thing: "object"
        case .variable: "variable"
        case .topic: "topic id"
        }
      }
    }
    var kind: Kind
    var name: String
    /// The string tokens (quotes included) that are the name whole.
    var tokens: [SourceRange]
    /// Ranges inside expressions (`twice - n`, `n.max`) that are the name.
    var words: [SourceRange]
    /// The occurrence under the cursor.
    var at: SourceRange
  }

  func renameTarget(_ uri: String, at position: Position) -> (
    document: Document, pack: PackDefinition, target: RenameTarget
  )? {
    guard let document = documents[uri], let pack = document.compilation?.pack else { return nil }
    func isOn(_ range: SourceRange) -> Bool { range.isUnder(position) }
    // Counters the pack declares, by id or symbol, and their uses.
    let counterNames = Set(pack.counters.flatMap { [$0.id.value] + $0.symbols.map(\.value) })
    var counterUses: [Located<String>] =
      pack.counters.flatMap { [$0.id] + $0.symbols } + pack.things.flatMap(\.counters)
    var thingUses: [Located<String>] = pack.things.map(\.name)
    for topic in pack.topics {
      for part in topic.parts { if case .number(_, let counter?, _) = part.kind { counterUses.append(counter) } }
      for variable in topic.variables {
        switch variable.kind {
        case .counters(let names): counterUses += names
        case .things(let names): thingUses += names
        default: break
        }
      }
    }
    if let hit = counterUses.first(where: { isOn($0.range) }), counterNames.contains(hit.value) {
      let tokens = counterUses.filter { $0.value == hit.value }.map(\.range)
      return (document, pack, RenameTarget(kind: .counter, name: hit.value, tokens: tokens, words: [], at: hit.range))
    }
    if let hit = thingUses.first(where: { isOn($0.range) }), pack.things.contains(where: { $0.name.value == hit.value })
    {
      let tokens = thingUses.filter { $0.value == hit.value }.map(\.range)
      return (document, pack, RenameTarget(kind: .thing, name: hit.value, tokens: tokens, words: [], at: hit.range))
    }
    guard
      let topic = pack.topics.first(where: { $0.range.contains(line: position.line, utf16Column: position.character) })
    else { return nil }
    if isOn(topic.id.range) {
      return (
        document, pack,
        RenameTarget(kind: .topic, name: topic.id.value, tokens: [topic.id.range], words: [], at: topic.id.range)
      )
    }
    // A variable: its key, the parts naming it, and the words of expressions.
    var names: [Located<String>] = topic.variables.map { Located($0.name, range: $0.nameRange) }
    for part in topic.parts {
      switch part.kind {
      case .number(let name, _, _), .money(let name), .choice(let name), .eraYear(let name), .clock(let name):
        names.append(name)
      case .text: break
      }
    }
    let expressions = topic.expressions
    let words = expressions.flatMap { Self.words(in: $0.range, of: document.text) }
    let hit = names.first { isOn($0.range) } ?? words.first { isOn($0.range) }
    guard let hit, topic.variables.contains(where: { $0.name == hit.value }) else { return nil }
    return (
      document, pack,
      RenameTarget(
        kind: .variable, name: hit.value, tokens: names.filter { $0.value == hit.value }.map(\.range),
        words: words.filter { $0.value == hit.value }.map(\.range), at: hit.range)
    )
  }

  /// The names an expression string uses: identifiers not after a `.` (`n` in `n.max`, not
  /// `max`), with their ranges. Expressions sit on one line, inside one string token.
  static func words(in range: SourceRange, of text: [UInt8]) -> [Located<String>] {
    guard range.start.line == range.end.line, range.start.offset >= 0, range.end.offset <= text.count,
      range.start.offset < range.end.offset
    else { return [] }
    var found: [Located<String>] = []
    var index = range.start.offset
    while index < range.end.offset {
      guard isNameByte(text[index]), !(text[index] >= 0x30 && text[index] <= 0x39) else {
        index += 1
        continue
      }
      let start = index
      while index < range.end.offset, isNameByte(text[index]) { index += 1 }
      guard start == range.start.offset || text[start - 1] != UInt8(ascii: ".") else { continue }
      // Columns within the line: the token's start column plus the UTF-16 units before the word.
      let before = String(decoding: text[range.start.offset..<start], as: UTF8.self).utf16.count
      let length = index - start
      var from = range.start
      var to = range.start
      from.offset = start
      from.utf16Column += before
      from.column += before
      to.offset = index
      to.utf16Column = from.utf16Column + length
      to.column = from.column + length
      found.append(
        Located(String(decoding: text[start..<index], as: UTF8.self), range: SourceRange(start: from, end: to)))
    }
    return found
  }

  /// `textDocument/prepareRename`: the name under the cursor and its range, or null where
  /// nothing can be renamed.
  func prepareRename(_ request: PrepareRenameRequest) -> JSON {
    guard let (document, _, target) = renameTarget(request.uri, at: request.position) else { return .null }
    return ["range": WireFormat.range(Self.inside(target.at, of: document.text)), "placeholder": .string(target.name)]
  }

  /// `textDocument/rename`: every occurrence, as one workspace edit of this document.
  func rename(_ request: RenameRequest) throws(ResponseError) -> JSON {
    guard let (document, pack, target) = renameTarget(request.uri, at: request.position) else {
      throw .requestFailed(
        "nothing here can be renamed: put the cursor on a counter or object this pack declares, a variable, or a topic id"
      )
    }
    let newName = request.newName
    switch target.kind {
    case .variable:
      guard let first = newName.utf8.first, !(first >= 0x30 && first <= 0x39), newName.utf8.allSatisfy(Self.isNameByte)
      else {
        throw .requestFailed(
          "\"\(Excerpt.of(newName, limit: 80))\" cannot name a variable: use letters, digits and _, not starting with a digit"
        )
      }
    case .topic:
      guard Identifier.isValid(newName) else {
        throw .requestFailed("\"\(Excerpt.of(newName, limit: 80))\" is not a valid topic id: use \(Identifier.rule)")
      }
    case .counter:
      guard !newName.isEmpty,
        !newName.contains(where: {
          $0.isWhitespace || $0 == "\"" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true
        })
      else {
        throw .requestFailed("\"\(Excerpt.of(newName, limit: 80))\" cannot name a counter")
      }
    case .thing:
      guard !newName.isEmpty,
        !newName.contains(where: { $0 == "\"" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true })
      else {
        throw .requestFailed("\"\(Excerpt.of(newName, limit: 80))\" cannot name an object")
      }
    }
    // A name already taken would merge two things into one.
    let taken: Bool
    switch target.kind {
    case .counter:
      taken = pack.counters.contains { $0.id.value == newName || $0.symbols.contains { $0.value == newName } }
    case .thing: taken = pack.things.contains { $0.name.value == newName }
    case .topic: taken = pack.topics.contains { $0.id.value == newName }
    case .variable:
      taken =
        pack.topics.first { $0.range.contains(line: request.position.line, utf16Column: request.position.character) }?
        .variables.contains { $0.name == newName } ?? false
    }
    if taken && newName != target.name {
      throw .requestFailed("this pack already has a \(target.kind.noun) \"\(Excerpt.of(newName, limit: 80))\"")
    }
    let ranges = target.tokens.map { Self.inside($0, of: document.text) } + target.words
    let edits: [JSON] = Set(ranges.map { [$0.start.offset, $0.end.offset] }).sorted { $0[0] < $1[0] }.compactMap {
      key in
      ranges.first { $0.start.offset == key[0] && $0.end.offset == key[1] }.map {
        ["range": WireFormat.range($0), "newText": .string(newName)]
      }
    }
    return ["changes": .object(pairs: [(request.uri, .array(edits))])]
  }

  /// A string token's contents: its range without the quotes.
  static func inside(_ range: SourceRange, of text: [UInt8]) -> SourceRange {
    guard range.start.offset >= 0, range.end.offset <= text.count, range.end.offset - range.start.offset >= 2,
      text[range.start.offset] == UInt8(ascii: "\""), text[range.end.offset - 1] == UInt8(ascii: "\"")
    else { return range }
    var inner = range
    inner.start.offset += 1
    inner.start.column += 1
    inner.start.utf16Column += 1
    inner.end.offset -= 1
    inner.end.column -= 1
    inner.end.utf16Column -= 1
    return inner
  }
}
