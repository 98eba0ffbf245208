/// A short quotation of text that may be huge (an expression, an id sent by a client), so a
/// message stays one readable line.
package enum Excerpt {
  package static func of(_ text: String, limit: Int = 40) -> String {
    var characters = 0
    var end = text.startIndex
    while end < text.endIndex, characters < limit {
      end = text.index(after: end)
      characters += 1
    }
    return end == text.endIndex ? text : text[..<end] + "…"
  }
}
