import BikiCLI
import BikiCore
import BikiHost

/// `biki-pack new NAME [--directory DIR]`: a lint-clean pack to start from.
enum NewCommand {
  static let usage = "biki-pack new <name> [--directory <dir>]"
  static let helpCommand = "biki-pack new --help"

  static let help = """
    OVERVIEW: Write a new, lint-clean pack to start from.

    Writes <name>.json with one topic to edit. It never overwrites a file.

    USAGE: \(usage)

    ARGUMENTS:
      <name>                  The pack id: lowercase letters, digits and '-', starting with a letter.

    OPTIONS:
      --directory <dir>       Where to write it (default: the current directory).
      -h, --help              Show help information.
    """

  static func run(arguments: [String], context: PackCommandContext) -> CommandOutcome {
    let reader: ParsedArguments
    switch CommandOutcome.parse(
      arguments, options: [.value("--directory", "<dir>")], help: help, usage: usage, helpCommand: helpCommand)
    {
    case .success(let found): reader = found
    case .failure(let failure): return failure.outcome
    }
    let directory = reader.value("--directory") ?? context.currentDirectory
    guard reader.positionals.count == 1, let name = reader.positionals.first else {
      return usageError(reader.positionals.isEmpty ? "Missing expected argument '<name>'." : "Give one name.")
    }
    guard Identifier.isValid(name) else {
      return usageError("'\(name)' is not a valid pack id: use \(Identifier.rule).")
    }
    guard context.fileSystem.kind(directory) == .directory else {
      return CommandOutcome(standardError: ["Error: \(directory): no such directory"], status: ExitStatus.noInput)
    }
    let path = (directory.hasSuffix("/") ? directory : directory + "/") + name + ".json"
    guard context.fileSystem.kind(path) == nil else {
      return CommandOutcome(
        standardError: ["Error: \(path) already exists; not overwriting it."], status: ExitStatus.cannotCreate)
    }
    do {
      try context.fileSystem.create(path, Array(template(name).utf8))
    } catch {
      return CommandOutcome(
        standardError: [TerminalText.safe("Error: cannot write \(path): \(error)")], status: ExitStatus.cannotCreate)
    }
    return CommandOutcome(standardOutput: [
      "Wrote \(path).", "Check it with:  biki-pack lint \(path)", "Try it with:    biki-pack sample \(path)",
    ])
  }

  static func template(_ name: String) -> String {
    """
    {
      "format": 1,
      "id": "\(name)",
      "title": "\(name)",
      "version": "0.1.0",
      "description": "What this pack drills.",
      "topics": [
        {
          "id": "pens",
          "title": "Pens (1–20本)",
          "description": "Counting pens with 本: いっぽん, さんぼん, ろっぽん, はっぽん, じゅっぽん.",
          "category": "counter",
          "skills": ["listening", "reading", "kana"],
          "variables": {
            "n": { "range": { "min": 1, "max": 20 } }
          },
          "question": {
            "parts": [{ "number": "n", "counter": "本" }],
            "answer": { "value": "n", "postfix": "本" }
          }
        }
      ]
    }

    """
  }

  private static func usageError(_ message: String) -> CommandOutcome {
    CommandOutcome.usageError(message, usage: usage, helpCommand: helpCommand)
  }
}
