import BikiJapanese
import BikiTestSupport

@testable import BikiCore

enum Fixtures {
  static func topic(_ id: String, _ category: Topic.Category = .number, skills: [Skill] = Skill.allCases) -> Topic {
    Topic(id: id, title: id, category: category, skills: skills)
  }

  static func months() throws -> QuestionGenerator {
    try NumberPhraseGenerator(range: 1...12, phrasing: .counted(.month)).generator(
      for: topic("dates.months", .dateTime))
  }

  static func money() throws -> QuestionGenerator {
    try NumberPhraseGenerator(range: 800...6000, step: 10, phrasing: .money).generator(
      for: topic("money.restaurant", .money))
  }

  static func dependencies(clock: ManualClock) -> Session.Dependencies {
    Session.Dependencies(now: clock.now)
  }
}
