import BikiCore
import BikiJSON

/// The settings a client gives the server (section `biki`): in `initializationOptions`, in the
/// answer to `workspace/configuration`, or in `workspace/didChangeConfiguration`. A value that
/// cannot be used is named in the log and the rest still apply.
struct ServerSettings: Equatable, Sendable {
  /// Pack directories beside the standard ones and `--packs`.
  var packDirectories: [String] = []
  /// Plugin directories beside the standard ones and `--plugins`.
  var pluginDirectories: [String] = []
  /// Seconds from the first unchecked edit to its check (0 to 5); nil for the server's own.
  var diagnosticsDelay: Double?
  var inlayHints = true

  static let delays = 0.0...5.0

  /// The settings in `section`, the problems with those that cannot be used, and those left
  /// as they were (`current`) where the section says nothing.
  static func read(_ section: JSON, over current: ServerSettings) -> (ServerSettings, problems: [String]) {
    var settings = current
    var problems: [String] = []
    guard section.isObject else {
      if section != .null { problems.append("the biki settings must be an object, not \(section.kindDescription)") }
      return (settings, problems)
    }
    for (key, keyPath) in [
      ("packDirectories", \ServerSettings.packDirectories), ("pluginDirectories", \.pluginDirectories),
    ] {
      guard let value = section[key] else { continue }
      guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
        problems.append("biki.\(key) must be a list of directories, not \(value.kindDescription)")
        continue
      }
      let directories = list.compactMap(\.stringValue)
      let unusable = directories.filter { !$0.hasPrefix("/") }
      if !unusable.isEmpty {
        problems.append(
          "biki.\(key): \(unusable.map { Excerpt.of($0, limit: 200) }.joined(separator: ", ")) is not an absolute path; left out"
        )
      }
      settings[keyPath: keyPath] = directories.filter { $0.hasPrefix("/") }
    }
    if let value = section["diagnosticsDelay"] {
      if value == .null {
        settings.diagnosticsDelay = nil
      } else if let seconds = value.numberValue, delays.contains(seconds) {
        settings.diagnosticsDelay = seconds
      } else {
        problems.append(
          "biki.diagnosticsDelay must be a number of seconds from 0 to 5, not \(value.serialized.prefix(40))")
      }
    }
    if let value = section["inlayHints"] {
      if let on = value.boolValue {
        settings.inlayHints = on
      } else {
        problems.append("biki.inlayHints must be true or false, not \(value.kindDescription)")
      }
    }
    return (settings, problems)
  }
}
