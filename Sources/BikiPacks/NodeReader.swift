import BikiCore
import BikiJSON

/// Reads JSON nodes as the pack format expects them, recording a diagnostic for every
/// mismatch and carrying on, so a single run reports every problem in a file.
struct NodeReader {
  private(set) var diagnostics: [Diagnostic] = []
  /// How many of `diagnostics` are errors, kept so each topic can ask cheaply.
  private(set) var errorCount = 0
  /// What is left of the did-you-mean work allowed per file, in candidate × character units:
  /// a file with thousands of unknown names gets hints for the first ones and stays linear.
  private var suggestionWork = 2_000_000

  mutating func error(_ message: String, _ rule: String, at range: SourceRange, fix: Diagnostic.Fix? = nil) {
    diagnostics.append(Diagnostic(.error, message, rule: rule, at: range, fix: fix))
    errorCount += 1
  }

  /// A did-you-mean for a mistyped name: `; did you mean "x"?` in a message, and the fix.
  struct Hint: CustomStringConvertible {
    var word: String
    var suggestion: String?

    var description: String { suggestion.map { "; did you mean \"\($0)\"?" } ?? "" }
    var fix: Diagnostic.Fix? { suggestion.map { Diagnostic.Fix(word: word, replacement: $0) } }
  }

  /// The closest known name, or none once this file's allowance is spent.
  mutating func hint<Candidates: Collection<String>>(_ word: String, among candidates: Candidates) -> Hint {
    // Counted before anything is copied: a set of names becomes an array only when affordable.
    let cost = candidates.count * max(1, min(word.utf8.count, 64))
    guard cost <= suggestionWork else { return Hint(word: word) }
    suggestionWork -= cost
    return Hint(word: word, suggestion: Suggestion.closest(to: word, among: Array(candidates)))
  }

  mutating func warning(_ message: String, _ rule: String, at range: SourceRange) {
    diagnostics.append(Diagnostic(.warning, message, rule: rule, at: range))
  }

  mutating func object(_ node: JSONNode, _ what: String, _ keys: (required: [String], optional: [String])) -> [String:
    JSONMember]?
  {
    object(node, what, required: keys.required, optional: keys.optional)
  }

  /// The members of an object whose keys are known: reports unknown keys (with a suggestion),
  /// duplicate keys and missing required keys. Returns nil when the node is not an object.
  mutating func object(
    _ node: JSONNode, _ what: String, required: [String], optional: [String] = []
  ) -> [String: JSONMember]? {
    guard let members = node.members else {
      error("\(what) must be an object, not \(node.value.kindDescription)", "wrong-type", at: node.range)
      return nil
    }
    let known = required + optional
    var found: [String: JSONMember] = [:]
    for member in members {
      if found[member.key] != nil {
        error(
          "duplicate key \"\(Excerpt.of(member.key))\" in \(what); only the first is used", "duplicate-key",
          at: member.keyRange)
        continue
      }
      guard known.contains(member.key) else {
        let hint = hint(member.key, among: known)
        error(
          "unknown key \"\(Excerpt.of(member.key))\" in \(what)\(hint)", "unknown-key", at: member.keyRange,
          fix: hint.fix)
        continue
      }
      found[member.key] = member
    }
    for key in required where found[key] == nil {
      error("\(what) is missing the required key \"\(key)\"", "missing-key", at: openingBrace(node))
    }
    return found
  }

  /// The members of an object used as a map with free keys (variables, parameters).
  mutating func map(_ node: JSONNode, _ what: String) -> [JSONMember] {
    guard let members = node.members else {
      error("\(what) must be an object, not \(node.value.kindDescription)", "wrong-type", at: node.range)
      return []
    }
    var seen = Set<String>()
    return members.filter { member in
      guard seen.insert(member.key).inserted else {
        error(
          "duplicate key \"\(Excerpt.of(member.key))\" in \(what); only the first is used", "duplicate-key",
          at: member.keyRange)
        return false
      }
      return true
    }
  }

  mutating func string(_ member: JSONMember?, _ what: String, nonEmpty: Bool = true) -> Located<String>? {
    guard let member else { return nil }
    guard let text = member.value.stringValue else {
      error("\(what) must be a string, not \(member.value.value.kindDescription)", "wrong-type", at: member.value.range)
      return nil
    }
    if nonEmpty && text.allSatisfy(\.isWhitespace) {
      error("\(what) must not be empty", "invalid-value", at: member.value.range)
      return nil
    }
    return Located(text, range: member.value.range)
  }

  mutating func integer(_ member: JSONMember?, _ what: String) -> Located<Int64>? {
    guard let member else { return nil }
    guard case .number = member.value.value else {
      error(
        "\(what) must be an integer, not \(member.value.value.kindDescription)", "wrong-type", at: member.value.range)
      return nil
    }
    guard let number = member.value.integerValue else {
      error("\(what) must be a whole number within ±9,000,000,000,000,000,000", "wrong-type", at: member.value.range)
      return nil
    }
    return Located(number, range: member.value.range)
  }

  mutating func array(_ member: JSONMember?, _ what: String, nonEmpty: Bool = true) -> [JSONNode]? {
    guard let member else { return nil }
    guard let elements = member.value.arrayValue else {
      error("\(what) must be an array, not \(member.value.value.kindDescription)", "wrong-type", at: member.value.range)
      return nil
    }
    if nonEmpty && elements.isEmpty {
      error("\(what) must not be empty", "empty-list", at: member.value.range)
    }
    return elements
  }

  mutating func strings(_ member: JSONMember?, _ what: String, nonEmpty: Bool = true) -> [Located<String>]? {
    guard let elements = array(member, what, nonEmpty: nonEmpty) else { return nil }
    return elements.compactMap { element in
      guard let text = element.stringValue else {
        error("each of \(what) must be a string, not \(element.value.kindDescription)", "wrong-type", at: element.range)
        return nil
      }
      return Located(text, range: element.range)
    }
  }

  /// One of `choices`, by name.
  mutating func oneOf<T>(_ member: JSONMember?, _ what: String, _ choices: [String: T]) -> T? {
    guard let text = string(member, what) else { return nil }
    if let choice = choices[text.value] { return choice }
    let names = choices.keys.sorted()
    let hint = hint(text.value, among: names)
    // With one choice the did-you-mean already names it: listing it again says nothing new.
    let list =
      names.count == 1 && hint.fix != nil
      ? "" : (names.count == 1 ? "; the only one is " : "; use one of: ") + names.joined(separator: ", ")
    error(
      "\(what) \"\(Excerpt.of(text.value))\" is not known\(hint)\(list)", "invalid-value", at: text.range, fix: hint.fix
    )
    return nil
  }

  private func openingBrace(_ node: JSONNode) -> SourceRange {
    var end = node.range.start
    end.offset += 1
    end.column += 1
    end.utf16Column += 1
    return SourceRange(start: node.range.start, end: end)
  }
}
