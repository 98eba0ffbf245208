import BikiCore
import BikiJSON
import BikiJapanese

/// A pack as written, with the source range of everything a diagnostic may point at.
/// Decoding fills what it can and reports the rest, so one mistake hides nothing else.
public struct PackDefinition: Sendable {
  public var format: Int64 = 0
  public var id = Located("")
  public var title = ""
  public var version = ""
  public var description: String?
  public var counters: [CounterDefinition] = []
  public var topics: [TopicDefinition] = []
}

/// A value with the range of the JSON that gave it.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
  public var value: Value
  public var range: SourceRange

  public init(_ value: Value, range: SourceRange = .fileStart) {
    self.value = value
    self.range = range
  }
}

public struct CounterDefinition: Sendable {
  public var id = Located("")
  public var symbols: [Located<String>] = []
  public var reading = Located("")
  public var kind: BikiJapanese.Counter.Kind = .counter
  public var whole: [UInt64: [String]] = [:]
  public var final: [UInt64: [String]] = [:]
  public var zero: [String]?
  public var validValues: ClosedRange<UInt64>?
  public var note = ""
  public var range: SourceRange = .fileStart
  /// Whether decoding found errors in this counter: then no topic may use it.
  public var hasDecodingErrors = false
}

public struct TopicDefinition: Sendable {
  public var id = Located("")
  public var title = ""
  public var description: String?
  public var category: Topic.Category = .number
  public var skills: [Skill] = []
  public var variables: [VariableDefinition] = []
  /// Every variable name written, including those whose definition has errors, so one bad
  /// definition is reported once and not again at every use.
  public var variableNames: Set<String> = []
  public var parameters: [ParameterDefinition] = []
  public var parts: [PartDefinition] = []
  public var answer = AnswerDefinition()
  public var range: SourceRange = .fileStart
  /// Whether decoding already found errors in this topic: then it is never served.
  public var hasDecodingErrors = false
}

public struct VariableDefinition: Sendable {
  public var name: String
  public var kind: Kind
  public var range: SourceRange
  /// Where its name is declared (the key in `"variables"`), for go-to-definition and outlines.
  public var nameRange: SourceRange = .fileStart

  public enum Kind: Sendable {
    case range(min: Located<Int64>, max: Located<Int64>, step: Located<Int64>)
    case choice([ChoiceItem])
    case eraYear(eras: [Located<String>], through: Located<Int64>?)
    case derive(Located<String>)
    /// One of several counters, by id or symbol: for mixed-counter topics.
    case counters([Located<String>])

    /// As the pack format spells it.
    public var name: String {
      switch self {
      case .range: "range"
      case .choice: "choice"
      case .eraYear: "eraYear"
      case .derive: "derive"
      case .counters: "counters"
      }
    }
  }
}

public struct ChoiceItem: Sendable, Hashable {
  public var text: String
  public var reading: String
  public var value: Int64
}

public struct ParameterDefinition: Sendable {
  public var name: String
  public var target = Located("")
  public var minimum: Int64 = 0
  public var maximum: Int64 = 0
  public var description = ""
  public var range: SourceRange
}

public struct PartDefinition: Sendable {
  public enum Kind: Sendable {
    case text(String, reading: String)
    /// `style`: "grouped" (1,500; the default), "plain" (2024), "kanjiDigits" (二〇二四 in kanji).
    case number(Located<String>, counter: Located<String>?, style: String)
    case money(Located<String>)
    case choice(Located<String>)
    case eraYear(Located<String>)
  }

  public var kind: Kind
  public var range: SourceRange
}

public struct AnswerDefinition: Sendable {
  public var value = Located("")
  public var prefix = ""
  public var postfix = ""
  public var accept: [String] = []
  /// "grouped" or "plain"; nil picks plain for years (…年) and grouped otherwise.
  public var style: String?
  public var range: SourceRange = .fileStart
}

extension PackDefinition {
  /// The only pack format this version reads.
  public static let supportedFormats: [Int64] = [1]
}
