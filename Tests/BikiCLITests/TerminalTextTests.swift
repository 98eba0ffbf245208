import Testing

@testable import BikiCLI

@Suite struct TerminalTextTests {
  @Test(arguments: [
    ("\u{1B}]0;pwned\u{07}", "\\u{1B}]0;pwned\\u{7}"),
    ("\u{1B}[2J", "\\u{1B}[2J"),
    ("a\u{0}b", "a\\u{0}b"),
    ("line\r\nnext\tcolumn", "line\\u{D}\\u{A}next\\u{9}column"),
    ("\u{7F}\u{80}\u{9B}31m\u{9F}", "\\u{7F}\\u{80}\\u{9B}31m\\u{9F}"),
    ("abc\u{202E}fdp.exe", "abc\\u{202E}fdp.exe"),
    (
      "\u{202A}\u{202B}\u{202C}\u{202D}\u{2066}\u{2067}\u{2068}\u{2069}",
      "\\u{202A}\\u{202B}\\u{202C}\\u{202D}\\u{2066}\\u{2067}\\u{2068}\\u{2069}"
    ),
  ])
  func controlsAndBidiOverridesAreShownAsEscapes(_ text: String, _ shown: String) {
    #expect(TerminalText.safe(text) == shown)
  }

  @Test func japaneseEmojiAndOrdinaryTextPassUnchanged() {
    for text in [
      "八本 はっぽん ハッポン", "令和元年5月1日", "¥1,500 — 3,000円", "🍣🇯🇵👨‍👩‍👧", "C:\\packs\\u{1B} stays", "e\u{301}",
      "\u{A0}\u{200B}\u{FEFF}",
    ] {
      #expect(TerminalText.safe(text) == text)
      #expect(TerminalText.safe(text, keepingLayout: true) == text)
    }
  }

  @Test func layoutIsKeptOnlyWhenAsked() {
    #expect(TerminalText.safe("id\ttitle\nnext", keepingLayout: true) == "id\ttitle\nnext")
    #expect(TerminalText.safe("id\ttitle\nnext") == "id\\u{9}title\\u{A}next")
    // Layout is \n and \t only: a carriage return could still overwrite a line.
    #expect(TerminalText.safe("a\r\u{1B}b\n", keepingLayout: true) == "a\\u{D}\\u{1B}b\n")
  }

  @Test func everyScalarThatNeedsEscapingIsEscapedAndNoOther() {
    for value in UInt32(0)...0x2100 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let shown = TerminalText.safe(String(Character(scalar)))
      let escaped =
        value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
        || (0x2066...0x2069).contains(value)
      #expect(
        shown == (escaped ? "\\u{\(String(value, radix: 16, uppercase: true))}" : String(Character(scalar))),
        "U+\(String(value, radix: 16))")
    }
  }

  /// Columns as a terminal gives them: kanji, kana and fullwidth forms take two.
  @Test func columnsCountWideCharactersTwice() {
    #expect(TerminalText.columns("本 (1–10)") == 9)
    #expect(TerminalText.columns("ヶ国ｱ１") == 7)  // halfwidth katakana takes one
    #expect(TerminalText.columns("e\u{301}") == 1)
    #expect(TerminalText.fitting("Hours (1–48 時間), Minutes", width: 16) == "Hours (1–48 時…")
    #expect(TerminalText.columns(TerminalText.fitting("時間時間時間", width: 6)) <= 6)
    #expect(TerminalText.fitting("short", width: 10) == "short")
  }
}
