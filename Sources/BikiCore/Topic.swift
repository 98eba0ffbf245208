/// A topic as plain data: what it drills and what a session may set. The behaviour that makes
/// questions lives apart, in a `QuestionGenerator`.
package struct Topic: Hashable, Sendable, Codable {
  /// Stable `pack.topic` id, e.g. `numbers.beginner`.
  package var id: String
  package var title: String
  package var description: String
  package var category: Category
  package var skills: [Skill]
  package var parameters: [Parameter]

  package init(
    id: String, title: String, description: String = "", category: Category, skills: [Skill] = Skill.allCases,
    parameters: [Parameter] = []
  ) {
    self.id = id
    self.title = title
    self.description = description
    self.category = category
    self.skills = skills
    self.parameters = parameters
  }

  package enum Category: String, Hashable, Sendable, Codable, CaseIterable {
    case number, money, duration, dateTime, counter
    /// Numbers of daily life that are not a plain count: temperatures, timetables, addresses,
    /// scores, recipes. Listed last, after the basics they build on.
    case everyday
  }

  /// A value a session may override, with its default and bounds (inclusive).
  package struct Parameter: Hashable, Sendable, Codable {
    package var name: String
    package var description: String
    package var defaultValue: Int64
    package var minimum: Int64
    package var maximum: Int64

    package init(name: String, description: String = "", defaultValue: Int64, minimum: Int64, maximum: Int64) {
      precondition(minimum <= defaultValue && defaultValue <= maximum, "default of \(name) out of its bounds")
      self.name = name
      self.description = description
      self.defaultValue = defaultValue
      self.minimum = minimum
      self.maximum = maximum
    }
  }

  /// Every parameter's value: the defaults, overridden by `overrides`, each checked.
  package func resolve(_ overrides: [String: Int64]) throws(ParameterError) -> [String: Int64] {
    var values: [String: Int64] = [:]
    for parameter in parameters { values[parameter.name] = parameter.defaultValue }
    for (name, value) in overrides.sorted(by: { $0.key < $1.key }) {
      guard let parameter = parameters.first(where: { $0.name == name }) else {
        throw .unknown(name: name, topic: id, known: parameters.map(\.name))
      }
      guard (parameter.minimum...parameter.maximum).contains(value) else {
        throw .outOfBounds(name: name, value: value, minimum: parameter.minimum, maximum: parameter.maximum)
      }
      values[name] = value
    }
    return values
  }
}

package enum Skill: String, Hashable, Sendable, Codable, CaseIterable {
  /// Hear the reading, type the number.
  case listening
  /// See kanji numerals, type the number.
  case reading
  /// See the number, type its reading in kana.
  case kana
  /// See a thing and how many (鉛筆 × 5), type the counted phrase (5本, or ごほん): which
  /// counter the thing takes.
  case counter
}

package enum ParameterError: Error, Equatable, Sendable, CustomStringConvertible {
  case unknown(name: String, topic: String, known: [String])
  case outOfBounds(name: String, value: Int64, minimum: Int64, maximum: Int64)
  case inconsistent(String)

  package var description: String {
    switch self {
    case .unknown(let name, let topic, let known):
      known.isEmpty
        ? "topic \(topic) takes no parameters, but '\(name)' was given"
        : "topic \(topic) has no parameter '\(name)'; it takes: \(known.joined(separator: ", "))"
    case .outOfBounds(let name, let value, let minimum, let maximum):
      "\(name)=\(value) is out of bounds: \(name) must be between \(minimum) and \(maximum)"
    case .inconsistent(let reason):
      reason
    }
  }
}
