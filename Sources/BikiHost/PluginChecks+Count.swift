import BikiCore
import BikiPacks
import BikiPlugins

/// The checks of `question_count`, and of what a plugin leaves behind once its calls return.
extension PluginCheck {
  static let counting: [PluginCheck] = [
    counts(
      "count.succeeds", "question_count, when the plugin has it, answers for the default parameters, above 0",
      bound: nil),
    counts(
      "count.at-bounds", "question_count answers, above 0, with each parameter at its minimum and at its maximum",
      bound: .minimum),
    PluginCheck(
      "count.stable", "question_count gives the same count twice in one process and in a fresh one"
    ) { subject in
      guard let plugin = subject.plugin else { return .skipped(subject.notLoaded) }
      guard plugin.identity.countsQuestions else { return .skipped("the plugin has no question_count") }
      guard subject.isFresh else { return .skipped("needs a second load, which --in-process cannot make") }
      let other = subject.bench.load().backend
      var problems: [Diagnostic] = []
      for topic in plugin.topics {
        let local = subject.local(topic, of: plugin)
        for parameters in PluginCheckSubject.settings(of: topic) {
          let counts = [subject.backend, subject.backend, other].compactMap { backend in
            (try? backend.questionCount(local, parameters)) ?? nil
          }
          guard counts.count == 3, Set(counts).count > 1 else { continue }
          problems.append(
            problem(
              "topic \"\(topic.id)\"\(PluginValidator.describe(parameters)): question_count answered \(counts.map(String.init).joined(separator: ", then ")) for the same parameters (twice in one worker, then in a fresh one); a count may depend only on the topic and its parameters",
              "plugin-question-count"))
        }
      }
      return .problems(problems)
    },
    PluginCheck(
      "count.matches-description",
      "with the default parameters, question_count gives the questionCount the description states"
    ) { subject in
      guard let plugin = subject.plugin else { return .skipped(subject.notLoaded) }
      guard plugin.identity.countsQuestions else { return .skipped("the plugin has no question_count") }
      return .problems(
        plugin.topics.compactMap { topic in
          guard let described = plugin.questionCounts[topic.id],
            let counted = (try? subject.backend.questionCount(subject.local(topic, of: plugin), [:])) ?? nil,
            counted != described
          else { return nil }
          return problem(
            "topic \"\(topic.id)\": its description states \(described) questions, but question_count answers \(counted) for the default parameters",
            "plugin-question-count")
        })
    },
  ]

  /// A check that question_count answers, above 0, for each topic's default parameters (`bound`
  /// nil) or for each parameter at its bounds.
  static func counts(_ name: String, _ proves: String, bound: PluginCheckSubject.Bound?) -> PluginCheck {
    PluginCheck(name, proves) { subject in
      guard let plugin = subject.plugin else { return .skipped(subject.notLoaded) }
      guard plugin.identity.countsQuestions else {
        return .skipped("the plugin has no question_count: the description's counts hold")
      }
      var problems: [Diagnostic] = []
      var settingsMet = 0
      for topic in plugin.topics {
        let settings =
          bound == nil
          ? [[:]]
          : PluginCheckSubject.settings(of: topic, bound: .minimum)
            + PluginCheckSubject.settings(of: topic, bound: .maximum)
        for parameters in settings {
          settingsMet += 1
          let setting = "topic \"\(topic.id)\"\(PluginValidator.describe(parameters))"
          do throws(PluginError) {
            if try subject.backend.questionCount(subject.local(topic, of: plugin), parameters) == 0 {
              problems.append(problem("\(setting): question_count answered 0", "plugin-question-count"))
            }
          } catch {
            subject.noteCrash(error)
            problems.append(problem("\(setting): question_count failed: \(error.reason)", "plugin-question-count"))
          }
        }
      }
      return settingsMet == 0 ? .skipped("no topic has a parameter") : .problems(problems)
    }
  }

  static let lasting: [PluginCheck] = [
    PluginCheck(
      "writer.after-return",
      "no write goes through a writer after its call returned, from any thread, within 0.2 s of the last call"
    ) { subject in
      guard let plugin = subject.plugin else { return .skipped(subject.notLoaded) }
      // What a session asks: a description (made in loading), a few questions of each topic,
      // their counts, and an unknown topic.
      for topic in plugin.topics {
        let local = subject.local(topic, of: plugin)
        _ = subject.raw(local, [:], [0, 1, 2, 3, 4])
        _ = try? subject.backend.questionCount(local, [:])
      }
      if let topic = plugin.topics.first {
        _ = subject.raw("no-such-topic-" + subject.local(topic, of: plugin), [:], [0])
      }
      guard let late = subject.backend.lateWrites(subject.settings.lateWriteGrace) else { return .passed }
      return .problems([problem(late.reason, late.kind.rule)])
    }
  ]
}
