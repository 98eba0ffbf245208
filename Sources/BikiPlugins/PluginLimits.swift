/// How long a plugin in a worker process may take before its worker is stopped. One value for
/// every tool (`biki quiz`, `biki serve`, `biki-pack lint` and `biki-pack sample`), so a plugin
/// that passes lint is not timed out by a quiz.
package struct PluginLimits: Sendable, Equatable {
  /// Seconds for one question (or one count) from the moment it is asked: in a batch, each
  /// question's answer renews the deadline, so a batch of n questions may take n times this and
  /// a slow plugin is never timed out for being asked many questions at once.
  package var question: Double
  /// Seconds for a fresh worker to load the library and run `init`, and for `describe`.
  var loading: Double

  package init(question: Double, loading: Double) {
    self.question = question
    self.loading = loading
  }

  /// A question takes microseconds in the samples; a second is thousands of times that and
  /// still short enough that a learner waiting on a plugin that hangs is not kept long.
  /// Loading gets longer: a cold start maps the library and its dependencies from disk.
  package static let standard = PluginLimits(question: 1, loading: 5)

  /// "1 s", "0.25 s": a limit as messages and the docs write it.
  package static func seconds(_ value: Double) -> String {
    value == value.rounded() && value < 1e15 ? "\(Int(value)) s" : "\(value) s"
  }
}
