import BikiCore
import BikiPacks
import BikiPlugins

/// The checks of what the header promises of seeds, parameters and topic ids: a question is a
/// pure function of (topic, parameters, seed), seeds select questions modulo the count, and a
/// topic id the plugin does not describe is refused.
extension PluginCheck {
  static let asking: [PluginCheck] = [
    sameQuestions(
      "generate.same-seed", "the same seed gives the same question twice in one process",
      difference: "gives different questions for the same seed in one process"
    ) { subject, local, seeds, _ in (subject.raw(local, [:], seeds), subject.raw(local, [:], seeds)) },
    sameQuestions(
      "generate.same-seed-fresh-process", "the same seed gives the same question in a fresh process",
      difference: "gives different questions for the same seed in a fresh process", needsFreshLoad: true
    ) { subject, local, seeds, _ in
      let other = subject.bench.load().backend
      let elsewhere = (try? other.generate(local, [:], seeds)) ?? []
      return (subject.raw(local, [:], seeds), elsewhere)
    },
    sameQuestions(
      "generate.order-independent", "a seed's question does not depend on the questions asked before it",
      difference: "gives a seed a different question when the seeds are asked in another order"
    ) { subject, local, seeds, _ in
      (subject.raw(local, [:], seeds), Array(subject.raw(local, [:], seeds.reversed()).reversed()))
    },
    PluginCheck(
      "generate.distinct",
      "seeds below the count give different questions, at the defaults and at each parameter's bounds"
    ) { subject in
      guard let plugin = subject.plugin else { return .skipped(subject.notLoaded) }
      var problems: [Diagnostic] = []
      for topic in plugin.topics {
        for parameters in PluginCheckSubject.settings(of: topic) {
          guard let space = subject.space(topic, parameters, of: plugin) else { continue }
          let asked = subject.questions(topic, parameters, subject.seeds(space), of: plugin)
          // With a question that failed, the checks of that failure speak.
          let made = asked.compactMap { try? $0.made.get() }
          guard made.count == asked.count else { continue }
          let distinct = Set(made.map { "\($0.display)\u{0}\($0.answer.value)" }).count
          guard distinct < made.count else { continue }
          problems.append(
            problem(
              "topic \"\(topic.id)\"\(PluginValidator.describe(parameters)) has \(space) questions by its count, but \(made.count) seeds below it give only \(distinct) different ones; sessions would repeat questions",
              "plugin-question-count"))
        }
        if subject.isQuarantined { break }
      }
      return .problems(problems)
    },
    sameQuestions(
      "generate.seed-modulo", "seeds select questions modulo the count: seed s and s + count give the same question",
      difference: "gives seed s + its count a different question from seed s", rule: "plugin-seed-modulo"
    ) { subject, local, seeds, space in
      guard space < UInt64.max / 2 else { return ([], []) }
      let probe = Array(seeds.prefix(5))
      return (subject.raw(local, [:], probe), subject.raw(local, [:], probe.map { $0 + space }))
    },
    PluginCheck(
      "generate.large-seed", "the largest seeds (2^63, 2^64 − 1) give valid questions, with no overflow"
    ) { subject in
      perTopic(subject) { topic, _, space, plugin in
        atSeeds(subject, topic, [1 << 63, UInt64.max - 1, UInt64.max], unlike: 0, of: plugin)
      }
    },
    PluginCheck("generate.space-ends", "the first and the last question of each topic's count are valid") { subject in
      perTopic(subject) { topic, _, space, plugin in
        atSeeds(subject, topic, space > 1 ? [0, space - 1] : [0], unlike: space / 2, of: plugin)
      }
    },
    PluginCheck(
      "generate.explicit-defaults", "parameters given at their defaults give the same questions as parameters left out"
    ) { subject in
      perTopic(subject) { topic, local, space, _ in
        guard !topic.parameters.isEmpty else { return [] }
        let defaults = Dictionary(uniqueKeysWithValues: topic.parameters.map { ($0.name, $0.defaultValue) })
        let probe = Array(subject.seeds(space).prefix(20))
        let omitted = subject.raw(local, [:], probe).compactMap { try? $0.get() }
        let given = subject.raw(local, defaults, probe).compactMap { try? $0.get() }
        guard omitted.count == probe.count, given.count == probe.count, omitted != given else { return [] }
        return [
          problem(
            "topic \"\(topic.id)\" gives other questions when its parameters are given at their defaults\(PluginValidator.describe(defaults)) than when they are left out; parameters not given take their defaults",
            "plugin-default-parameters")
        ]
      }
    },
    unknownTopic(
      "generate.unknown-topic", "a topic id the plugin does not describe is refused", bogus: { "no-such-topic-\($0)" }),
    unknownTopic(
      "generate.unknown-topic-space", "a topic id with a space after it is refused (ids are compared byte for byte)",
      bogus: { $0 + " " }),
    unknownTopic(
      "generate.unknown-topic-longer", "a topic id with a letter after it is refused (not compared as a prefix)",
      bogus: { $0 + "x" }),
    PluginCheck(
      "generate.unknown-topic-status", "an unknown topic id is refused with BIKI_STATUS_UNKNOWN_TOPIC (a warning)"
    ) { subject in
      guard let plugin = subject.plugin, let topic = plugin.topics.first else { return .skipped(subject.notLoaded) }
      let bogus = "no-such-topic-" + subject.local(topic, of: plugin)
      guard case .failure(let error)? = subject.raw(bogus, [:], [0]).first else {
        return .skipped("the plugin accepts unknown topic ids (generate.unknown-topic)")
      }
      if case .callFailed(let status) = error.kind, status != PluginError.unknownTopicStatus {
        return .problems([
          Diagnostic(
            .warning,
            "generate refused the unknown topic id \"\(bogus)\" with status \(status), not BIKI_STATUS_UNKNOWN_TOPIC (\(PluginError.unknownTopicStatus))",
            rule: "plugin-unknown-topic", at: .fileStart)
        ])
      }
      return .passed
    },
  ]

  /// What fails at `seeds` and not at the ordinary seed `ordinary`: a plugin that fails
  /// everywhere is reported by the check of that failure, not again for these seeds.
  static func atSeeds(
    _ subject: PluginCheckSubject, _ topic: Topic, _ seeds: [UInt64], unlike ordinary: UInt64, of plugin: PluginTopics
  ) -> [Diagnostic] {
    let usual: String? =
      switch subject.questions(topic, [:], [ordinary], of: plugin).first?.made {
      case .failure(let error)?: error.kind.rule
      default: nil
      }
    return subject.report(
      subject.questions(topic, [:], seeds, of: plugin), rules: nil, topic: topic, parameters: [:],
      where: { $0.kind.rule != usual && $0.kind != .quarantined })
  }

  static func problem(_ message: String, _ rule: String) -> Diagnostic {
    Diagnostic(.error, message, rule: rule, at: .fileStart)
  }

  /// Runs `body` on every topic with the default parameters and a count, and gathers what it
  /// found.
  static func perTopic(
    _ subject: PluginCheckSubject,
    _ body: (_ topic: Topic, _ local: String, _ space: UInt64, _ plugin: PluginTopics) -> [Diagnostic]
  ) -> Finding {
    guard let plugin = subject.plugin else { return .skipped(subject.notLoaded) }
    var problems: [Diagnostic] = []
    for topic in plugin.topics {
      guard let space = subject.space(topic, [:], of: plugin) else { continue }
      problems += body(topic, subject.local(topic, of: plugin), space, plugin)
      if subject.isQuarantined { break }
    }
    return .problems(problems)
  }

  /// A check that two ways of asking for the first 50 seeds' questions give the same bytes. A
  /// question that fails either way is left to the checks of its failure.
  static func sameQuestions(
    _ name: String, _ proves: String, difference: String, rule: String = "plugin-nondeterministic",
    needsFreshLoad: Bool = false,
    _ ask:
      @escaping @Sendable (PluginCheckSubject, String, [UInt64], UInt64) -> (
        [Result<[UInt8], PluginError>], [Result<[UInt8], PluginError>]
      )
  ) -> PluginCheck {
    PluginCheck(name, proves) { subject in
      if needsFreshLoad, subject.plugin != nil, !subject.isFresh {
        return .skipped("needs a second load, which --in-process cannot make")
      }
      return perTopic(subject) { topic, local, space, _ in
        let (first, second) = ask(subject, local, Array(subject.seeds(space).prefix(50)), space)
        let pairs = zip(first, second).compactMap { one, other in
          (try? one.get()).flatMap { one in (try? other.get()).map { (one, $0) } }
        }
        guard pairs.contains(where: { $0.0 != $0.1 }) else { return [] }
        return [problem("topic \"\(topic.id)\" \(difference)", rule)]
      }
    }
  }

  static func unknownTopic(_ name: String, _ proves: String, bogus: @escaping @Sendable (String) -> String)
    -> PluginCheck
  {
    PluginCheck(name, proves) { subject in
      guard let plugin = subject.plugin, let topic = plugin.topics.first else { return .skipped(subject.notLoaded) }
      let id = bogus(subject.local(topic, of: plugin))
      guard case .success? = subject.raw(id, [:], [0]).first else { return .passed }
      return .problems([
        problem("generate accepted the topic id \"\(id)\", which the plugin does not describe", "plugin-unknown-topic")
      ])
    }
  }
}
