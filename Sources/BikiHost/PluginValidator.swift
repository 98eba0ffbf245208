import BikiCore
import BikiJSON
import BikiPacks
import BikiPlugins

/// Checks a plugin library the way clap-validator checks audio plugins: every check in a
/// fresh worker process with a timeout, so a plugin that crashes or hangs fails its check and
/// nothing else. Problems come back as diagnostics, like a pack's.
public struct PluginValidator: Sendable {
  public var spawner: WorkerSpawner
  public var now: @Sendable () -> Double
  public var timeout: Double
  /// Seeds generated per topic.
  public var seedsPerTopic: UInt64 = 1000
  /// How long loading and describing may take, in seconds.
  public var entryBudget: Double = 0.1

  public init(spawner: WorkerSpawner, now: @Sendable @escaping () -> Double, timeout: Double = 5) {
    self.spawner = spawner
    self.now = now
    self.timeout = timeout
  }

  public func validate(_ path: String, otherTopicIDs: Set<String>) -> [Diagnostic] {
    var problems: [Diagnostic] = []
    func report(_ message: String, _ rule: String) {
      problems.append(Diagnostic(.error, message, rule: rule, at: .fileStart))
    }
    func worker() -> IsolatedPlugin { IsolatedPlugin(path: path, spawner: spawner, timeout: timeout, now: now) }

    // Load, handshake and description, timed from a cold start.
    let first = worker()
    let started = now()
    let plugin: PluginTopics
    do {
      plugin = try PluginTopics(backend: .isolated(first))
    } catch {
      report(error.reason, error.kind.rule)
      return problems
    }
    let elapsed = now() - started
    if elapsed > entryBudget + 0.05 {  // a worker process starts in a few ms; the rest is the plugin's
      problems.append(
        Diagnostic(.warning, "loading and describing took \(Int(elapsed * 1000)) ms; the entry and describe should answer within \(Int(entryBudget * 1000)) ms", rule: "plugin-slow-entry", at: .fileStart))
    }

    // The same description from a second, fresh load.
    do {
      let again = try worker().describe()
      let original = try first.describe()
      if again.identity != original.identity || again.description != original.description {
        report("the descriptor or description differs between two loads", "plugin-descriptor-unstable")
      }
    } catch {
      report(error.reason, error.kind.rule)
    }

    for topic in plugin.topics where otherTopicIDs.contains(topic.id) {
      report("topic id \"\(topic.id)\" is already defined by an installed pack or plugin", "duplicate-topic-id")
    }

    // Unknown topic ids, and real ids with trailing garbage, must be refused by the plugin.
    if let sample = plugin.topics.first {
      let local = String(sample.id.dropFirst(plugin.identity.id.count + 1))
      for bogus in ["no-such-topic-\(local)", local + " ", local + "x"] {
        if let results = try? first.generate(topic: bogus, parameters: [:], seeds: [0]), case .success = results.first {
          report("generate accepted the topic id \"\(bogus)\", which the plugin does not describe", "plugin-unknown-topic")
        }
      }
    }

    // Every topic: 1,000 valid questions, the same twice in this worker and in a fresh one.
    // A crash or hang ends the checks: what follows would only repeat it.
    let fresh = worker()
    for topic in plugin.topics {
      let local = String(topic.id.dropFirst(plugin.identity.id.count + 1))
      let space = (try? plugin.generator(for: topic))?.spaceSize ?? 1
      let count = min(seedsPerTopic, space)
      let seeds = (0..<count).map { $0 * (space / count) }
      let raw: [Result<[UInt8], PluginError>]
      do {
        raw = try first.generate(topic: local, parameters: [:], seeds: seeds)
      } catch {
        report("topic \"\(topic.id)\": \(error.reason)", error.kind.rule)
        return problems
      }
      var invalid: [String] = []
      for (seed, result) in zip(seeds, raw) {
        do {
          _ = try PluginTopics.question(try result.get(), topicID: topic.id, seed: seed, path: path)
        } catch {
          invalid.append(error.reason)
        }
      }
      if let example = invalid.first {
        report("topic \"\(topic.id)\": \(invalid.count) of \(count) questions are invalid, e.g. \(example)", "plugin-output")
        continue
      }
      let probe = Array(seeds.prefix(50))
      do {
        let once = try first.generate(topic: local, parameters: [:], seeds: probe).map { try? $0.get() }
        let twice = try first.generate(topic: local, parameters: [:], seeds: probe).map { try? $0.get() }
        let elsewhere = try fresh.generate(topic: local, parameters: [:], seeds: probe).map { try? $0.get() }
        if once != twice {
          report("topic \"\(topic.id)\" gives different questions for the same seed in one process", "plugin-nondeterministic")
        } else if once != elsewhere {
          report("topic \"\(topic.id)\" gives different questions for the same seed in a fresh process", "plugin-nondeterministic")
        }
      } catch {
        report("topic \"\(topic.id)\": \(error.reason)", error.kind.rule)
        return problems
      }
    }
    return problems
  }
}
