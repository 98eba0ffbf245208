import Testing

@testable import BikiCLI

/// The answer prompt's editing, key by key as a terminal sends the keys (xterm's sequences, and
/// the others terminals send for Home and End).
@Suite struct LineEditorTests {
  static let left = "\u{1B}[D", right = "\u{1B}[C", up = "\u{1B}[A", down = "\u{1B}[B"

  /// Feeds `keys` (as UTF-8) and returns the outcome of the last byte.
  @discardableResult
  func type(_ keys: String, into editor: inout LineEditor) -> LineEditor.Outcome {
    var outcome = LineEditor.Outcome.editing
    for byte in keys.utf8 { outcome = editor.take(byte) }
    return outcome
  }

  static let edits: [(String, String)] = [
    ("ropon" + left + left + left + "p\r", "roppon"),
    ("ろぽん" + left + left + "っ\r", "ろっぽん"),
    ("wrong\u{15}ippon\r", "ippon"),  // Ctrl-U
    ("xippon\u{1}\u{1B}[3~\r", "ippon"),  // Ctrl-A, Delete
    ("xippon\u{1B}[H\u{1B}[3~\r", "ippon"),  // Home
    ("xippon\u{1B}OH\u{1B}[3~\r", "ippon"),  // Home as some terminals send it
    ("xippon\u{1B}[1~\u{1B}[3~\r", "ippon"),  // Home as others do
    ("ippo\u{1}\u{5}n\r", "ippon"),  // Ctrl-A, Ctrl-E
    ("ippo\u{1B}[H\u{1B}[Fn\r", "ippon"),  // Home, End
    ("ippox\u{7F}n\r", "ippon"),  // Backspace
    ("ippox\u{8}n\r", "ippon"),  // Ctrl-H
    ("ipponabc" + left + left + left + "\u{B}\r", "ippon"),  // Ctrl-K
    ("go hon\u{17}\u{17}ippon\r", "ippon"),  // Ctrl-W, a word at a time
    ("ip" + left + left + left + "pon" + right + right + "\r", "pon" + "ip"),
    ("8\u{1B}[1;5D\r", "8"),  // a modified arrow moves, and types nothing
    ("8\u{1B}x9\r", "89"),  // Escape and a key: both dropped but the key after
    ("8\u{1B}[99999999Z9\r", "89"),  // an overlong sequence is dropped whole
    ("8\u{7}\u{1B}[200~9\r", "89"),  // a bell, a paste bracket: nothing
    ("8\u{202E}9\r", "89"),  // U+202E, which would turn the line round, is not typed
  ]

  @Test(arguments: edits)
  func keysEditTheLine(keys: String, line: String) {
    var editor = LineEditor()
    #expect(type(keys, into: &editor) == .line(line))
  }

  /// Bytes that are no UTF-8 are dropped, and the keys after them still count.
  @Test func bytesThatAreNoUTF8AreDropped() {
    let cases: [([UInt8], String)] = [
      ([0x38, 0xFF, 0x39, 0x0D], "89"), ([0x38, 0x80, 0x39, 0x0D], "89"), ([0x38, 0xC0, 0x80, 0x39, 0x0D], "89"),
      ([0x38, 0xE3, 0x41, 0x39, 0x0D], "8A9"), ([0x38, 0xE3, 0x81, 0x0D], "8"),
    ]
    for (bytes, line) in cases {
      var editor = LineEditor()
      var outcome = LineEditor.Outcome.editing
      for byte in bytes { outcome = editor.take(byte) }
      #expect(outcome == .line(line), "\(bytes)")
    }
  }

  @Test func ctrlCAndCtrlDOnAnEmptyLineStop() {
    var editor = LineEditor()
    #expect(type("ippo\u{3}", into: &editor) == .stop)
    var empty = LineEditor()
    #expect(type("\u{4}", into: &empty) == .stop)
    var typed = LineEditor()
    #expect(type("ippo" + Self.left + "\u{4}n\r", into: &typed) == .line("ippn"))  // Ctrl-D deletes
  }

  /// ↑ and ↓ go through the answers given, and back to the line being typed.
  @Test func upAndDownRecallTheAnswersGiven() {
    var editor = LineEditor()
    type("8\r", into: &editor)
    type("はっぽん\r", into: &editor)
    type("   \r", into: &editor)  // blank: not kept
    #expect(type("x" + Self.up + "\r", into: &editor) == .line("はっぽん"))
    #expect(type(Self.up + Self.up + "\r", into: &editor) == .line("8"))
    #expect(type(Self.up + Self.up + Self.up + Self.down + "\r", into: &editor) == .line("はっぽん"))
    #expect(type("typed" + Self.up + Self.down + "\r", into: &editor) == .line("typed"))
  }

  /// A preview (the kana romaji spells) is drawn dim after the line, and the cursor put back
  /// over it to its place in the text.
  @Test func aPreviewFollowsTheLine() {
    var editor = LineEditor()
    type("gohon" + Self.left, into: &editor)
    #expect(editor.redraw(preview: "(ごほん)") == "\r\u{1B}[Kgohon\u{1B}[2m  (ごほん)\u{1B}[0m\u{1B}[11D")
    #expect(editor.redraw(preview: nil) == "\r\u{1B}[Kgohon\u{1B}[1D")
  }

  /// The line is drawn from its start, and the cursor put back by columns: kana are two wide.
  @Test func theRedrawCountsWideCharacters() {
    var editor = LineEditor()
    type("はっぽん" + Self.left + Self.left, into: &editor)
    #expect(editor.redraw == "\r\u{1B}[Kはっぽん\u{1B}[4D")
    type("\u{5}", into: &editor)
    #expect(editor.redraw == "\r\u{1B}[Kはっぽん")
  }
}
