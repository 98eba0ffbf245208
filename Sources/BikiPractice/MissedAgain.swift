import BikiCore
import BikiJapanese

/// A session of the questions a learner missed, asked again in rounds until each is right at
/// the first try (`Session.Mode.rounds`): those missed in the last session, or in the last days.
/// `biki quiz --missed` and `biki/startSession` with a `missed` mode both start from it.
package struct MissedAgain {
  package var generator: QuestionGenerator
  package var skill: Skill
  package var mode: Session.Mode
  /// Missed questions that cannot be asked again as they were asked, in a few words each.
  package var unmade: [String]

  package struct Failure: Error, CustomStringConvertible, Equatable {
    package var description: String
  }

  /// `topics`: the topics to draw on; `generator` makes a topic's generator, asked only for
  /// topics with something missed (a plugin's runs the plugin's code). `sinceDays`: missed in
  /// these last days; nil: in the last session. `skill`: only questions asked for it; nil: the
  /// skill of the question missed last.
  package static func make(
    history: AnswerHistory, topics topicIDs: Set<String>, generator: (String) -> QuestionGenerator?, skill: Skill?,
    sinceDays: Double?, now: Double
  ) throws(Failure) -> MissedAgain {
    let since: Double
    if let sinceDays {
      since = now - sinceDays * 86_400
    } else {
      guard let start = history.lastSessionStart() else {
        throw Failure(description: "no session is recorded yet, so nothing was missed in it")
      }
      since = start
    }
    let missed = AskedQuestions.missed(history.load().entries, since: since).filter { topicIDs.contains($0.topicID) }
    guard let chosenSkill = skill ?? missed.last?.skill else {
      throw Failure(
        description: sinceDays == nil ? "nothing was missed in the last session" : "nothing was missed then")
    }
    let asked = missed.filter { $0.skill == chosenSkill }
    var byID: [String: QuestionGenerator] = [:]
    for topicID in Set(asked.map(\.topicID)) { byID[topicID] = generator(topicID) }
    let (made, unmade) = AskedQuestions.remade(asked, generators: byID)
    let title = Set(made.map(\.asked.topicID)).count == 1 ? "Missed in \(made[0].asked.topicID)" : "Missed questions"
    guard
      !made.isEmpty,
      let generator = ReviewPlan.again(made.map(\.asked)).generator(
        topic: Topic(id: "missed", title: title, category: .number, skills: [chosenSkill]),
        generators: Array(byID.values))
    else {
      let why =
        unmade.isEmpty ? "" : ": \(unmade.count) cannot be asked again (\(unmade.prefix(3).joined(separator: "; ")))"
      throw Failure(description: "nothing missed with the \(chosenSkill.rawValue) skill can be asked again\(why)")
    }
    return MissedAgain(generator: generator, skill: chosenSkill, mode: .rounds(questions: made.count), unmade: unmade)
  }
}
