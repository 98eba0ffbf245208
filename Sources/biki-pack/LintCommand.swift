import BikiCLI
import BikiCore
import BikiHost
import BikiJSON
import BikiPacks
import BikiPlugins
import Foundation

/// `biki-pack lint [PATH...] [--format text|json] [--strict]`, and `--list-checks`.
enum LintCommand {
  static let usage =
    "biki-pack lint [<path> ...] [--format text|json] [--strict] [--packs <dir>] [--check <regex>] [--skip <regex>] [--in-process] [--list-checks]"
  static let helpCommand = "biki-pack lint --help"

  static let help = """
    OVERVIEW: Check pack files and directories; report every problem.

    Each problem is printed as 'path:line:col: error|warning: message [rule-id]', then a summary.
    With no paths, checks the built-in packs and the user's pack directories. Plugin libraries
    (*.so) go through \(PluginCheck.all.count) named checks (--list-checks says what each proves):
    the ABI handshake, a descriptor stable across loads, 1,000 valid questions per topic, the same
    question for the same seed, unknown topic ids refused, and more. Each check loads the plugin
    in a worker process of its own, so a crash or hang fails that check and the others still run.

    USAGE: \(usage)

    ARGUMENTS:
      <path>                  A pack file or plugin library, or a directory of them (*.json, *.so).

    OPTIONS:
      --format <format>       text (default) or json.
      --strict                Treat warnings as errors.
      --packs <dir>           Also check this directory (repeatable).
      --check <regex>         Run only the plugin checks whose name it finds (repeatable).
      --skip <regex>          Leave out the plugin checks whose name it finds (repeatable).
      --in-process            Run every plugin check in this process, for a debugger: a crash
                              in the plugin then ends lint.
      --list-checks           List the plugin checks, each with what it proves, and exit.
      -h, --help              Show help information.

    EXIT STATUS:
      0 no errors, 1 errors found, 64 usage error, 66 a path does not exist.
    """

  static func run(arguments: [String], context: PackCommandContext) -> CommandOutcome {
    let reader: ParsedArguments
    switch CommandOutcome.parse(
      arguments,
      options: [
        .value("--format", "<format>"), .flag("--strict"), .value("--packs", "<dir>"), .value("--check", "<regex>"),
        .value("--skip", "<regex>"), .flag("--in-process"), .flag("--list-checks"),
      ], help: help,
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
    if reader.isSet("--list-checks") { return listChecks(json: json) }
    let selection: PluginCheckSelection
    do {
      selection = try PluginCheckSelection(check: reader.values("--check"), skip: reader.values("--skip"))
    } catch {
      return CommandOutcome.usageError(
        TerminalText.safe("'\(error.pattern)' is not a regular expression."), usage: usage, helpCommand: helpCommand)
    }
    guard PluginCheck.all.contains(where: { selection.runs($0.name) }) else {
      return CommandOutcome.usageError(
        TerminalText.safe(
          "No plugin check is left to run by --check and --skip; 'biki-pack lint --list-checks' lists them."),
        usage: usage, helpCommand: helpCommand)
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
      var validator = PluginValidator(spawner: context.workerSpawner, now: context.now, limits: .standard)
      validator.inProcess = reader.isSet("--in-process")
      validator.selection = selection
      let installed = Dictionary(
        load.topics.map { ($0.topic.topic.id, $0.path) }, uniquingKeysWith: { first, _ in first })
      // A library named relative to here is loaded by its full path (dlopen would look a bare
      // name up among the system's libraries), and reported as it was named.
      for library in libraries {
        let validation = validator.run(context.absolute(library), otherTopics: installed)
        report.add(
          path: library, diagnostics: validation.diagnostics, coverage: validation.coverage, checks: validation.checks)
      }
    }
    return json ? report.json() : report.text()
  }

  /// Every plugin check with what it proves: aligned lines, or a JSON array.
  static func listChecks(json: Bool) -> CommandOutcome {
    if json {
      let list = JSON.array(
        PluginCheck.all.map { .object(pairs: [("name", .string($0.name)), ("proves", .string($0.proves))]) })
      let laidOut = (try? JSONLayout.format(list.bytes)) ?? list.bytes
      return CommandOutcome(standardOutput: [
        String(decoding: laidOut.dropLast(laidOut.last == 0x0A ? 1 : 0), as: UTF8.self)
      ])
    }
    let width = PluginCheck.all.map(\.name.count).max() ?? 0
    return CommandOutcome(
      standardOutput: PluginCheck.all.map {
        $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.proves
      })
  }
}
