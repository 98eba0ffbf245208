import BikiCLI
import BikiCore
import BikiHost
import BikiJSON
import BikiPacks
import BikiPlugins
import Foundation

/// `biki-pack lint [PATH...] [--format text|json] [--strict]`.
enum LintCommand {
  static let usage = "biki-pack lint [<path> ...] [--format text|json] [--strict] [--packs <dir>]"
  static let helpCommand = "biki-pack lint --help"

  static let help = """
    OVERVIEW: Check pack files and directories; report every problem.

    Each problem is printed as 'path:line:col: error|warning: message [rule-id]', then a summary.
    With no paths, checks the built-in packs and the user's pack directories. Plugin libraries
    (*.so) are loaded in worker processes and checked: the ABI handshake, a descriptor stable
    across loads, 1,000 valid questions per topic, the same question for the same seed, and
    unknown topic ids refused.

    USAGE: \(usage)

    ARGUMENTS:
      <path>                  A pack file or plugin library, or a directory of them (*.json, *.so).

    OPTIONS:
      --format <format>       text (default) or json.
      --strict                Treat warnings as errors.
      --packs <dir>           Also check this directory (repeatable).
      -h, --help              Show help information.

    EXIT STATUS:
      0 no errors, 1 errors found, 64 usage error, 66 a path does not exist.
    """

  static func run(arguments: [String], context: PackCommandContext) -> CommandOutcome {
    let reader: ParsedArguments
    switch CommandOutcome.parse(
      arguments, options: [.value("--format", "<format>"), .flag("--strict"), .value("--packs", "<dir>")], help: help,
      usage: usage,
      helpCommand: helpCommand)
    {
    case .success(let found): reader = found
    case .failure(let failure): return failure.outcome
    }
    let strict = reader.isSet("--strict")
    var json = false
    switch reader.value("--format") {
    case nil, "text": json = false
    case "json": json = true
    case let other?:
      return CommandOutcome.usageError(
        TerminalText.safe("The value '\(other)' is invalid for '--format <format>'. Use text or json."), usage: usage,
        helpCommand: helpCommand)
    }
    let extra = reader.values("--packs")
    let explicit = reader.positionals + extra
    // Plugin libraries, given directly or found in given directories, are checked in workers.
    var libraries: [String] = []
    for path in explicit {
      if path.hasSuffix(".so") {
        guard context.fileSystem.kind(path) == .file else {
          return CommandOutcome(
            standardError: [TerminalText.safe("Error: \(path): no such file or directory")], status: ExitStatus.noInput)
        }
        libraries.append(path)
      } else if context.fileSystem.kind(path) == .directory {
        libraries += ((try? context.fileSystem.contents(path)) ?? []).filter { $0.hasSuffix(".so") }.sorted()
          .map { (path.hasSuffix("/") ? path : path + "/") + $0 }
      }
    }
    let packPaths = explicit.filter { !$0.hasSuffix(".so") }
    // What is reported is checked thoroughly. The built-in packs read beside named files only
    // for their topic ids are checked as `biki serve` checks them at start-up, on a sample:
    // Biki's own tests check them whole, and checking them whole again made every lint of a
    // one-topic pack wait a second for packs it does not report.
    let loader = PackLoader(
      fileSystem: context.fileSystem, check: explicit.isEmpty ? .thorough : .startUp, userCheck: .thorough)
    let files: [String]
    do {
      files =
        try explicit.isEmpty
        ? loader.packFiles(in: context.searchPaths(extra: []).directories, requireExistence: false)
        : loader.packFiles(in: packPaths, requireExistence: true)
    } catch {
      return CommandOutcome(standardError: [TerminalText.safe("Error: \(error)")], status: ExitStatus.noInput)
    }
    // Explicit paths are checked together with the installed packs, so a topic id that clashes
    // with one already installed is caught; only the explicit files are reported.
    // The files named take precedence over the installed copies of the same packs (a working
    // copy is not a clash with the installed pack it came from).
    let searchPaths = context.searchPaths(extra: [])
    let others =
      explicit.isEmpty ? [] : ((try? loader.packFiles(in: searchPaths.directories, requireExistence: false)) ?? [])
    let named = Set(explicit.isEmpty ? [] : files)
    let load = loader.load(files: files + others) { named.contains($0) ? .given : searchPaths.precedence(of: $0) }
    var report = LintReport(strict: strict)
    for path in files {
      let coverage = load.packs.first { $0.path == path }?.compilation.readingCoverage
      report.add(path: path, diagnostics: load.diagnostics(for: path), coverage: coverage)
    }
    if !libraries.isEmpty {
      let validator = PluginValidator(spawner: context.workerSpawner, now: context.now, limits: .standard)
      let installed = Dictionary(
        load.topics.map { ($0.topic.topic.id, $0.path) }, uniquingKeysWith: { first, _ in first })
      // A library named relative to here is loaded by its full path (dlopen would look a bare
      // name up among the system's libraries), and reported as it was named.
      for library in libraries {
        var coverage = ReadingCoverage()
        let diagnostics = validator.validate(context.absolute(library), otherTopics: installed, coverage: &coverage)
        report.add(path: library, diagnostics: diagnostics, coverage: coverage, checkedWhenAsked: true)
      }
    }
    return json ? report.json() : report.text()
  }
}

struct LintReport {
  var strict: Bool
  /// `checkedWhenAsked`: a plugin's questions are checked again as they are asked, so those lint
  /// did not check are refused then if they fail, and the note says so.
  var files: [(path: String, diagnostics: [Diagnostic], coverage: ReadingCoverage?, checkedWhenAsked: Bool)] = []

  init(strict: Bool) {
    self.strict = strict
  }

  mutating func add(
    path: String, diagnostics: [Diagnostic], coverage: ReadingCoverage? = nil, checkedWhenAsked: Bool = false
  ) {
    let diagnostics = diagnostics.map { diagnostic in
      var diagnostic = diagnostic
      if strict { diagnostic.severity = .error }
      return diagnostic
    }
    files.append((path, diagnostics, coverage, checkedWhenAsked))
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
            + (file.checkedWhenAsked
              ? "; every other question is checked when it is asked, and refused if it fails" : "")
        )
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

  private func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }

  private func grouped(_ count: UInt64) -> String { NumberFormatting.grouped(Int64(clamping: count)) }
}
