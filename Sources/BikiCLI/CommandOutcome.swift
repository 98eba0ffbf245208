import BikiCore
import Foundation

/// What a command printed and its exit status; commands return this instead of writing, so
/// they stay plain functions of their arguments.
public struct CommandOutcome: Sendable {
  public var standardOutput: [String] = []
  public var standardError: [String] = []
  public var status: Int32 = 0

  public init(standardOutput: [String] = [], standardError: [String] = [], status: Int32 = 0) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.status = status
  }

  /// Writes both streams and exits with the status.
  public func finish() -> Never {
    if !standardOutput.isEmpty { StandardStreams.writeOutput(standardOutput.joined(separator: "\n") + "\n") }
    if !standardError.isEmpty { StandardStreams.writeError(standardError.joined(separator: "\n") + "\n") }
    exit(status)
  }

  /// A usage error as swift-argument-parser words it: the error, the usage line, where to look.
  public static func usageError(_ message: String, usage: String, helpCommand: String) -> CommandOutcome {
    CommandOutcome(
      standardError: ["Error: \(message)", "Usage: \(usage)", "  See '\(helpCommand)' for more information."],
      status: ExitStatus.usage)
  }

  /// "Unknown option '--x'. Did you mean '--y'?"
  public static func unknownOption(_ option: String, known: [String], usage: String, helpCommand: String) -> CommandOutcome {
    usageError("Unknown option '\(option)'.\(Suggestion.didYouMean(option, among: known))", usage: usage, helpCommand: helpCommand)
  }
}

/// Exit statuses, after sysexits.h as command-line users expect.
public enum ExitStatus {
  public static let success: Int32 = 0
  public static let failure: Int32 = 1
  public static let usage: Int32 = 64
  public static let dataError: Int32 = 65
  public static let noInput: Int32 = 66
  /// What the command needs could not be had: a plugin whose questions cannot be made.
  public static let unavailable: Int32 = 69
  public static let cannotCreate: Int32 = 73
}
