import BikiCore
import BikiJSON
import BikiPacks
import BikiPlugins

/// Checks a plugin library the way clap-validator checks audio plugins: every check in a
/// fresh worker process under the limits quizzes use, so a plugin that crashes or hangs fails
/// its check and nothing else, and one that passes is not timed out later. Problems come back
/// as diagnostics, like a pack's.
package struct PluginValidator: Sendable {
  var spawner: WorkerSpawner
  var now: @Sendable () -> Double
  var limits: PluginLimits
  /// Seeds generated per topic.
  var seedsPerTopic: UInt64 = 1000
  /// How long loading and describing may take, in seconds.
  var entryBudget: Double = 0.1
  /// How long after its last answer a worker is asked for writes made through writers after
  /// their calls had returned, in seconds: a plugin that writes from a thread a little after a
  /// call returned is caught even when no call follows. 0.2 s is ten times the delay the tests
  /// use (20 ms).
  var lateWriteGrace: Double = 0.2

  package init(spawner: WorkerSpawner, now: @Sendable @escaping () -> Double, limits: PluginLimits = .standard) {
    self.spawner = spawner
    self.now = now
    self.limits = limits
  }

  /// " with max=9", for messages about a parameter setting.
  static func describe(_ parameters: [String: Int64]) -> String {
    parameters.isEmpty
      ? "" : " with " + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
  }

  /// How to ask a failed question again, alone, from any directory: "; ask it again with:
  /// biki-pack sample /p/libx.so --topic x.t --question 7 --param max=9".
  static func askAgain(_ path: String, topic: String, seed: UInt64, parameters: [String: Int64]) -> String {
    let words =
      ["biki-pack", "sample", path, "--topic", topic, "--question", String(seed)]
      + parameters.sorted { $0.key < $1.key }.flatMap { ["--param", "\($0.key)=\($0.value)"] }
    return "; ask it again with: " + words.map(shellQuoted).joined(separator: " ")
  }

  /// A word as a POSIX shell reads it back: as it is when it holds nothing the shell treats
  /// specially, else in single quotes.
  static func shellQuoted(_ word: String) -> String {
    let plain =
      !word.isEmpty
      && word.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || "-_./=+:,@%".unicodeScalars.contains(scalar))
      }
    return plain ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// `otherTopics`: the installed topics' ids and where each comes from.
  package func validate(_ path: String, otherTopics: [String: String]) -> [Diagnostic] {
    var coverage = ReadingCoverage()
    return validate(path, otherTopics: otherTopics, coverage: &coverage)
  }

  /// The same, counting in `coverage` how many of each topic's questions were checked: a topic
  /// of more than `seedsPerTopic` is checked on an even spread, and lint says so.
  package func validate(_ path: String, otherTopics: [String: String], coverage: inout ReadingCoverage)
    -> [Diagnostic]
  {
    var problems: [Diagnostic] = []
    func report(_ message: String, _ rule: String) {
      problems.append(Diagnostic(.error, message, rule: rule, at: .fileStart))
    }
    var workers: [IsolatedPlugin] = []
    func worker() -> IsolatedPlugin {
      let started = IsolatedPlugin(path: path, spawner: spawner, limits: limits, now: now)
      workers.append(started)
      return started
    }
    // Whatever else was found, the workers are asked last for writes through writers after
    // their calls had returned: they may come from a plugin's thread after every call is done.
    // One report is enough; the first worker to have one gives it.
    func finished() -> [Diagnostic] {
      for started in workers {
        guard let late = started.lateWrites(grace: lateWriteGrace) else { continue }
        report(late.reason, late.kind.rule)
        break
      }
      return problems
    }

    // Load, handshake and description, timed from a cold start.
    let first = worker()
    let started = now()
    let plugin: PluginTopics
    do {
      plugin = try PluginTopics(backend: .isolated(first))
    } catch {
      report(error.reason, error.kind.rule)
      return finished()
    }
    let elapsed = now() - started
    if elapsed > entryBudget + 0.05 {  // a worker process starts in a few ms; the rest is the plugin's
      problems.append(
        Diagnostic(
          .warning,
          "loading and describing took \(Int(elapsed * 1000)) ms; the entry and describe should answer within \(Int(entryBudget * 1000)) ms",
          rule: "plugin-slow-entry", at: .fileStart))
    }

    // The same description from a second, fresh load.
    do {
      let again = try worker().describe()
      let original = try first.describe()
      if again.identity != original.identity || again.description != original.description {
        report(
          "two fresh loads describe the plugin differently; what describe writes may depend only on the library, as Biki keeps it keyed by the library's bytes (see describe in biki_plugin.h)",
          "plugin-descriptor-unstable")
      }
    } catch {
      report(error.reason, error.kind.rule)
    }

    for topic in plugin.topics {
      guard let other = otherTopics[topic.id] else { continue }
      problems.append(
        Diagnostic(
          .warning,
          "topic id \"\(topic.id)\" is also defined by \(other); installed as one of your plugins, this one would be used instead (over a built-in topic, only where its questions pass Biki's checks)",
          rule: "overridden-topic",
          at: .fileStart))
    }

    // Unknown topic ids, and real ids with trailing garbage, must be refused by the plugin.
    if let sample = plugin.topics.first {
      let local = String(sample.id.dropFirst(plugin.identity.id.count + 1))
      for bogus in ["no-such-topic-\(local)", local + " ", local + "x"] {
        if case .success? = first.generate(topic: bogus, parameters: [:], seeds: [0]).first {
          report(
            "generate accepted the topic id \"\(bogus)\", which the plugin does not describe", "plugin-unknown-topic")
        }
      }
    }

    // Every topic: 1,000 valid, distinct questions, the same twice in this worker and in a
    // fresh one; then the same at each parameter's bounds. A question that crashes or hangs
    // fails alone, as in a quiz; a plugin quarantined for failing three in a row ends the
    // checks: what follows would only repeat it.
    let fresh = worker()
    for topic in plugin.topics {
      let local = String(topic.id.dropFirst(plugin.identity.id.count + 1))
      var settings: [[String: Int64]] = [[:]]
      for parameter in topic.parameters {
        for value in [parameter.minimum, parameter.maximum]
        where value != parameter.defaultValue && !settings.contains([parameter.name: value]) {
          settings.append([parameter.name: value])
        }
      }
      for parameters in settings {
        // A count is a function of the topic and its parameters: asked twice in one worker and
        // once in a fresh one, it must answer the same. (A count that fails is reported below.)
        if plugin.identity.countsQuestions {
          let counts = [first, first, fresh].compactMap { worker in
            try? worker.questionCount(topic: local, parameters: parameters)
          }
          if counts.count == 3, Set(counts).count > 1 {
            let answers = counts.map(String.init).joined(separator: ", then ")
            report(
              "topic \"\(topic.id)\"\(Self.describe(parameters)): question_count answered \(answers) for the same parameters (twice in one worker, then in a fresh one); a count may depend only on the topic and its parameters",
              "plugin-question-count")
            continue
          }
        }
        let generator: QuestionGenerator
        do {
          generator = try plugin.generator(for: topic, parameters: parameters)
        } catch {
          report("topic \"\(topic.id)\"\(Self.describe(parameters)): \(error)", "plugin-question-count")
          continue
        }
        let space = generator.spaceSize
        let count = min(seedsPerTopic, space)
        let seeds = (0..<count).map { $0 * (space / count) }
        coverage.add(checked: count, of: space)
        let raw = first.generate(topic: local, parameters: parameters, seeds: seeds)
        // Each kind of failure once, with how often it happened and an example.
        var failures: [(rule: String, count: Int, example: String, seed: UInt64)] = []
        var questions: [Question] = []
        for (seed, result) in zip(seeds, raw) {
          do {
            questions.append(
              try PluginTopics.question(
                try result.get(), topicID: topic.id, seed: seed, path: path, displayReadings: plugin.displayReadings))
          } catch {
            if let index = failures.firstIndex(where: { $0.rule == error.kind.rule }) {
              failures[index].count += 1
            } else {
              failures.append((error.kind.rule, 1, error.reason, seed))
            }
          }
        }
        for failure in failures {
          report(
            "topic \"\(topic.id)\"\(Self.describe(parameters)): \(failure.count) of \(count) questions failed, e.g. \(failure.example)\(Self.askAgain(path, topic: topic.id, seed: failure.seed, parameters: parameters))",
            failure.rule)
        }
        if first.isQuarantined { return finished() }
        if !failures.isEmpty { continue }
        if parameters.isEmpty {
          let probe = Array(seeds.prefix(50))
          let once = first.generate(topic: local, parameters: [:], seeds: probe)
          let twice = first.generate(topic: local, parameters: [:], seeds: probe)
          let elsewhere = fresh.generate(topic: local, parameters: [:], seeds: probe)
          // A question that failed here (a crash, a hang) is reported as what it is, not as a difference.
          let all = once + twice + elsewhere
          if let index = all.firstIndex(where: { (try? $0.get()) == nil }), case .failure(let error) = all[index] {
            let seed = probe[index % probe.count]
            report(
              "topic \"\(topic.id)\": \(error.reason)\(Self.askAgain(path, topic: topic.id, seed: seed, parameters: [:]))",
              error.kind.rule)
            if first.isQuarantined || fresh.isQuarantined { return finished() }
            continue
          }
          if once != twice {
            report(
              "topic \"\(topic.id)\" gives different questions for the same seed in one process",
              "plugin-nondeterministic")
            continue
          } else if once != elsewhere {
            report(
              "topic \"\(topic.id)\" gives different questions for the same seed in a fresh process",
              "plugin-nondeterministic")
            continue
          }
        }
        // Seeds below the count select different questions: fewer means sessions repeat.
        let distinct = Set(questions.map { "\($0.display)\u{0}\($0.answer.value)" }).count
        if distinct < questions.count {
          report(
            "topic \"\(topic.id)\"\(Self.describe(parameters)) has \(space) questions by its count, but \(questions.count) seeds below it give only \(distinct) different ones; sessions would repeat questions",
            "plugin-question-count")
          continue
        }
      }
    }
    return finished()
  }
}
