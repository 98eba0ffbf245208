import BikiCLI
import BikiCore
import BikiHost
import BikiPractice
import Foundation

/// `biki export anki [TOPIC...] --output FILE`: the questions missed or due, as notes Anki imports.
enum ExportCommand {
  static let usage = "biki export anki [<topic> ...] --output <file>"

  static let help = """
    OVERVIEW: Export the questions you missed or are due to review, for Anki.

    Writes a UTF-8 text file Anki's importer reads (File > Import): one note per question whose
    last answer was wrong or skipped, or whose forms are due for review, with the question, the
    answer, the standard reading, every reading Biki accepts, and tags for its topic, skill and
    forms (biki::topic::counters.hon, biki::skill::kana, biki::form::本/final:8). Each note has an id
    of its own, so importing a later export updates the notes instead of adding them twice.

    USAGE: \(usage)

    ARGUMENTS:
      <topic>                 Only these topics (e.g. counters.hon); by default, every one.

    OPTIONS:
      --output <file>         Where to write the notes ('-' for standard output).
      -h, --help              Show help information.
    """

  static func run(arguments: [String], environment: BikiEnvironment) -> CommandOutcome {
    let parsed: ParsedArguments
    switch CommandOutcome.parse(
      arguments, options: [.value("--output", "<file>", short: "-o")], help: help, usage: usage,
      helpCommand: "biki export --help")
    {
    case .success(let found): parsed = found
    case .failure(let failure): return failure.outcome
    }
    guard let format = parsed.positionals.first else {
      return CommandOutcome.usageError("Name the format: anki.", usage: usage, helpCommand: "biki export --help")
    }
    guard format == "anki" else {
      return CommandOutcome.usageError(
        "Unknown format '\(TerminalText.safe(format))'; Biki exports for anki.", usage: usage,
        helpCommand: "biki export --help")
    }
    guard let output = parsed.value("--output"), !output.isEmpty else {
      return CommandOutcome.usageError(
        "Say where to write the notes: --output <file>.", usage: usage, helpCommand: "biki export --help")
    }
    let registry = environment.loadTopics()
    var outcome = CommandOutcome(standardError: SourceProblems.summary(registry))
    let topics = registry.topics
    var chosen: Set<String>?
    for name in parsed.positionals.dropFirst() {
      guard let found = QuizCommand.find(name, in: topics) else {
        let hint = Suggestion.didYouMean(name, among: topics.map(\.topic.id))
        outcome.standardError.append(
          TerminalText.safe("Error: no topic '\(name)'.\(hint) Run 'biki topics' to list them."))
        outcome.status = ExitStatus.usage
        return outcome
      }
      chosen = (chosen ?? []).union([found.topic.id])
    }

    let history = environment.history
    let (entries, warnings) = history.load()
    let (summary, _) = history.summary()
    outcome.standardError += warnings.map { TerminalText.safe("Warning: \($0)") }
    let asked = AskedQuestions.missedOrDue(entries, summary: summary, now: environment.wallClock()).filter {
      chosen?.contains($0.topicID) ?? true
    }
    let (notes, unmade) = notes(for: asked, topics: topics)
    if !unmade.isEmpty {
      outcome.standardError.append(
        TerminalText.safe(
          "Warning: left out \(unmade.count) \(unmade.count == 1 ? "question" : "questions") Biki can no longer ask as asked (\(unmade.prefix(3).joined(separator: "; ")))"
        ))
    }
    let text = AnkiNotes.text(notes)
    if output == "-" {
      outcome.standardOutput = [String(text.dropLast())]
      return outcome
    }
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
      outcome.standardError.append(TerminalText.safe("Error: cannot write \(output): \(error.localizedDescription)"))
      outcome.status = ExitStatus.cannotCreate
      return outcome
    }
    outcome.standardError.append(
      TerminalText.safe(
        "Wrote \(notes.count) \(notes.count == 1 ? "note" : "notes") to \(output); in Anki: File > Import, and map Front and Back."
      ))
    return outcome
  }

  /// Each question made again from its topic and seed, as it was asked.
  static func notes(for asked: [AskedQuestion], topics: [RegisteredTopic]) -> (
    notes: [AnkiNotes.Note], unmade: [String]
  ) {
    let wanted = Set(asked.map(\.topicID))
    var generators: [String: QuestionGenerator] = [:]
    for topic in topics where wanted.contains(topic.topic.id) { generators[topic.topic.id] = try? topic.generator() }
    let (made, unmade) = AskedQuestions.remade(asked, generators: generators)
    return (made.map { AnkiNotes.note($0.question, skill: $0.asked.skill, forms: $0.asked.forms) }, unmade)
  }
}
