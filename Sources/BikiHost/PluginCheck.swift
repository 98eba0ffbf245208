import BikiCore
import BikiPacks
import Foundation

/// One named check of `biki-pack lint` on a plugin library: what it proves, in a line, and how.
/// Each runs on a load of the plugin of its own (a fresh worker process, unless lint runs
/// `--in-process`), so a crash or hang in one fails that check and the others still run.
package struct PluginCheck: Sendable {
  /// "generate.kana": the group, then what it checks.
  package let name: String
  /// One line: what passing proves.
  package let proves: String
  let body: @Sendable (PluginCheckSubject) -> Finding
  /// Whether the check times the plugin, and so runs before the others, with nothing beside it.
  let runsAlone: Bool

  init(
    _ name: String, _ proves: String, runsAlone: Bool = false,
    _ body: @escaping @Sendable (PluginCheckSubject) -> Finding
  ) {
    self.name = name
    self.proves = proves
    self.runsAlone = runsAlone
    self.body = body
  }

  /// What a check found: problems (none when it passed), or why it could not run.
  enum Finding {
    case problems([Diagnostic])
    case skipped(String)

    static let passed = Finding.problems([])
  }
}

/// What became of one check.
package struct PluginCheckReport: Sendable {
  package enum Status: String, Sendable {
    case passed, failed, skipped, crashed
  }

  package let name: String
  package let status: Status
  /// Its problems: errors make it fail, warnings alone do not.
  package let diagnostics: [Diagnostic]
  /// Why it was skipped.
  package let reason: String?
  /// The signal the plugin's worker died of while this check ran (status `crashed`).
  package let signal: Int32?
  /// Whether `--check` or `--skip` left the check out (status `skipped`).
  package let wasLeftOut: Bool

  init(name: String, finding: PluginCheck.Finding, crashed: Bool, signal: Int32?) {
    self.name = name
    switch finding {
    case .skipped(let why):
      diagnostics = []
      reason = why
      status = crashed ? .crashed : .skipped
    case .problems(let found):
      diagnostics = found
      reason = nil
      status = crashed ? .crashed : found.contains { $0.severity == .error } ? .failed : .passed
    }
    self.signal = crashed ? signal : nil
    wasLeftOut = false
  }

  init(notSelected name: String, because reason: String) {
    self.name = name
    status = .skipped
    diagnostics = []
    self.reason = reason
    signal = nil
    wasLeftOut = true
  }
}

/// Which checks run: `--check REGEX` keeps those whose name it finds, `--skip REGEX` drops them
/// (both repeatable; a name is searched, so `kana` finds `generate.kana`).
package struct PluginCheckSelection: Sendable {
  private let keep: [String]
  private let drop: [String]

  package static let all = PluginCheckSelection()

  private init() {
    keep = []
    drop = []
  }

  /// nil, and the pattern, when one is not a valid regular expression.
  package init(check: [String], skip: [String]) throws(InvalidPattern) {
    for pattern in check + skip {
      guard (try? NSRegularExpression(pattern: pattern)) != nil else { throw InvalidPattern(pattern: pattern) }
    }
    keep = check
    drop = skip
  }

  package struct InvalidPattern: Error {
    package let pattern: String
  }

  package var isEverything: Bool { keep.isEmpty && drop.isEmpty }

  /// Whether the check named `name` runs.
  package func runs(_ name: String) -> Bool { exclusion(of: name) == nil }

  /// nil when the check runs; else why not.
  func exclusion(of name: String) -> String? {
    func finds(_ pattern: String) -> Bool {
      name.range(of: pattern, options: .regularExpression) != nil
    }
    if !keep.isEmpty, !keep.contains(where: finds) { return "not selected by --check" }
    if let pattern = drop.first(where: finds) { return "left out by --skip \(pattern)" }
    return nil
  }
}
