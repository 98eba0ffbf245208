import BikiCLI
import BikiCore
import BikiHost
import BikiPractice

extension QuizCommand {
  /// `--missed`: the questions missed in the last quiz (or the last `--since` days), in rounds.
  static func missed(options: Options, topics: [RegisteredTopic], environment: BikiEnvironment) -> CommandOutcome {
    let candidates: [RegisteredTopic]
    switch across(options.topic, in: topics) {
    case .success(let found): candidates = found
    case .failure(let outcome): return outcome.outcome
    }
    let again: MissedAgain
    do throws(MissedAgain.Failure) {
      again = try MissedAgain.make(
        history: environment.history, topics: Set(candidates.map(\.topic.id)),
        generator: { id in try? candidates.first { $0.topic.id == id }?.generator() }, skill: options.skill,
        sinceDays: options.sinceDays, now: environment.wallClock())
    } catch {
      return CommandOutcome(
        standardError: [TerminalText.safe("Nothing to ask again: \(error.description).")],
        status: ExitStatus.unavailable)
    }
    if !again.unmade.isEmpty {
      environment.console.writeError(
        TerminalText.safe(
          "Warning: \(again.unmade.count) missed \(again.unmade.count == 1 ? "question" : "questions") cannot be asked again as asked (\(again.unmade.prefix(3).joined(separator: "; ")))"
        ))
    }
    let seed = options.seed ?? environment.seeds.next()
    var quiz = QuizLoop(environment: environment, speaker: speaker(options, environment: environment))
    quiz.watched = candidates.filter(\.callsPlugin)
    return quiz.run(
      generator: again.generator, skill: again.skill, mode: again.mode, seed: seed, strict: options.strict)
  }
}
