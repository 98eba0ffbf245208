import BikiTestSupport
import Foundation
import Testing

/// Listening settings and replay in Neovim, Vim and Emacs in real terminals under tmux, each set
/// up as its users set it (setup(), ~/.vimrc, init.el as Customize saves it): voice, rate and
/// pitch reach `biki say` and each session's `speech`, and the replay command says the question
/// again without counting an answer. A stand-in biki (Editors/tests/speech.sh) writes down what
/// each editor runs and sends, so no speech engine or sound card is needed. One editor at a
/// time: three at once on a loaded machine would race the screens they read.
@Suite(.serialized) struct EditorSpeechTests {
  static let hasPython = RealClientTests.required || RealClientTests.succeeds("command -v python3")
  static let hasVimAndTmux = RealClientTests.required || RealClientTests.succeeds("command -v vim && command -v tmux")

  @Test(
    .needs(
      RealClientTests.hasNeovimAndTmux && hasPython,
      "needs Neovim, tmux and python3: sudo apt-get install neovim tmux python3"))
  func neovimPassesItsSpeechSettingsOnAndReplays() throws {
    let result = try RealClientTests().run("timeout 300 Editors/nvim/tests/speech.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("nvim speech: all checks passed"))
  }

  @Test(.needs(hasVimAndTmux && hasPython, "needs Vim, tmux and python3: sudo apt-get install vim tmux python3"))
  func vimPassesItsSpeechSettingsOnAndReplays() throws {
    let result = try RealClientTests().run("timeout 300 Editors/vim/tests/speech.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("vim speech: all checks passed"))
  }

  @Test(
    .needs(
      RealClientTests.hasEmacsAndTmux && hasPython,
      "needs Emacs, eglot, tmux and python3: sudo apt-get install emacs-nox elpa-eglot tmux python3"))
  func emacsPassesItsSpeechSettingsOnAndReplays() throws {
    let result = try RealClientTests().run("timeout 300 Editors/emacs/tests/speech.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("emacs speech: all checks passed"))
  }
}
