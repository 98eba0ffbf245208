import BikiCLI
import BikiFiles
import BikiPractice
import BikiServer
import Foundation

/// `biki stats [TOPIC]`: accuracy over the answer history, and the forms missed most often.
enum StatsCommand {
  static let usage = "biki stats [<topic>] [--html[=<file>]] | biki stats --evaluate [--json]"

  static let help = """
    OVERVIEW: Show accuracy over your answer history, and what you miss most often.

    Reads $XDG_STATE_HOME/biki/history.jsonl (default ~/.local/state/biki/history.jsonl), where
    'biki quiz' and 'biki serve' record every answer.

    USAGE: \(usage)

    ARGUMENTS:
      <topic>                 Only this topic, e.g. counters.hon.

    OPTIONS:
      --html[=<file>]         Also write a report page: accuracy over time, time per answer,
                              reviews coming due, a heat map of forms, weak to known, and what
                              to practise next (one file; no network, no script). Without
                              =<file>, it is $XDG_STATE_HOME/biki/report.html; either way its
                              file:// address is printed, to open in a browser.
      --evaluate              Say which parameters schedule your reviews (FSRS's defaults, or
                              fitted to your answers) and how well each predicts answers it
                              had not seen: log loss and RMSE(bins), on a time-series split.
      --json                  With --evaluate: the same as one JSON object, for tools.
      -h, --help              Show help information.
    """

  /// `defaultReport` is where `--html` alone writes the page (nil when there is no state
  /// directory to be had).
  static func run(arguments: [String], history: AnswerHistory, now: Double, defaultReport: String?) -> CommandOutcome {
    let parsed: ParsedArguments
    switch CommandOutcome.parse(
      arguments, options: [.optionalValue("--html", "<file>"), .flag("--evaluate"), .flag("--json")], help: help,
      usage: usage,
      helpCommand: "biki stats --help")
    {
    case .success(let found): parsed = found
    case .failure(let failure): return failure.outcome
    }
    guard parsed.positionals.count <= 1 else {
      return CommandOutcome.usageError("Give one topic at a time.", usage: usage, helpCommand: "biki stats --help")
    }
    let topic = parsed.positionals.first
    if parsed.isSet("--evaluate") {
      guard topic == nil, !parsed.isSet("--html") else {
        return CommandOutcome.usageError(
          "--evaluate judges the scheduler over your whole history; give it without a topic or --html.", usage: usage,
          helpCommand: "biki stats --help")
      }
      return StatsEvaluation.run(history: history, now: now, json: parsed.isSet("--json"))
    }
    if parsed.isSet("--json") {
      return CommandOutcome.usageError(
        "--json goes with --evaluate.", usage: usage, helpCommand: "biki stats --help")
    }
    if parsed.isSet("--html"), let topic, topic.hasSuffix(".html") || topic.hasSuffix(".htm") {
      // `--html report.html`, as earlier Biki took it: the page's name goes after `=`.
      return CommandOutcome.usageError(
        "'\(topic)' is read as a topic; to name the page, write --html=\(topic).", usage: usage,
        helpCommand: "biki stats --help")
    }
    let (summary, warnings) = history.summary()
    var outcome = CommandOutcome(standardError: warnings.map { TerminalText.safe("Warning: \($0)") })
    let stats = summary.stats(topicID: topic, now: now)
    if let named = parsed.value("--html") {
      switch writeReport(ProgressReport(summary: summary, now: now).html(), named: named, defaultReport: defaultReport)
      {
      case .success(let address):
        outcome.standardError.append(TerminalText.safe("Wrote the report: \(address)"))
      case .failure(let failure):
        outcome.standardError.append(TerminalText.safe("Error: \(failure.message)"))
        outcome.status = ExitStatus.cannotCreate
        return outcome
      }
    }
    guard stats.total.answers + stats.total.skipped > 0 else {
      // With a warning, the history could not be read (or not a line of it): "none recorded"
      // would be untrue.
      let nothing =
        warnings.isEmpty
        ? topic.map { "No answers recorded for \($0) yet." } ?? "No answers recorded yet (\(history.location))."
        : "No answers could be read from \(history.location)."
      outcome.standardOutput = [TerminalText.safe(nothing)]
      return outcome
    }
    // Every try counted once: tries = right + wrong + skipped, on every row.
    outcome.standardOutput = ["topic\ttries\tright\twrong\tskipped\taccuracy\taverage"]
    for row in stats.topics + (stats.topics.count > 1 ? [stats.total] : []) {
      outcome.standardOutput.append(
        [
          row.topicID.isEmpty ? "all" : row.topicID, "\(row.answers + row.skipped)", "\(row.correct)",
          "\(row.answers - row.correct)", "\(row.skipped)", percent(row.accuracy),
          String(format: "%.1fs", row.averageSeconds),
        ]
        .map { TerminalText.safe($0) }.joined(separator: "\t"))
    }
    if !stats.forms.isEmpty {
      outcome.standardOutput.append("")
      outcome.standardOutput.append("Forms, weakest first (FSRS: how likely you are to recall each a week from now):")
      let shown = stats.forms.prefix(formsShown)
      for form in shown {
        let due = form.due <= now ? "due now" : "due in \(days(form.due - now))"
        outcome.standardOutput.append(
          "  \(form.state.rawValue)\t\(percent(form.recallInAWeek)) in a week\t\(TerminalText.safe(form.label))\t\(form.skill.rawValue)\t\(due)\t\(form.reviews) \(form.reviews == 1 ? "review" : "reviews"), \(form.lapses) missed"
        )
      }
      if stats.forms.count > shown.count {
        outcome.standardOutput.append("  … and \(stats.forms.count - shown.count) more")
      }
    }
    if !stats.mostMissed.isEmpty {
      outcome.standardOutput.append("")
      outcome.standardOutput.append("Missed most often (a wrong try or a skip is a miss; every try counts):")
      for form in stats.mostMissed {
        let typed =
          form.recentWrongAnswers.isEmpty ? "" : "  (you typed: \(form.recentWrongAnswers.joined(separator: ", ")))"
        outcome.standardOutput.append(
          TerminalText.safe(
            "  \(form.question) → \(form.expected)  missed \(form.misses) of \(form.seen)  [\(form.topicID), \(form.skill.rawValue)]\(typed)"
          ))
      }
    }
    return outcome
  }

  static let formsShown = 15

  struct ReportFailure: Error {
    var message: String
  }

  /// Writes the page where `named` says ("" for the default, in the private state directory) and
  /// returns its file:// address. Written whole then renamed, so a link there is replaced,
  /// never followed.
  private static func writeReport(_ page: String, named: String, defaultReport: String?) -> Result<
    String, ReportFailure
  > {
    var path = named
    if named.isEmpty {
      guard let defaultReport else {
        return .failure(
          ReportFailure(
            message:
              "there is no state directory for the report (set HOME or XDG_STATE_HOME to an absolute path), so name the page: --html=<file>."
          ))
      }
      do {
        _ = try PrivateDirectory.create((defaultReport as NSString).deletingLastPathComponent)
      } catch {
        return .failure(ReportFailure(message: error.description))
      }
      path = defaultReport
    }
    let url = URL(fileURLWithPath: path).standardizedFileURL
    do {
      try Data(page.utf8).write(to: url, options: .atomic)
    } catch {
      return .failure(ReportFailure(message: "cannot write \(path): \(error.localizedDescription)"))
    }
    return .success(url.absoluteString)
  }

  private static func days(_ seconds: Double) -> String {
    let days = Int((seconds / 86_400).rounded(.up))
    return days == 1 ? "1 day" : "\(days) days"
  }

  private static func percent(_ accuracy: Double?) -> String {
    accuracy.map { String(format: "%.0f%%", $0 * 100) } ?? "-"
  }
}
