import BikiCLI
import BikiCore
import BikiHost
import BikiJSON

/// `biki-pack fmt [--check] PATH...`: the canonical layout `JSONLayout` gives, written in place.
enum FmtCommand {
  static let usage = "biki-pack fmt [--check] <path> ..."
  static let helpCommand = "biki-pack fmt --help"

  static let help = """
    OVERVIEW: Lay out pack files canonically, in place.

    Two-space indents; an object or array on one line when it fits in \(JSONLayout.width) columns,
    else one entry per line. Only whitespace changes: keys keep their order, strings and numbers
    their spelling. Formatting a formatted file changes nothing. The language server formats
    the same way (textDocument/formatting).

    USAGE: \(usage)

    ARGUMENTS:
      <path>                  A pack file, or a directory of them (its *.json files).

    OPTIONS:
      --check                 Change nothing; list the files that are not formatted.
      -h, --help              Show help information.

    EXIT STATUS:
      0 every file is formatted (or was formatted now), 1 with --check: some are not,
      64 usage error, 65 a file is not valid JSON or would grow past the 8 MiB a pack may be,
      66 a path does not exist, 73 a file could not be written.
    """

  static func run(arguments: [String], context: PackCommandContext) -> CommandOutcome {
    let reader: ParsedArguments
    switch CommandOutcome.parse(
      arguments, options: [.flag("--check")], help: help, usage: usage, helpCommand: helpCommand)
    {
    case .success(let found): reader = found
    case .failure(let failure): return failure.outcome
    }
    guard !reader.positionals.isEmpty else {
      return CommandOutcome.usageError("Missing expected argument '<path>'.", usage: usage, helpCommand: helpCommand)
    }
    let checkOnly = reader.isSet("--check")
    var outcome = CommandOutcome()
    var files: [String] = []
    for path in reader.positionals {
      switch context.fileSystem.kind(path) {
      case .directory:
        let names = (try? context.fileSystem.contents(path)) ?? []
        let directory = path.hasSuffix("/") ? path : path + "/"
        files += names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.sorted().map { directory + $0 }
      case .file, .other: files.append(path)
      case nil:
        outcome.standardError.append(TerminalText.safe("Error: \(path): no such file or directory"))
        outcome.status = ExitStatus.noInput
      }
    }
    var changed = 0
    var unchanged = 0
    for file in files {
      let text: [UInt8]
      do {
        text = try context.fileSystem.read(file)
      } catch {
        outcome.standardError.append(TerminalText.safe("\(file): error: cannot read: \(error)"))
        outcome.status = max(outcome.status, ExitStatus.noInput)
        continue
      }
      let laidOut: [UInt8]
      do {
        laidOut = try JSONLayout.format(text)
      } catch {
        outcome.standardError.append(
          TerminalText.safe(
            "\(file):\(error.position.line + 1):\(error.position.column + 1): error: \(error.message) [json-syntax]"))
        outcome.status = max(outcome.status, ExitStatus.dataError)
        continue
      }
      if laidOut == text {
        unchanged += 1
        continue
      }
      // Laid out, a pack near the limit can pass it, and a pack Biki loads would become one
      // it refuses: the file is left as it is.
      if laidOut.count > FileSystem.maximumPackSize, text.count <= FileSystem.maximumPackSize {
        outcome.standardError.append(
          TerminalText.safe(
            "\(file): error: laid out it would be \(laidOut.count) bytes, past the \(FileSystem.maximumPackSize / 1024 / 1024) MiB a pack may be, and Biki could no longer load it; left as it is (split it into smaller packs)"
          ))
        outcome.status = max(outcome.status, ExitStatus.dataError)
        continue
      }
      changed += 1
      if checkOnly {
        outcome.standardOutput.append(TerminalText.safe("\(file) is not formatted"))
        continue
      }
      do {
        try context.fileSystem.replace(file, laidOut)
        outcome.standardOutput.append(TerminalText.safe("Formatted \(file)"))
      } catch {
        outcome.standardError.append(TerminalText.safe("\(file): error: cannot write: \(error)"))
        outcome.status = max(outcome.status, ExitStatus.cannotCreate)
      }
    }
    func count(_ count: Int) -> String { count == 1 ? "1 file" : "\(count) files" }
    if checkOnly {
      outcome.standardOutput.append("\(count(changed)) not formatted, \(count(unchanged)) formatted.")
      if changed > 0 && outcome.status == 0 { outcome.status = ExitStatus.failure }
    } else {
      outcome.standardOutput.append("\(count(changed)) formatted now, \(count(unchanged)) already formatted.")
    }
    return outcome
  }
}
