import BikiCore
import BikiJSON
import BikiJapanese

/// A pack as written, with the source range of everything a diagnostic may point at.
/// Decoding fills what it can and reports the rest, so one mistake hides nothing else.
package struct PackDefinition: Sendable {
  var format: Int64 = 0
  package var id = Located("")
  var title = ""
  var version = ""
  var description: String?
  package var counters: [CounterDefinition] = []
  /// Things to count, for the "which counter?" skill.
  package var things: [ThingDefinition] = []
  package var topics: [TopicDefinition] = []
}

/// A thing and the counters it takes: 鉛筆 (えんぴつ, pencil) takes 本.
package struct ThingDefinition: Sendable {
  /// The most counters one thing may list: the answer shown after a miss gives them all.
  static let maximumCounters = 8

  package var name = Located("")
  package var reading = ""
  var meaning = ""
  /// By id or symbol, the usual one first; after the usual ones, those listed as `uncommon`.
  package var counters: [Located<String>] = []
  /// How many of `counters` are usual: the rest are accepted and marked less usual.
  package var usualCount = 0
  package var range: SourceRange = .fileStart
  /// Whether decoding found errors in it: then topics that count it are not served, and are not
  /// told again that it is missing.
  var hasDecodingErrors = false
}

/// A value with the range of the JSON that gave it.
package struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
  package var value: Value
  package var range: SourceRange

  package init(_ value: Value, range: SourceRange = .fileStart) {
    self.value = value
    self.range = range
  }
}

package struct CounterDefinition: Sendable {
  package var id = Located("")
  package var symbols: [Located<String>] = []
  package var reading = Located("")
  var kind: BikiJapanese.Counter.Kind = .counter
  var whole: [UInt64: [String]] = [:]
  var final: [UInt64: [String]] = [:]
  var zero: [String]?
  var validValues: ClosedRange<UInt64>?
  var note = ""
  package var range: SourceRange = .fileStart
  /// Whether decoding found errors in this counter: then no topic may use it.
  var hasDecodingErrors = false
}

/// A topic as its pack file writes it.
///
/// One stored property per key a topic may have in a pack, each kept with where it was written
/// (plus what decoding learnt about them): that is why there are more than a dozen.
package struct TopicDefinition: Sendable {
  package var id = Located("")
  package var title = ""
  var description: String?
  var category: Topic.Category = .number
  var skills: [Skill] = []
  package var variables: [VariableDefinition] = []
  /// Every variable name written, including those whose definition has errors, so one bad
  /// definition is reported once and not again at every use.
  var variableNames: Set<String> = []
  package var parameters: [ParameterDefinition] = []
  package var parts: [PartDefinition] = []
  var answer = AnswerDefinition()
  /// Which questions come up more often, where the key is written.
  var favour: Located<Favour>?
  package var range: SourceRange = .fileStart
  /// Whether decoding already found errors in this topic: then it is never served.
  var hasDecodingErrors = false
}

extension TopicDefinition {
  /// Questions a topic asks twice as often as the rest.
  enum Favour: String, Sendable, Hashable, CaseIterable {
    /// Those whose reading exercises a sound change or a form of its own (11本 じゅういっぽん,
    /// 4人 よにん, 300 さんびゃく): the numbers a learner gets wrong.
    case soundChanges = "sound-changes"
  }
}

package struct VariableDefinition: Sendable {
  package var name: String
  package var kind: Kind
  package var range: SourceRange
  /// Where its name is declared (the key in `"variables"`), for go-to-definition and outlines.
  package var nameRange: SourceRange = .fileStart

  package enum Kind: Sendable {
    case range(min: Located<Int64>, max: Located<Int64>, step: Located<Int64>)
    case choice([ChoiceItem])
    case eraYear(eras: [Located<String>], through: Located<Int64>?)
    case derive(Located<String>)
    /// One of several counters, by id or symbol: for mixed-counter topics.
    case counters([Located<String>])
    /// One of the pack's things, by name: its counters count it.
    case things([Located<String>])

    /// As the pack format spells it.
    package var name: String {
      switch self {
      case .range: "range"
      case .choice: "choice"
      case .eraYear: "eraYear"
      case .derive: "derive"
      case .counters: "counters"
      case .things: "objects"
      }
    }
  }
}

package struct ChoiceItem: Sendable, Hashable {
  var text: String
  package var reading: String
  var value: Int64
}

package struct ParameterDefinition: Sendable {
  package var name: String
  var target = Located("")
  var minimum: Int64 = 0
  var maximum: Int64 = 0
  var description = ""
  package var range: SourceRange
}

package struct PartDefinition: Sendable {
  package enum Kind: Sendable {
    case text(String, reading: String)
    /// `style`: "grouped" (1,500; the default), "plain" (2024), "kanjiDigits" (二〇二四 in kanji),
    /// "digits" (0857, read digit by digit as in phone numbers: ぜろはちごなな).
    case number(Located<String>, counter: Located<String>?, style: String)
    case money(Located<String>)
    case choice(Located<String>)
    case eraYear(Located<String>)
    /// A time of day on the 24-hour clock, from minutes after midnight: 965 is 16:05.
    case clock(Located<String>)
  }

  package var kind: Kind
  package var range: SourceRange
  /// For a "digits" number: how many digits are shown, with leading zeros (090, 0857).
  var width: Located<Int64>?
  /// For a decimal: how many digits follow the point; the number is the value ÷ 10^decimals.
  var decimals: Located<Int64>?
  /// For a fraction: the expression below the line; the number is its numerator (3分の1).
  var denominator: Located<String>?
}

struct AnswerDefinition: Sendable {
  var value = Located("")
  var prefix = ""
  var postfix = ""
  var accept: [String] = []
  /// "grouped" or "plain"; nil picks plain for years (…年) and grouped otherwise. "slash" writes
  /// a fraction 1/3, "clock" a value of minutes after midnight 16:05.
  var style: String?
  /// A decimal answer: the value ÷ 10^decimals is typed (36.5).
  var decimals: Located<Int64>?
  /// A fraction answer: the value is the numerator, this the denominator (3分の1, 1/3).
  var denominator: Located<String>?
  var range: SourceRange = .fileStart
}

extension TopicDefinition {
  /// Every expression the topic writes, where a variable's name may appear among others: the
  /// answer, denominators, parameters' targets and derived variables.
  package var expressions: [Located<String>] {
    var expressions = [answer.value] + (answer.denominator.map { [$0] } ?? []) + parameters.map(\.target)
    expressions += parts.compactMap(\.denominator)
    for case .derive(let expression) in variables.map(\.kind) { expressions.append(expression) }
    return expressions
  }
}

extension PackDefinition {
  /// The only pack format this version reads.
  static let supportedFormats: [Int64] = [1]
}
