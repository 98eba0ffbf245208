import BikiJSON
import BikiJapanese
import BikiProtocol

/// Inlay hints in a pack: Biki's reading after each number phrase an author writes in prose
/// (titles, descriptions, text parts, notes), `8本 ‹はっぽん›`, so a slip in an example is seen
/// where it is typed. Bare numbers (`1–10`) get none: their reading says nothing a reader
/// doubts, and hinting every digit would bury the ones that matter.
extension PackLanguageService {
  /// The keys whose string values are prose a learner or author reads.
  static let proseKeys: Set<String> = ["title", "description", "text", "note", "meaning"]
  /// The longest phrase tried after a number's first digit, in characters: `1,000,000円` and
  /// `令和元年` fit; the bound keeps each string's cost linear.
  static let longestPhrase = 16
  /// Hints are made on the message loop: prose longer than this is left without them, and a
  /// request gets at most `maximumHints`, so a pack of a million digits cannot hold up the loop.
  static let longestProse = 2_000
  static let maximumHints = 1_000

  func inlayHints(_ request: InlayHintRequest) -> JSON {
    guard inlayHintsEnabled, let document = documents[request.uri], let root = try? JSONParser.parse(document.text)
    else { return [] }
    let reader = PhraseReader()
    var hints: [JSON] = []
    // The tree, walked with a stack: nesting is capped by the parser, and a stack costs nothing.
    var pending: [(key: String?, node: JSONNode)] = [(nil, root)]
    while let (key, node) = pending.popLast(), hints.count < Self.maximumHints {
      switch node.value {
      case .object(let members): pending += members.reversed().map { ($0.key, $0.value) }
      case .array(let elements): pending += elements.reversed().map { (key, $0) }
      case .string(let text):
        guard let key, Self.proseKeys.contains(key), node.range.start.line == node.range.end.line,
          text.utf8.count <= Self.longestProse,
          request.start.line <= node.range.start.line, node.range.start.line <= request.end.line
        else { continue }
        // Columns are counted in the decoded text, so a string with escapes (whose source is
        // longer than its text) is left without hints rather than given misplaced ones.
        let source = document.text[
          (node.range.start.offset + 1)..<max(node.range.start.offset + 1, node.range.end.offset - 1)]
        guard source.elementsEqual(text.utf8) else { continue }
        for phrase in Self.numberPhrases(in: text, reader: reader) {
          hints.append([
            "position": [
              "line": .integer(Int64(node.range.start.line)),
              "character": .integer(Int64(node.range.start.utf16Column + 1 + phrase.endUTF16)),
            ],
            "label": .string("‹\(phrase.reading.standard)›"),
            "tooltip": .string("\(phrase.text): \(phrase.reading.all().joined(separator: " / "))"),
            "paddingLeft": true,
          ])
        }
      case .number, .bool, .null: continue
      }
    }
    return .array(hints)
  }

  struct NumberPhrase {
    var text: String
    var reading: Reading
    /// Where it ends in the string, in UTF-16 units.
    var endUTF16: Int
  }

  /// The phrases in `text` that start with a number and that Biki reads with something after the
  /// digits (a counter, a unit, 円, 年): the longest that reads, from each number's start.
  static func numberPhrases(in text: String, reader: PhraseReader) -> [NumberPhrase] {
    let characters = Array(text)
    func isDigit(_ character: Character) -> Bool { character.isASCII && character.isWholeNumber }
    func isBareNumber(_ run: ArraySlice<Character>) -> Bool { run.allSatisfy { isDigit($0) || $0 == "," || $0 == "." } }
    var found: [NumberPhrase] = []
    var index = 0
    while index < characters.count {
      let startsNumber =
        isDigit(characters[index])
        || ((characters[index] == "¥" || characters[index] == "￥") && index + 1 < characters.count
          && isDigit(characters[index + 1]))
      guard startsNumber,
        index == 0 || !(isDigit(characters[index - 1]) || characters[index - 1] == "," || characters[index - 1] == ".")
      else {
        index += 1
        continue
      }
      var matched: (end: Int, reading: Reading)?
      // A phrase never spans a space: `1 to 3` is two bare numbers, not a phrase.
      var end = min(characters.count, index + longestPhrase)
      if let space = characters[index..<end].firstIndex(where: \.isWhitespace) { end = space }
      while end > index {
        let run = characters[index..<end]
        if !isBareNumber(run), let reading = try? reader.read(String(run)) {
          matched = (end, reading)
          break
        }
        end -= 1
      }
      guard let (end, reading) = matched else {
        index += 1
        while index < characters.count, isDigit(characters[index]) || characters[index] == "," { index += 1 }
        continue
      }
      let phrase = String(characters[index..<end])
      let endUTF16 = String(characters[..<end]).utf16.count
      found.append(NumberPhrase(text: phrase, reading: reading, endUTF16: endUTF16))
      index = end
    }
    return found
  }
}
