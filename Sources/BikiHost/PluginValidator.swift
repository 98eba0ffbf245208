import BikiCore
import BikiJSON
import BikiPacks
import BikiPlugins
import BikiSync
import Dispatch

/// Checks a plugin library the way clap-validator checks audio plugins: named checks
/// (`PluginCheck.all`), each in a fresh worker process under the limits quizzes use, so a plugin
/// that crashes or hangs fails that check and nothing else, and one that passes is not timed
/// out later. Problems come back as diagnostics, like a pack's, with each check's outcome.
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
  /// Every check on the one library loaded into this process, instead of each in a worker of its
  /// own: for a debugger (`--in-process`).
  package var inProcess = false
  /// Which checks run (`--check`, `--skip`).
  package var selection = PluginCheckSelection.all

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
    run(path, otherTopics: otherTopics).diagnostics
  }

  /// What every check found, and how many of each topic's questions were checked: a topic of
  /// more than `seedsPerTopic` is checked on an even spread, and lint says so.
  package struct Validation: Sendable {
    package var checks: [PluginCheckReport]
    package var coverage: ReadingCoverage
    package var diagnostics: [Diagnostic] { checks.flatMap(\.diagnostics) }
  }

  /// Runs the selected checks of `PluginCheck.all` on the library at `path`, in order, each on
  /// a load of its own: a fresh worker process, or with `inProcess` the one library loaded into
  /// this process (for a debugger; a crash there ends lint).
  package func run(_ path: String, otherTopics: [String: String]) -> Validation {
    let load: @Sendable () -> (backend: PluginBackend, isFresh: Bool)
    if inProcess {
      let backend = PluginBackend.inProcess(path)
      load = { (backend, false) }
    } else {
      let (spawner, limits, now) = (spawner, limits, now)
      load = { (.isolated(IsolatedPlugin(path: path, spawner: spawner, limits: limits, now: now)), true) }
    }
    let bench = PluginCheckBench(path: path, otherTopics: otherTopics, settings: self, load: load)
    let selection = selection
    let checks = PluginCheck.all
    let reports = Locked([PluginCheckReport?](repeating: nil, count: checks.count))
    let run: @Sendable (Int) -> Void = { index in
      let check = checks[index]
      let report: PluginCheckReport
      if let excluded = selection.exclusion(of: check.name) {
        report = PluginCheckReport(notSelected: check.name, because: excluded)
      } else {
        let subject = PluginCheckSubject(bench: bench)
        let finding = check.body(subject)
        report = PluginCheckReport(
          name: check.name, finding: finding, crashed: subject.crashed, signal: subject.crashSignal)
      }
      reports.withLock { $0[index] = report }
    }
    // Checks that time the plugin run first, alone; the rest side by side, each in workers of
    // its own (in this process one at a time: they share the one library and its writers).
    let timed = checks.indices.filter { checks[$0].runsAlone }
    timed.forEach(run)
    let group = DispatchGroup()
    let slots = DispatchSemaphore(value: inProcess ? 1 : PluginValidator.checksAtOnce)
    for index in checks.indices where !checks[index].runsAlone {
      slots.wait()
      group.enter()
      DispatchQueue.global().async {
        run(index)
        slots.signal()
        group.leave()
      }
    }
    group.wait()
    return Validation(checks: reports.withLock { $0.compactMap { $0 } }, coverage: bench.coverage)
  }

  /// Checks run at once, each with its own worker: most of a check's time is the plugin's, or
  /// waiting on a worker that crashed or hangs.
  static let checksAtOnce = 4
}
