import Foundation
import Testing

/// `biki quiz --speak`, installed and run by bare name, in a real terminal: a question played
/// again with an empty line, no answer counted.
@Suite struct TerminalListeningTests {
  @Test(.needs(RealClientTests.hasTmux && SpeechTests.openJTalkUsable, SpeechTests.needsOpenJTalk))
  func anEmptyLinePlaysTheQuestionAgain() throws {
    let result = try RealClientTests().runInstalled("timeout 120 Tests/clients/quiz_listening.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("quiz listening: all checks passed"))
  }
}

/// The answer prompt, installed and run by bare name, in a real terminal: line editing as a
/// shell's prompt has it, and Ctrl-C ending with the summary.
@Suite struct TerminalKeysTests {
  @Test(.needs(RealClientTests.hasTmux, "needs tmux: sudo apt-get install tmux"))
  func theAnswerPromptEditsAndCtrlCEndsWithTheSummary() throws {
    let result = try RealClientTests().runInstalled("timeout 120 Tests/clients/quiz_keys.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("quiz keys: all checks passed"))
  }
}

/// biki.el with lsp-mode instead of eglot, installed as docs/editors.md says, in real Emacs in
/// a terminal: a pack's typo diagnosed, M-. to a counter's definition.
@Suite struct EmacsLspModeTests {
  static let hasLspMode =
    ProcessInfo.processInfo.environment["BIKI_REQUIRE_CLIENTS"] == "1"
    || FileManager.default.fileExists(atPath: "/usr/share/emacs/site-lisp/elpa/lsp-mode-8.0.0")
    || ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/share/emacs/site-lisp/elpa-src")) ?? []).contains {
      $0.hasPrefix("lsp-mode")
    }

  @Test(
    .needs(
      RealClientTests.hasEmacsAndTmux && hasLspMode,
      "needs Emacs, lsp-mode and tmux: sudo apt-get install emacs-nox elpa-lsp-mode tmux"))
  func lspModeChecksPacks() throws {
    let result = try RealClientTests().runInstalled("timeout 200 Editors/emacs/tests/lsp-mode.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("emacs lsp-mode: all checks passed"))
  }
}
