import BikiCLI
import BikiCore
import BikiHost
import BikiJSON
import BikiPacks

/// What lint found, file by file, as text or JSON.
struct LintReport {
  var strict: Bool
  var files: [File] = []

  struct File {
    var path: String
    var diagnostics: [Diagnostic]
    var coverage: ReadingCoverage?
    /// A plugin library's checks, each with its outcome; nil for a pack. A plugin's questions
    /// are also checked as they are asked, so those lint did not check are refused then if they
    /// fail, and the note on coverage says so.
    var checks: [PluginCheckReport]?
  }

  init(strict: Bool) {
    self.strict = strict
  }

  mutating func add(
    path: String, diagnostics: [Diagnostic], coverage: ReadingCoverage? = nil, checks: [PluginCheckReport]? = nil
  ) {
    let diagnostics = diagnostics.map { diagnostic in
      var diagnostic = diagnostic
      if strict { diagnostic.severity = .error }
      return diagnostic
    }
    files.append(File(path: path, diagnostics: diagnostics, coverage: coverage, checks: checks))
  }

  var errors: Int { files.reduce(0) { $0 + $1.diagnostics.filter { $0.severity == .error }.count } }
  var warnings: Int { files.reduce(0) { $0 + $1.diagnostics.filter { $0.severity == .warning }.count } }
  var status: Int32 { errors > 0 ? ExitStatus.failure : ExitStatus.success }

  func text() -> CommandOutcome {
    var lines = files.flatMap { file in
      // Messages quote the pack's keys and values.
      var lines = file.diagnostics.map { TerminalText.safe($0.formatted(path: file.path)) }
      // Wide topics are checked on an even spread, not question by question: say how much.
      if let coverage = file.coverage, coverage.isSample {
        lines.append(
          "\(TerminalText.safe(file.path)): note: readings were checked on \(grouped(coverage.checked)) of \(grouped(coverage.possible)) possible questions, spread evenly over each topic"
            + (file.checks != nil
              ? "; every other question is checked when it is asked, and refused if it fails" : "")
        )
      }
      if let checks = file.checks, let note = LintReport.note(on: checks) {
        lines.append("\(TerminalText.safe(file.path)): note: \(note)")
      }
      return lines
    }
    let fileCount = "\(files.count) file\(files.count == 1 ? "" : "s")"
    if errors + warnings == 0 {
      lines.append("\(fileCount) checked: no problems.")
    } else {
      lines.append("\(plural(errors, "error")) and \(plural(warnings, "warning")) in \(fileCount).")
    }
    return CommandOutcome(standardOutput: lines, status: status)
  }

  /// `{errors, files, warnings}`, keys in sorted order at every level, laid out as `biki-pack fmt`
  /// lays out a pack.
  func json() -> CommandOutcome {
    func integer(_ value: Int) -> JSON { .integer(Int64(value)) }
    let listed: [JSON] = files.map { file in
      let diagnostics: [JSON] = file.diagnostics.map {
        .object(pairs: [
          ("column", integer($0.range.start.column + 1)), ("endColumn", integer($0.range.end.column + 1)),
          ("endLine", integer($0.range.end.line + 1)), ("line", integer($0.range.start.line + 1)),
          ("message", .string($0.message)),
          ("rule", .string($0.rule)), ("severity", .string($0.severity.rawValue)),
        ])
      }
      var members: [(String, JSON)] = [("diagnostics", .array(diagnostics)), ("path", .string(file.path))]
      if let coverage = file.coverage {
        members.append(
          (
            "readingCoverage",
            .object(pairs: [
              ("checked", .integer(Int64(clamping: coverage.checked))),
              ("possible", .integer(Int64(clamping: coverage.possible))),
            ])
          ))
      }
      if let checks = file.checks {
        members.append(("checks", .array(checks.map(json))))
      }
      return .object(pairs: members)
    }
    let output = JSON.object(pairs: [
      ("errors", integer(errors)), ("files", .array(listed)), ("warnings", integer(warnings)),
    ])
    let laidOut = (try? JSONLayout.format(output.bytes)) ?? output.bytes
    let text = String(decoding: laidOut.last == 0x0A ? laidOut.dropLast() : laidOut[...], as: UTF8.self)
    return CommandOutcome(standardOutput: [LintReport.terminalSafeJSON(text)], status: status)
  }

  /// JSON still valid, and still safe for a terminal: the encoder escapes C0 controls in strings
  /// but leaves DEL, C1 controls and bidi overrides as they are. Outside strings JSON has none of
  /// these, so each becomes a `\uXXXX` escape (all are below U+10000), which decodes to the same text.
  static func terminalSafeJSON(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      if TerminalText.needsEscape(scalar, keepingLayout: true) {
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A plugin's checks as `--format json` gives them: name, status, and (where they apply) the
  /// signal of a crash, why a check was skipped, and the rules of its problems. Under --strict a
  /// check with warnings fails.
  private func json(_ check: PluginCheckReport) -> JSON {
    let failedByStrictness = strict && check.status == .passed && !check.diagnostics.isEmpty
    var members: [(String, JSON)] = [
      ("name", .string(check.name)), ("status", .string(failedByStrictness ? "failed" : check.status.rawValue)),
    ]
    if let reason = check.reason { members.append(("reason", .string(reason))) }
    if !check.diagnostics.isEmpty {
      members.append(("rules", .array(Array(Set(check.diagnostics.map(\.rule))).sorted().map { .string($0) })))
    }
    if let signal = check.signal { members.append(("signal", .integer(Int64(signal)))) }
    return .object(pairs: members)
  }

  /// A line on a plugin's checks when one did not pass, or some were not run: how many of each,
  /// and which failed or crashed; nil when every check that ran passed.
  static func note(on checks: [PluginCheckReport]) -> String? {
    func named(_ status: PluginCheckReport.Status) -> [PluginCheckReport] { checks.filter { $0.status == status } }
    let failed = named(.failed)
    let crashed = named(.crashed)
    let unselected = checks.filter(\.wasLeftOut)
    guard !failed.isEmpty || !crashed.isEmpty || !unselected.isEmpty else { return nil }
    var parts = ["\(named(.passed).count) passed"]
    // The first few by name: a plugin that crashes on every question crashes most checks.
    func names(_ reports: [PluginCheckReport]) -> String {
      let shown = reports.prefix(4).map(\.name).joined(separator: ", ")
      return reports.count > 4 ? shown + " and \(reports.count - 4) more" : shown
    }
    if !failed.isEmpty { parts.append("\(failed.count) failed (\(names(failed)))") }
    if !crashed.isEmpty {
      let signals = Set(crashed.compactMap(\.signal)).sorted().map(String.init).joined(separator: ", ")
      parts.append(
        "\(crashed.count) crashed\(signals.isEmpty ? "" : " with signal \(signals)") (\(names(crashed)))")
    }
    let skipped = named(.skipped).count
    if skipped > 0 {
      parts.append("\(skipped) skipped" + (unselected.isEmpty ? "" : ", \(unselected.count) not selected"))
    }
    return "of \(checks.count) checks, " + parts.joined(separator: ", ")
      + "; biki-pack lint --list-checks says what each proves"
  }

  private func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }

  private func grouped(_ count: UInt64) -> String { NumberFormatting.grouped(Int64(clamping: count)) }
}
