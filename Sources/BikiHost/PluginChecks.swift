import BikiCore
import BikiPacks
import BikiPlugins

/// Every check `biki-pack lint` makes of a plugin library, in the order they run, each with the
/// line `--list-checks` prints. docs/plugin-abi.md lists them as `--list-checks` prints them.
extension PluginCheck {
  package static let all: [PluginCheck] = loading + describing + counting + generating + asking + lasting

  // MARK: Loading: one load each, reported by the rule of what stopped it

  static let loading: [PluginCheck] = [
    stage("load.library", "dlopen loads the library, every symbol it needs resolved", rules: ["plugin-load"]),
    stage("load.entry", "the library exports biki_plugin_entry", rules: ["plugin-entry"]),
    stage(
      "load.abi-version",
      "the entry accepts this host, and the descriptor's major and needed minor version are ones it loads",
      rules: ["plugin-abi-version"]),
    stage(
      "load.descriptor", "the descriptor is at least 1.0's size, sets describe and generate, and names itself",
      rules: ["plugin-descriptor"]),
    stage("load.init", "init, when the plugin has one, succeeds", rules: ["plugin-init"]),
    stage(
      "load.worker", "a worker process starts with the plugin and speaks the worker protocol", rules: ["plugin-worker"]),
    stage(
      "load.no-crash", "loading, init and describe neither crash nor hang", rules: ["plugin-crash", "plugin-timeout"]),
    PluginCheck("load.entry-time", "loading and describe answer within 100 ms (a warning)", runsAlone: true) {
      subject in
      guard subject.plugin != nil else { return .skipped(subject.notLoaded) }
      // A worker process starts in a few ms; the rest is the plugin's.
      let budget = subject.settings.entryBudget + (subject.isFresh ? 0.05 : 0)
      let elapsed = subject.loaded.seconds
      guard subject.isFresh else { return .skipped("timed only in a fresh worker, not --in-process") }
      return .problems(
        elapsed <= budget
          ? []
          : [
            Diagnostic(
              .warning,
              "loading and describing took \(Int(elapsed * 1000)) ms; the entry and describe should answer within \(Int(subject.settings.entryBudget * 1000)) ms",
              rule: "plugin-slow-entry", at: .fileStart)
          ])
    },
  ]

  /// A check of how far loading got: passes when the plugin loads, fails when `rules` stopped it,
  /// and is skipped when something else did first.
  static func stage(_ name: String, _ proves: String, rules: Set<String>) -> PluginCheck {
    PluginCheck(name, proves) { subject in
      switch subject.loaded.result {
      case .success: return .passed
      case .failure(let error) where rules.contains(error.kind.rule):
        return .problems([Diagnostic(.error, error.reason, rule: error.kind.rule, at: .fileStart)])
      case .failure(let error): return .skipped("loading stopped first at \(error.kind.rule)")
      }
    }
  }

  // MARK: Describing

  static let describing: [PluginCheck] = [
    stage(
      "describe.json",
      "describe writes one JSON object of topics, each with an id, title, category, skills, count and parameters",
      rules: ["plugin-output"]),
    PluginCheck("describe.stable", "two fresh loads give the same descriptor and description") { subject in
      guard subject.plugin != nil else { return .skipped(subject.notLoaded) }
      guard subject.isFresh else { return .skipped("needs a second load, which --in-process cannot make") }
      let second = subject.bench.load().backend
      do throws(PluginError) {
        let again = try second.describe()
        let original = try subject.backend.describe()
        guard again.identity == original.identity, again.description == original.description else {
          return .problems([
            Diagnostic(
              .error,
              "two fresh loads describe the plugin differently; what describe writes may depend only on the library, as Biki keeps it keyed by the library's bytes (see describe in biki_plugin.h)",
              rule: "plugin-descriptor-unstable", at: .fileStart)
          ])
        }
        return .passed
      } catch {
        subject.noteCrash(error)
        return .problems([Diagnostic(.error, error.reason, rule: error.kind.rule, at: .fileStart)])
      }
    },
    PluginCheck("describe.installed-clash", "no topic id is one an installed pack or plugin defines (a warning)") {
      subject in
      guard let plugin = subject.plugin else { return .skipped(subject.notLoaded) }
      return .problems(
        plugin.topics.compactMap { topic in
          subject.bench.otherTopics[topic.id].map { other in
            Diagnostic(
              .warning,
              "topic id \"\(topic.id)\" is also defined by \(other); installed as one of your plugins, this one would be used instead (over a built-in topic, only where its questions pass Biki's checks)",
              rule: "overridden-topic", at: .fileStart)
          }
        })
    },
  ]
}
