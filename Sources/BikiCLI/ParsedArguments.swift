import BikiCore

/// One way for every Biki command to read its arguments, as swift-argument-parser would:
/// `--name value` and `--name=value`, flags, repeatable options, positionals, and `--` to end
/// options. Every mistake is a usage error in the same words ("Missing value for '--packs
/// <dir>'.", "Unknown option '--pack'. Did you mean '--packs'?").
package struct ParsedArguments: Sendable {
  /// An option a command accepts.
  package struct Option: Sendable {
    var name: String
    /// What its value is called in messages (`<dir>`); nil for a flag.
    var valueName: String?
    var shortName: String?
    /// Whether the value may be left out (`--html` or `--html=<file>`, as git's `--color[=<when>]`):
    /// then it is given only after `=`, so the next argument is never taken for it.
    var valueIsOptional = false

    package static func flag(_ name: String, short: String? = nil) -> Option {
      Option(name: name, valueName: nil, shortName: short)
    }
    package static func value(_ name: String, _ valueName: String, short: String? = nil) -> Option {
      Option(name: name, valueName: valueName, shortName: short)
    }
    /// An option whose value may be left out; `value(_:)` is then "".
    package static func optionalValue(_ name: String, _ valueName: String) -> Option {
      Option(name: name, valueName: valueName, shortName: nil, valueIsOptional: true)
    }
  }

  struct UsageError: Error, Sendable, Equatable {
    var message: String
  }

  /// The arguments that are not options, in order.
  package private(set) var positionals: [String] = []
  /// Each option given, in order, with its value ("" for a flag).
  private(set) var given: [(name: String, value: String)] = []

  /// `--help` and `-h` are always understood; `helpRequested` says whether one was given.
  init(_ arguments: [String], options: [Option], allowsNegativeNumbers: Bool = false) throws(UsageError) {
    let all = options + [.flag("--help", short: "-h")]
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      // A lone "-" and (where numbers are read) "-5" are values, not options.
      let isNumber = allowsNegativeNumbers && argument.dropFirst().first?.isNumber == true
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" || isNumber {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      guard let option = all.first(where: { $0.name == name || $0.shortName == name }) else {
        let hint = Suggestion.didYouMean(name, among: all.map(\.name))
        throw UsageError(message: "Unknown option '\(name)'.\(hint)")
      }
      guard let valueName = option.valueName else {
        guard inline == nil else { throw UsageError(message: "The flag '\(option.name)' takes no value.") }
        given.append((option.name, ""))
        continue
      }
      if let inline {
        guard !(option.valueIsOptional && inline.isEmpty) else {
          throw UsageError(message: "Missing value after '\(option.name)='.")
        }
        given.append((option.name, inline))
      } else if option.valueIsOptional {
        given.append((option.name, ""))
      } else if index < arguments.count {
        given.append((option.name, arguments[index]))
        index += 1
      } else {
        throw UsageError(message: "Missing value for '\(option.name) \(valueName)'.")
      }
    }
  }

  var helpRequested: Bool { isSet("--help") }

  package func isSet(_ name: String) -> Bool { given.contains { $0.name == name } }

  /// The last value given for an option.
  package func value(_ name: String) -> String? { given.last { $0.name == name }?.value }

  /// Every value given for a repeatable option, in order.
  package func values(_ name: String) -> [String] { given.filter { $0.name == name }.map(\.value) }
}

extension CommandOutcome {
  /// Parses a command's arguments, or says how they are wrong (or shows the help).
  package static func parse(
    _ arguments: [String], options: [ParsedArguments.Option], help: String, usage: String, helpCommand: String,
    allowsNegativeNumbers: Bool = false
  ) -> Result<ParsedArguments, CommandFailure> {
    do {
      let parsed = try ParsedArguments(arguments, options: options, allowsNegativeNumbers: allowsNegativeNumbers)
      if parsed.helpRequested { return .failure(CommandFailure(outcome: CommandOutcome(standardOutput: [help]))) }
      return .success(parsed)
    } catch {
      return .failure(CommandFailure(outcome: .usageError(error.message, usage: usage, helpCommand: helpCommand)))
    }
  }
}

/// What a command returns instead of running: help, or a usage error.
package struct CommandFailure: Error, Sendable {
  package var outcome: CommandOutcome

  package init(outcome: CommandOutcome) {
    self.outcome = outcome
  }
}
