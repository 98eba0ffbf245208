/// Text from a pack, a plugin, a history file or a client, made safe to print to a terminal.
///
/// A terminal acts on control characters instead of showing them: ESC starts sequences that set
/// the window title (`ESC ] 0 ; … BEL`), clear the screen or move the cursor, so a pack title
/// could forge or hide what a command prints; C1 controls (U+0080–U+009F) do the same on some
/// terminals, and bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder what
/// follows them on the line. Each such scalar is shown instead as a Swift-style escape of its
/// code point in uppercase hex: ESC as `\u{1B}`, NUL as `\u{0}`, U+202E as `\u{202E}`.
/// Everything else, Japanese, emoji and backslashes included, is left as it is.
package enum TerminalText {
  /// `text` with every control, DEL, C1 control and bidi override or isolate escaped.
  /// `keepingLayout` keeps `\n` and `\t`, for multi-line or tab-separated text the caller
  /// formed itself; never pass it for text from a pack, so a pack cannot add lines or columns.
  package static func safe(_ text: some StringProtocol, keepingLayout: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLayout: keepingLayout) }) else {
      return String(text)
    }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if needsEscape(scalar, keepingLayout: keepingLayout) {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether a terminal could act on `scalar` rather than show it.
  package static func needsEscape(_ scalar: Unicode.Scalar, keepingLayout: Bool = false) -> Bool {
    switch scalar.value {
    case 0x0A, 0x09: !keepingLayout
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
