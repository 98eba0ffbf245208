import BikiTestSupport
import Foundation
import Testing

/// The editor clients against the recorded exchange (Tests/clients/exchange.json, held to the
/// real server by `RecordedExchangeTests`, replayed by Tests/clients/replay_server.py): each
/// quiz shows what the recorded answers hold, so a field the server renames fails the client
/// that reads it. They need no built Biki, and run where `RealClientTests` runs its clients.
@Suite struct ReplayClientTests {
  func run(_ script: String) throws -> BikiProcess.Result {
    try BikiProcess.run(
      [], viaShell: script, environment: ProcessInfo.processInfo.environment,
      directory: BikiPackTests.repository.path)
  }

  @Test(.needs(RealClientTests.hasNeovim, "needs Neovim: sudo apt-get install neovim"))
  func neovimShowsTheRecordedQuiz() throws {
    let result = try run(#"timeout 120 nvim --headless -u NONE -i NONE -n -c "luafile Editors/nvim/tests/replay.lua""#)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("nvim replay: all checks passed"))
  }

  @Test(.needs(RealClientTests.hasEmacs, "needs Emacs and eglot: sudo apt-get install emacs-nox elpa-eglot"))
  func emacsShowsTheRecordedQuiz() throws {
    let result = try run(
      "timeout 120 emacs --batch -Q -l Editors/emacs/tests/biki-replay-test.el -f ert-run-tests-batch-and-exit")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardError.contains("0 unexpected"), "\(result.standardError)")
  }

  @Test(.needs(RealClientTests.hasVimALE, "needs Vim and tmux: sudo apt-get install vim tmux"))
  func vimShowsTheRecordedQuiz() throws {
    let result = try run("timeout 120 Editors/vim/tests/replay.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("vim replay: all checks passed"))
  }
}
