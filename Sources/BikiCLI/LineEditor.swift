/// The answer prompt's line editing, as a terminal's own readline gives it: ← → (and Ctrl-B,
/// Ctrl-F), Home and End (and Ctrl-A, Ctrl-E), Backspace and Delete, Ctrl-U and Ctrl-K to clear
/// before or after the cursor, Ctrl-W to clear a word, ↑ ↓ through the answers given before,
/// Enter to answer, Ctrl-C or Ctrl-D on an empty line to stop. Pure: it is given the bytes the
/// terminal sends, a key at a time, and says what to show; the terminal in raw mode is the
/// caller's (`TerminalInput`).
package struct LineEditor: Sendable {
  /// What a key did.
  package enum Outcome: Equatable, Sendable {
    /// Still editing: redraw the line (`redraw` says how).
    case editing
    /// Enter: the line.
    case line(String)
    /// Ctrl-C, or Ctrl-D on an empty line: stop.
    case stop
  }

  private(set) var text: [Character] = []
  private(set) var cursor = 0
  /// Lines given before, oldest first, and which is shown (`history.count`: the line being typed).
  private var history: [String] = []
  private var recalled = 0
  private var typed: [Character] = []
  /// Bytes of a key not yet whole: an escape sequence, or a UTF-8 character's first bytes.
  private var pending: [UInt8] = []

  package init() {}

  package var line: String { String(text) }

  /// Takes one byte the terminal sent.
  package mutating func take(_ byte: UInt8) -> Outcome {
    pending.append(byte)
    if pending[0] == 0x1B { return escape() }
    if pending[0] >= 0x80 { return character() }
    pending.removeAll()
    switch byte {
    case 0x0D, 0x0A: return enter()
    case 0x03: return .stop
    case 0x04:
      if text.isEmpty { return .stop }
      if cursor < text.count { text.remove(at: cursor) }
    case 0x01: cursor = 0
    case 0x05: cursor = text.count
    case 0x02: cursor = max(0, cursor - 1)
    case 0x06: cursor = min(text.count, cursor + 1)
    case 0x7F, 0x08:
      if cursor > 0 {
        text.remove(at: cursor - 1)
        cursor -= 1
      }
    case 0x15:
      text.removeSubrange(0..<cursor)
      cursor = 0
    case 0x0B: text.removeSubrange(cursor...)
    case 0x17:
      var start = cursor
      while start > 0, text[start - 1].isWhitespace { start -= 1 }
      while start > 0, !text[start - 1].isWhitespace { start -= 1 }
      text.removeSubrange(start..<cursor)
      cursor = start
    case 0x20...0x7E: insert(Character(Unicode.Scalar(byte)))
    default: break  // other control keys do nothing
    }
    return .editing
  }

  private mutating func enter() -> Outcome {
    let entered = line
    if !entered.trimmingCharacters(in: .whitespaces).isEmpty, history.last != entered { history.append(entered) }
    recalled = history.count
    text = []
    typed = []
    cursor = 0
    return .line(entered)
  }

  private mutating func insert(_ character: Character) {
    text.insert(character, at: cursor)
    cursor += 1
  }

  /// A UTF-8 character, once its bytes are all there. A byte that cannot start one is dropped;
  /// a character cut short is dropped, and the byte that cut it taken on its own.
  private mutating func character() -> Outcome {
    let lead = pending[0]
    let length =
      (0xC2...0xDF).contains(lead) ? 2 : (0xE0...0xEF).contains(lead) ? 3 : (0xF0...0xF4).contains(lead) ? 4 : 0
    guard length > 0 else {
      pending.removeAll()
      return .editing
    }
    if pending.count > 1, let last = pending.last, last & 0xC0 != 0x80 {
      pending.removeAll()
      return take(last)
    }
    guard pending.count == length else { return .editing }
    let decoded = String(decoding: pending, as: UTF8.self)
    pending.removeAll()
    // Only what shows as itself: a direction mark or a joiner would move the cursor unseen.
    if let character = decoded.first, !decoded.unicodeScalars.contains("\u{FFFD}"),
      TerminalText.safe(decoded) == decoded, TerminalText.columns(decoded) > 0
    {
      insert(character)
    }
    return .editing
  }

  /// ESC [ or ESC O, then the key: arrows, Home, End, Delete. Anything else is dropped whole,
  /// however long: its parameters and intermediates (0x20–0x3F) run until its final byte.
  private mutating func escape() -> Outcome {
    guard pending.count >= 2 else { return .editing }
    guard pending[1] == UInt8(ascii: "[") || pending[1] == UInt8(ascii: "O") else {
      pending.removeAll()
      return .editing
    }
    guard pending.count >= 3 else { return .editing }
    let last = pending[pending.count - 1]
    if (0x20...0x3F).contains(last) {
      // Kept short: a sequence longer than any key's is only waited out.
      if pending.count > 16 { pending.remove(at: 2) }
      return .editing
    }
    let parameter = String(decoding: pending[2..<(pending.count - 1)], as: UTF8.self)
    pending.removeAll()
    switch (last, parameter) {
    case (UInt8(ascii: "D"), _): cursor = max(0, cursor - 1)
    case (UInt8(ascii: "C"), _): cursor = min(text.count, cursor + 1)
    case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): cursor = 0
    case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): cursor = text.count
    case (UInt8(ascii: "~"), "3"): if cursor < text.count { text.remove(at: cursor) }
    case (UInt8(ascii: "A"), _): recall(by: -1)
    case (UInt8(ascii: "B"), _): recall(by: 1)
    default: break
    }
    return .editing
  }

  private mutating func recall(by step: Int) {
    let next = recalled + step
    guard next >= 0, next <= history.count, next != recalled else { return }
    if recalled == history.count { typed = text }
    recalled = next
    text = next == history.count ? typed : Array(history[next])
    cursor = text.count
  }

  /// What to write to show the line: to the start of the line, the text, the rest of the line
  /// cleared, and the cursor moved back to its place (counting wide kana as two columns).
  package var redraw: String { redraw(preview: nil) }

  /// The line with `preview` shown dim after it (the kana romaji spells, as it is typed).
  package func redraw(preview: String?) -> String {
    let shown = preview.map { "  " + TerminalText.safe($0) } ?? ""
    let after = TerminalText.columns(String(text[cursor...])) + TerminalText.columns(shown)
    return "\r\u{1B}[K" + TerminalText.safe(line) + (shown.isEmpty ? "" : "\u{1B}[2m\(shown)\u{1B}[0m")
      + (after > 0 ? "\u{1B}[\(after)D" : "")
  }
}
