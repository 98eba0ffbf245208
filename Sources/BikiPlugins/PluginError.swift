import BikiPluginABI

/// Why a plugin could not be used, naming the file: each is a diagnostic, never a crash.
package struct PluginError: Error, Hashable, Sendable, CustomStringConvertible {
  package enum Kind: Hashable, Sendable {
    case cannotLoad, missingEntry, refusedVersion, incompatibleVersion, badDescriptor, badOutput
    /// The plugin's `init` refused to start.
    case initFailed
    case callFailed(Int32)
    /// The call failed after writing output, which was discarded.
    case failedAfterOutput(Int32)
    /// The output went past Biki's limit.
    case outputTooLarge
    /// The answer is not the number the display shows.
    case answerMismatch
    /// A reading Biki's own reading of the display or the declared number does not give.
    case readingMismatch
    /// A reading that is not hiragana.
    case notHiragana
    /// A display Biki cannot read whole: text no word declares, a numeral Biki does not read, an
    /// invisible character, or more than one number.
    case unreadableDisplay
    /// The plugin wrote through a writer after the call that received it had returned.
    case writerAfterReturn
    /// The worker process died during a call (a crash in the plugin).
    case crashed
    /// The plugin did not answer in time; its worker was killed.
    case timedOut
    /// Too many failures in a row: the plugin is not called again.
    case quarantined
    /// The worker could not be started or spoke nonsense.
    case workerFailed

    /// The lint rule id for this kind of failure.
    package var rule: String {
      switch self {
      case .cannotLoad: "plugin-load"
      case .missingEntry: "plugin-entry"
      case .refusedVersion, .incompatibleVersion: "plugin-abi-version"
      case .badDescriptor: "plugin-descriptor"
      case .badOutput: "plugin-output"
      case .initFailed: "plugin-init"
      case .callFailed: "plugin-call"
      case .failedAfterOutput: "plugin-partial-output"
      case .outputTooLarge: "plugin-output-too-large"
      case .answerMismatch: "plugin-answer-mismatch"
      case .readingMismatch: "plugin-reading-mismatch"
      case .notHiragana: "plugin-kana"
      case .unreadableDisplay: "plugin-unreadable-display"
      case .writerAfterReturn: "plugin-writer-after-return"
      case .crashed: "plugin-crash"
      case .timedOut: "plugin-timeout"
      case .quarantined: "plugin-quarantined"
      case .workerFailed: "plugin-worker"
      }
    }
  }

  package var path: String
  package var kind: Kind
  package var reason: String
  /// For a crash the worker announced: the signal it died of (`biki-pack lint --format json`
  /// reports it per check).
  package var signal: Int32?
  /// For a crash: whether the worker said an allocation had just been refused, the plugin having
  /// reached the memory it may use.
  package var outOfMemory = false

  package init(path: String, kind: Kind, reason: String) {
    self.path = path
    self.kind = kind
    self.reason = reason
  }

  package var description: String { "\(path): \(message)" }

  /// What went wrong, without the path: for a diagnostic, which names the file already.
  package var message: String {
    switch kind {
    case .cannotLoad: "cannot load the plugin: \(reason)"
    case .callFailed(let status), .failedAfterOutput(let status):
      "the plugin failed (\(PluginError.statusName(status))): \(reason)"
    default: reason
    }
  }

  /// BIKI_STATUS_UNKNOWN_TOPIC, for what lint expects of an unknown topic id.
  package static let unknownTopicStatus = Int32(BIKI_STATUS_UNKNOWN_TOPIC)

  static func statusName(_ status: Int32) -> String {
    switch Int(status) {
    case BIKI_STATUS_UNKNOWN_TOPIC: "unknown topic"
    case BIKI_STATUS_INVALID_PARAMETER: "invalid parameter"
    case BIKI_STATUS_GENERATION_FAILED: "generation failed"
    case BIKI_STATUS_OUTPUT_REFUSED: "output refused"
    default: "internal error \(status)"
    }
  }
}
