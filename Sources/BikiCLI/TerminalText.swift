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

  /// How many columns a terminal gives `text`: two for each wide or fullwidth character (kanji,
  /// kana, fullwidth forms, as Unicode's East Asian Width says), none for a combining mark, one
  /// for the rest.
  package static func columns(_ text: some StringProtocol) -> Int {
    text.unicodeScalars.reduce(0) { total, scalar in total + columns(of: scalar) }
  }

  static func columns(of scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
      0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return 2
    default: return 1
    }
  }

  /// `text` cut to fit `width` columns, ending with "…" where it was cut.
  package static func fitting(_ text: String, width: Int) -> String {
    guard columns(text) > width else { return text }
    var kept = ""
    var used = 0
    for character in text {
      let needed = columns(String(character))
      if used + needed > width - 1 { break }
      kept.append(character)
      used += needed
    }
    return kept + "…"
  }
}
