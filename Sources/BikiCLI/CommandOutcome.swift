import BikiCore
import Foundation

/// What a command printed and its exit status; commands return this instead of writing, so
/// they stay plain functions of their arguments.
package struct CommandOutcome: Sendable {
  package var standardOutput: [String] = []
  package var standardError: [String] = []
  package var status: Int32 = 0

  package init(standardOutput: [String] = [], standardError: [String] = [], status: Int32 = 0) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.status = status
  }

  /// Writes both streams and exits with the status. Commands make each line safe for the
  /// terminal as they form it; this catches any line that was missed.
  package func finish() -> Never {
    if !standardOutput.isEmpty {
      StandardStreams.writeOutput(TerminalText.safe(standardOutput.joined(separator: "\n"), keepingLayout: true) + "\n")
    }
    if !standardError.isEmpty {
      StandardStreams.writeError(TerminalText.safe(standardError.joined(separator: "\n"), keepingLayout: true) + "\n")
    }
    exit(status)
  }

  /// A usage error as swift-argument-parser words it: the error, the usage line, where to look.
  package static func usageError(_ message: String, usage: String, helpCommand: String) -> CommandOutcome {
    CommandOutcome(
      standardError: ["Error: \(message)", "Usage: \(usage)", "  See '\(helpCommand)' for more information."],
      status: ExitStatus.usage)
  }

  /// "Unknown option '--x'. Did you mean '--y'?"
  static func unknownOption(_ option: String, known: [String], usage: String, helpCommand: String)
    -> CommandOutcome
  {
    usageError(
      "Unknown option '\(option)'.\(Suggestion.didYouMean(option, among: known))", usage: usage,
      helpCommand: helpCommand)
  }
}

/// Exit statuses, after sysexits.h as command-line users expect.
package enum ExitStatus {
  package static let success: Int32 = 0
  package static let failure: Int32 = 1
  package static let usage: Int32 = 64
  package static let dataError: Int32 = 65
  package static let noInput: Int32 = 66
  /// What the command needs could not be had: a plugin whose questions cannot be made.
  package static let unavailable: Int32 = 69
  package static let cannotCreate: Int32 = 73
}
