import BikiTestSupport
import Foundation
import Testing

/// Naming a topic as a learner does: by id, by words, or not at all.
@Suite struct TopicFindingTests {
  /// A name that is no topic id is looked for as the menu looks: one match is taken and named,
  /// several are listed; stopping at the menu is no error; --all alone is a mixed quiz, and
  /// `biki today` the day's review.
  @Test func topicsAreFoundByWhatTheyAreAbout() throws {
    let birthday = try BikiQuizTests().quiz(["birthday", "--mode", "questions=1", "--seed", "1"], input: "skip\n")
    #expect(birthday.status == 0, "\(birthday.standardError)")
    #expect(birthday.standardOutput.hasPrefix("The one topic matching “birthday”: dates.days.\n"))
    let cups = try BikiQuizTests().quiz(["cups"], input: "")
    #expect(cups.status == 64)
    #expect(
      cups.standardError.hasPrefix(
        "Error: 'cups' matches 3 topics: counters.hai, counters.hai-100, everyday.recipes. Give one of their ids."),
      "\(cups.standardError)")
    let range = try BikiQuizTests().quiz(["numbers.1-100"], input: "")
    #expect(range.standardError.hasPrefix("Error: 'numbers.1-100' matches 2 topics: numbers.tens,"))
    let stopped = try BikiQuizTests().quiz([], input: "\n")
    #expect(stopped.status == 0 && stopped.standardError.isEmpty, "\(stopped.standardError)")
    let mixed = try BikiQuizTests().quiz(
      ["--all", "--mode", "questions=2", "--seed", "1", "--skill", "kana"], input: "skip\nskip\n")
    #expect(mixed.status == 0, "\(mixed.standardError)")
    #expect(mixed.standardOutput.contains("Review of every topic — kana"), "\(mixed.standardOutput)")
    #expect(mixed.standardOutput.contains("Finished (all questions asked): 2 questions"))
    let endless = try BikiQuizTests().quiz(["--all", "--mode", "infinite"], input: "")
    #expect(endless.status == 64)
    let home = NSTemporaryDirectory() + "biki-quiz-" + UUID().uuidString
    let today = try BikiProcess.run(
      [], viaShell: "printf 'quit\\n' | \"$0\" today --seed 1 --skill kana", environment: BikiPackTests.isolated(home))
    #expect(today.status == 0, "\(today.standardError)")
    #expect(today.standardOutput.hasPrefix("20 questions: "), "\(today.standardOutput)")
    let todayTopic = try BikiProcess.run(["today", "counters.hon"], environment: BikiPackTests.isolated(home))
    #expect(todayTopic.status == 64)
    #expect(todayTopic.standardError.hasPrefix("Error: 'biki today' reviews every topic"))
  }
}
