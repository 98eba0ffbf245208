import BikiSync

#if canImport(Glibc)
  import Glibc
#endif

/// A line read from the terminal with `LineEditor`: the terminal is put in raw mode for the
/// read only, and given back as it was before the line is returned, so a program that ends or
/// is stopped between questions leaves the terminal as it found it.
package final class TerminalInput: Sendable {
  /// The editor, with the answers given before for ↑; one reader at a time.
  private let editor = Locked(LineEditor())

  package init() {}

  /// The line typed, or nil at the end of input, on Ctrl-C, or Ctrl-D on an empty line. Nil
  /// too when the terminal cannot be put in raw mode: `fallback` then reads. `preview` is shown
  /// after the line as it is typed, when it says anything (the kana of romaji typed).
  package func readLine(preview: ((String) -> String?)? = nil, fallback: () -> String?) -> String? {
    editor.withLock { editor in Self.read(with: &editor, preview: preview, fallback: fallback) }
  }

  private static func read(with editor: inout LineEditor, preview: ((String) -> String?)?, fallback: () -> String?)
    -> String?
  {
    var saved = termios()
    guard tcgetattr(0, &saved) == 0 else { return fallback() }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(0, TCSADRAIN, &raw) == 0 else { return fallback() }
    defer { _ = tcsetattr(0, TCSADRAIN, &saved) }
    var byte: UInt8 = 0
    while true {
      let count = Glibc.read(0, &byte, 1)
      if count < 0, errno == EINTR { continue }
      guard count == 1 else {
        StandardStreams.writeOutput("\n")
        return nil
      }
      switch editor.take(byte) {
      case .editing: StandardStreams.writeOutput(editor.redraw(preview: preview?(editor.line)))
      case .line(let line):
        // The line as it was answered, without its preview.
        StandardStreams.writeOutput("\r\u{1B}[K" + TerminalText.safe(line) + "\n")
        return line
      case .stop:
        StandardStreams.writeOutput("\n")
        return nil
      }
    }
  }
}
