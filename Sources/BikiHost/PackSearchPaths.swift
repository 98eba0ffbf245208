import Foundation

/// Where packs come from, in order: the built-in `TopicPacks/`, `$XDG_DATA_HOME/biki/packs`
/// (default `~/.local/share/biki/packs`), each absolute directory in `BIKI_PACK_PATH`, and any
/// given with `--packs`.
public struct PackSearchPaths: Sendable, Equatable {
  public var directories: [String]

  public init(directories: [String]) {
    self.directories = directories
  }

  /// The standard paths for an environment; `builtIn` is where the shipped packs are.
  public static func standard(environment: [String: String], builtIn: String?, extra: [String] = []) -> PackSearchPaths {
    var directories: [String] = []
    if let builtIn { directories.append(builtIn) }
    if let dataHome = XDGDirectories(environment: environment).dataHome { directories.append(dataHome + "/biki/packs") }
    directories += XDGDirectories.absoluteEntries(environment["BIKI_PACK_PATH"])
    directories += extra
    var seen = Set<String>()
    return PackSearchPaths(directories: directories.filter { seen.insert($0).inserted })
  }

  /// The built-in packs: `$BIKI_BUILTIN_PACKS`, else the nearest `TopicPacks` directory at or
  /// above the executable (a source checkout runs from `.build/<config>/`), else beside it.
  public static func builtInDirectory(executable: String, environment: [String: String], fileSystem: FileSystem) -> String? {
    if let override = environment["BIKI_BUILTIN_PACKS"], !override.isEmpty { return override }
    var directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<8 {
      let candidate = directory.appendingPathComponent("TopicPacks").path
      if fileSystem.kind(candidate + "/numbers.json") == .file { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }
}
