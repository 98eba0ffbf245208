/// The XDG base directories Biki uses, read as the XDG Base Directory Specification says: a
/// variable that is unset, empty or not an absolute path is ignored, and the default lies under
/// `$HOME`. When `HOME` is unset or relative too, there is no such directory: nothing is ever
/// resolved against the current directory, where anyone may have put a `~` or `.local`.
package struct XDGDirectories: Sendable, Equatable {
  /// `$XDG_DATA_HOME`, by default `~/.local/share`: user packs and plugins.
  var dataHome: String?
  /// `$XDG_STATE_HOME`, by default `~/.local/state`: the answer history, worker logs.
  var stateHome: String?
  /// `$XDG_CACHE_HOME`, by default `~/.cache`: what can be made again (plugin descriptions).
  var cacheHome: String?

  init(environment: [String: String]) {
    let home = Self.absolute(environment["HOME"])
    dataHome = Self.absolute(environment["XDG_DATA_HOME"]) ?? home.map { $0 + "/.local/share" }
    stateHome = Self.absolute(environment["XDG_STATE_HOME"]) ?? home.map { $0 + "/.local/state" }
    cacheHome = Self.absolute(environment["XDG_CACHE_HOME"]) ?? home.map { $0 + "/.cache" }
  }

  /// Why there is no state directory, for the messages that must say where answers did not go.
  package static let noStateHome = "neither XDG_STATE_HOME nor HOME is set to an absolute path"

  /// The absolute directories of a colon-separated list such as `BIKI_PACK_PATH`; relative
  /// entries are ignored like relative XDG values, so a list never reaches into the current
  /// directory by accident.
  static func absoluteEntries(_ list: String?) -> [String] {
    (list ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
  }

  private static func absolute(_ value: String?) -> String? {
    guard let value, value.hasPrefix("/") else { return nil }
    return value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
  }
}
