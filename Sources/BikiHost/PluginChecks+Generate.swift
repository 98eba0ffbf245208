import BikiCore
import BikiPacks
import BikiPlugins

/// The checks of what `generate` writes: each rule of the output its own check, over every
/// topic's questions with the default parameters (up to `seedsPerTopic` of them, spread evenly),
/// and the promises the header makes of seeds and parameters.
extension PluginCheck {
  static let generating: [PluginCheck] = [
    questions("generate.succeeds", "every question asked returns BIKI_STATUS_OK", rules: ["plugin-call"]),
    questions(
      "generate.complete-output", "no call that fails has written output first (it would be thrown away)",
      rules: ["plugin-partial-output"]),
    questions(
      "generate.output-limit", "no question's output goes past Biki's limit of 1 MiB",
      rules: ["plugin-output-too-large"]),
    questions(
      "generate.shape",
      "each question is one UTF-8 JSON object with display, kanjiDisplay, spoken, readings and answer, spoken among the readings",
      rules: ["plugin-output"]),
    questions("generate.kana", "every reading is hiragana (ー allowed), as in JSON packs", rules: ["plugin-kana"]),
    questions(
      "generate.answer", "the answer is the number the display shows, in the shape shown, with its prefix and postfix",
      rules: ["plugin-answer-mismatch"]),
    questions(
      "generate.readings",
      "every reading is one Biki gives for the display (or the declared number), the standard one first",
      rules: ["plugin-reading-mismatch"]),
    questions(
      "generate.readable-display",
      "Biki reads each display whole: one number, and no text but words the question declares",
      rules: ["plugin-unreadable-display"]),
    questions(
      "generate.no-crash", "no question crashes the plugin's worker", rules: ["plugin-crash"],
      where: { !$0.outOfMemory }),
    questions("generate.time-limit", "each question is made within 1 s", rules: ["plugin-timeout"]),
    questions(
      "generate.no-quarantine", "the plugin never fails three questions in a row, which would quarantine it",
      rules: ["plugin-quarantined"]),
    questions(
      "generate.memory", "questions are made within the worker's memory limit", rules: ["plugin-crash"],
      where: { $0.outOfMemory }),
    questions(
      "generate.parameter-minimum", "with each parameter at its minimum, questions pass every check above",
      rules: nil, bound: .minimum, where: { $0.kind != .quarantined }),
    questions(
      "generate.parameter-maximum", "with each parameter at its maximum, questions pass every check above",
      rules: nil, bound: .maximum, where: { $0.kind != .quarantined }),
  ]

  /// A check of the output rules `rules` (every rule when nil) over each topic's questions, with
  /// the default parameters, or (`bound`) with each parameter at that bound.
  static func questions(
    _ name: String, _ proves: String, rules: Set<String>?, bound: PluginCheckSubject.Bound? = nil,
    where accepts: @escaping @Sendable (PluginError) -> Bool = { _ in true }
  ) -> PluginCheck {
    PluginCheck(name, proves) { subject in
      guard let plugin = subject.plugin else { return .skipped(subject.notLoaded) }
      var problems: [Diagnostic] = []
      var examined = 0
      var settingsMet = 0
      for topic in plugin.topics {
        for parameters in PluginCheckSubject.settings(of: topic, bound: bound) {
          settingsMet += 1
          guard let space = subject.space(topic, parameters, of: plugin) else { continue }
          let seeds = subject.seeds(space)
          subject.bench.count(
            "\(topic.id)\(PluginValidator.describe(parameters))", checked: UInt64(seeds.count), of: space)
          let made = subject.questions(topic, parameters, seeds, of: plugin)
          // What this check can judge: the questions made, and the failures of its own rules.
          examined +=
            made.filter { entry in
              guard case .failure(let error) = entry.made else { return true }
              return (rules?.contains(error.kind.rule) ?? true) && accepts(error)
            }.count
          problems += subject.report(made, rules: rules, topic: topic, parameters: parameters, where: accepts)
          // Quarantined, the plugin is not called again: what follows would only repeat it.
          if subject.isQuarantined { return .problems(problems) }
        }
      }
      if bound != nil, settingsMet == 0 { return .skipped("no topic has a parameter with such a bound") }
      if examined == 0, problems.isEmpty { return .skipped("no question could be made to check (generate.succeeds)") }
      return .problems(problems)
    }
  }
}
