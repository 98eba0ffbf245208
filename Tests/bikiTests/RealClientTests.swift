import BikiTestSupport
import Foundation
import Testing

/// `biki serve` driven by clients written elsewhere: pytest-lsp and headless Neovim. They run
/// when those are installed; `.ci/run` installs them and sets BIKI_REQUIRE_CLIENTS=1, so there a
/// missing client is a failure rather than a skip.
@Suite(.serialized) struct RealClientTests {
  static let required = ProcessInfo.processInfo.environment["BIKI_REQUIRE_CLIENTS"] == "1"

  static func succeeds(_ script: String) -> Bool {
    (try? BikiProcess.run([], viaShell: script, environment: ProcessInfo.processInfo.environment).status) == 0
  }

  static let hasPytestLSP = required || succeeds("python3 -c 'import pytest_lsp, pytest_asyncio'")
  static let hasNeovim = required || succeeds("command -v nvim")
  static let hasNeovimAndTmux = required || succeeds("command -v nvim && command -v tmux")
  static let hasEmacs = required || succeeds("command -v emacs")
  static let hasEmacsAndTmux = required || succeeds("command -v emacs && command -v tmux")
  static let hasVimALE = required || succeeds("command -v vim && command -v tmux && test -d /usr/share/vim-ale")
  static let hasTmux = required || succeeds("command -v tmux")
  static let hasKate = required || succeeds("command -v kate && command -v Xvfb && command -v xdotool")
  static let hasAbigail = required || succeeds("command -v abidw && command -v abidiff")

  /// The ABI checker CI runs: clean against the released manifests, and it catches a change (the
  /// synthetic later header's appended fields) and names it.
  @Test(.needs(hasAbigail, "needs libabigail: sudo apt-get install abigail-tools"))
  func theABICheckerPassesTheHeaderAndCatchesAChange() throws {
    let clean = try run(".ci/abi-check")
    #expect(clean.status == 0, "\(clean.standardOutput)\(clean.standardError)")
    #expect(clean.standardOutput.contains("abi: the released copy of 1.0 matches its manifest\n"))
    #expect(clean.standardOutput.contains("abi: the plugin ABI's types match .ci/abi/1.1/biki_plugin.abi\n"))
    let later = "Tests/BikiPluginsTests/Fixtures/abi/later"
    let changed = try run("BIKI_ABI_INCLUDE=\(later) .ci/abi-check")
    #expect(changed.status == 1)
    #expect(
      changed.standardOutput.contains(
        "abi: \(later)/biki_plugin.h states 1.2, which is not released; compared with 1.1"),
      "\(changed.standardOutput)")
    #expect(changed.standardOutput.contains("'void (const biki_host*, const char*)* log'"), "\(changed.standardOutput)")
    #expect(changed.standardOutput.contains("abi: the plugin ABI changed against .ci/abi/1.1/biki_plugin.abi"))
    // A released copy, checked as the header, is the version it states.
    let released = try run("BIKI_ABI_INCLUDE=.ci/abi/1.0 .ci/abi-check")
    #expect(released.status == 0, "\(released.standardOutput)")
    #expect(released.standardOutput.contains("abi: the plugin ABI's types match .ci/abi/1.0/biki_plugin.abi\n"))
  }

  /// Runs `script` from the repository root with BIKI naming the built `biki`.
  func run(_ script: String) throws -> BikiProcess.Result {
    try BikiProcess.run(
      [], viaShell: #"BIKI="$0" "# + script, environment: Self.ownEnvironment(),
      directory: BikiPackTests.repository.path)
  }

  /// This process's environment with Biki's caches and history in a place of the test's own:
  /// the user's are never read or written, whatever a script leaves unset.
  static func ownEnvironment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    let own = NSTemporaryDirectory() + "biki-client-" + UUID().uuidString
    environment["XDG_CACHE_HOME"] = own + "/cache"
    environment["XDG_STATE_HOME"] = own + "/state"
    return environment
  }

  /// The installed biki, by bare name, started from another directory: every capability with
  /// the client advertising it and without.
  @Test(.needs(hasPytestLSP, "needs pytest-lsp: python3 -m pip install pytest-lsp pytest-asyncio"))
  func pytestLSPSeesDiagnosticsAndRunsAQuiz() throws {
    // pytest exits 5 when it collects nothing; only 0 means the tests ran and passed.
    let result = try runInstalled(
      #"tests="$PWD/Tests/clients"; cd "$(mktemp -d)" && BIKI=biki python3 -m pytest -q -p no:cacheprovider "$tests""#)
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("10 passed"), "\(result.standardOutput)")
  }

  @Test(.needs(hasNeovim, "needs Neovim: sudo apt-get install neovim"))
  func neovimExtensionPassesItsHeadlessChecks() throws {
    let result = try run(#"timeout 300 nvim --headless -u NONE -i NONE -n -c "luafile Editors/nvim/tests/run.lua""#)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("nvim: all checks passed"))
  }

  /// Neovim in a real terminal: tmux types a quiz and reads the screen at each prompt.
  @Test(.needs(hasNeovimAndTmux, "needs Neovim and tmux: sudo apt-get install neovim tmux"))
  func neovimQuizAsALearnerSeesIt() throws {
    let result = try run("timeout 300 Editors/nvim/tests/quiz.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("nvim quiz: all checks passed"))
  }

  /// The Neovim recipe of docs/editors.md, run as written with a fresh HOME: attaching to packs
  /// (anywhere in the file, once pasted), :checkhealth, :help, setup() options.
  @Test(.needs(hasNeovimAndTmux, "needs Neovim and tmux: sudo apt-get install neovim tmux"))
  func neovimAsItsUsersSetItUp() throws {
    let result = try runInstalled("timeout 300 Editors/nvim/tests/editor.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("nvim editor: all checks passed"))
  }

  /// biki.el in real Emacs (Debian's 28 with elpa-eglot, or 29+ with eglot built in).
  @Test(.needs(hasEmacs, "needs Emacs and eglot: sudo apt-get install emacs-nox elpa-eglot"))
  func emacsExtensionPassesItsBatchTests() throws {
    let result = try run(
      "timeout 300 emacs --batch -Q -l Editors/emacs/tests/biki-test.el -f ert-run-tests-batch-and-exit")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardError.contains("0 unexpected"), "\(result.standardError)")
  }

  /// Biki installed as a user installs it (`biki install --prefix`), once for the tests that
  /// run it by bare name from another directory.
  static let installed: String? = {
    let prefix = NSTemporaryDirectory() + "biki-installed-" + UUID().uuidString
    let result = try? BikiProcess.run(
      ["install", "--prefix", prefix], environment: ["HOME": prefix + "/home", "PATH": "/usr/bin:/bin"])
    return result?.status == 0 ? prefix : nil
  }()

  /// Runs `script` from the repository root with the installed Biki first on PATH.
  func runInstalled(_ script: String) throws -> BikiProcess.Result {
    let prefix = try #require(Self.installed, "biki install --prefix failed")
    var environment = Self.ownEnvironment()
    environment["PATH"] = prefix + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["BIKI"] = prefix + "/bin/biki"
    return try BikiProcess.run([], viaShell: script, environment: environment, directory: BikiPackTests.repository.path)
  }

  /// Kate 22.12 in a window under Xvfb, set up as docs/editors.md says, with the installed biki.
  @Test(
    .needs(hasKate, "needs Kate, Xvfb and xdotool: sudo apt-get install --no-install-recommends kate xvfb xdotool"))
  func kateAsItsUsersSetItUp() throws {
    let result = try runInstalled("timeout 120 Tests/clients/kate.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("kate: all checks passed"))
  }

  /// biki.el installed with package-install-file in real Emacs in a terminal, set up as
  /// docs/editors.md says: diagnostics, M-., the menu and keys, a quiz.
  @Test(.needs(hasEmacsAndTmux, "needs Emacs, eglot and tmux: sudo apt-get install emacs-nox elpa-eglot tmux"))
  func emacsInATerminalAsItsUsersMeetIt() throws {
    let result = try runInstalled("timeout 300 Editors/emacs/tests/tmux.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("emacs tmux: all checks passed"))
  }

  /// Listening in Neovim and Emacs with Open JTalk installed (README's two lines), by the
  /// installed biki: the question's audio played, and the engine named by :checkhealth and Emacs.
  @Test(
    .needs(
      hasNeovimAndTmux && hasEmacs && SpeechTests.openJTalkUsable,
      "needs Neovim, Emacs, tmux and Open JTalk: sudo apt-get install neovim emacs-nox tmux open-jtalk open-jtalk-mecab-naist-jdic alsa-utils && python3 -m pip install pyopenjtalk-plus"
    ))
  func theEditorsSpeakWithOpenJTalk() throws {
    let result = try runInstalled("timeout 180 Tests/clients/listening.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("listening: all checks passed"))
  }

  /// The topic menu of `biki quiz`, installed and run by bare name, in a real 80×24 terminal.
  @Test(.needs(hasTmux, "needs tmux: sudo apt-get install tmux"))
  func theTopicMenuFitsATerminalAndNarrowsByTyping() throws {
    let result = try runInstalled("timeout 120 Tests/clients/menu.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("menu tmux: all checks passed"))
  }

  /// The Vim 9 quiz client in a real terminal, installed as docs/editors.md says.
  @Test(.needs(hasVimALE, "needs Vim and tmux: sudo apt-get install vim tmux"))
  func vimQuizAsALearnerSeesIt() throws {
    let result = try runInstalled("timeout 300 Editors/vim/tests/quiz.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("vim quiz: all checks passed"))
  }

  /// Vim with ALE, set up as docs/editors.md says, in a real terminal.
  @Test(.needs(hasVimALE, "needs Vim, ALE and tmux: sudo apt-get install vim vim-ale tmux"))
  func vimWithALEShowsPackDiagnostics() throws {
    let result = try run("timeout 120 Tests/clients/ale.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
  }
}
