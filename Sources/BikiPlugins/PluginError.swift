import BikiPluginABI

/// Why a plugin could not be used, naming the file: each is a diagnostic, never a crash.
public struct PluginError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Kind: Hashable, Sendable {
    case cannotLoad, missingEntry, refusedVersion, incompatibleVersion, badDescriptor, badOutput
    case callFailed(Int32)
    /// The worker process died during a call (a crash in the plugin).
    case crashed
    /// The plugin did not answer in time; its worker was killed.
    case timedOut
    /// Too many failures in a row: the plugin is not called again.
    case quarantined
    /// The worker could not be started or spoke nonsense.
    case workerFailed

    /// The lint rule id for this kind of failure.
    public var rule: String {
      switch self {
      case .cannotLoad: "plugin-load"
      case .missingEntry: "plugin-entry"
      case .refusedVersion, .incompatibleVersion: "plugin-abi-version"
      case .badDescriptor: "plugin-descriptor"
      case .badOutput: "plugin-output"
      case .callFailed: "plugin-call"
      case .crashed: "plugin-crash"
      case .timedOut: "plugin-timeout"
      case .quarantined: "plugin-quarantined"
      case .workerFailed: "plugin-worker"
      }
    }
  }

  public var path: String
  public var kind: Kind
  public var reason: String

  public init(path: String, kind: Kind, reason: String) {
    self.path = path
    self.kind = kind
    self.reason = reason
  }

  public var description: String {
    switch kind {
    case .cannotLoad: "\(path): cannot load the plugin: \(reason)"
    case .callFailed(let status): "\(path): the plugin failed (\(PluginError.statusName(status))): \(reason)"
    default: "\(path): \(reason)"
    }
  }

  static func statusName(_ status: Int32) -> String {
    switch Int(status) {
    case BIKI_STATUS_UNKNOWN_TOPIC: "unknown topic"
    case BIKI_STATUS_INVALID_PARAMETER: "invalid parameter"
    case BIKI_STATUS_GENERATION_FAILED: "generation failed"
    default: "internal error \(status)"
    }
  }
}
