/// Where packs come from, in order: the built-in `TopicPacks/`, `$XDG_DATA_HOME/biki/packs`
/// (default `~/.local/share/biki/packs`), each absolute directory in `BIKI_PACK_PATH`, and any
/// given with `--packs`.
package struct PackSearchPaths: Sendable, Equatable {
  package var directories: [String]
  /// The built-in packs' directory, and those given on the command line: what decides which
  /// of two definitions of a topic serves (see `Precedence`).
  var builtIn: String?
  var given: [String]

  init(directories: [String], builtIn: String? = nil, given: [String] = []) {
    self.directories = directories
    self.builtIn = builtIn
    self.given = given
  }

  /// The standard paths for an environment; `builtIn` is where the shipped packs are.
  static func standard(environment: [String: String], builtIn: String?, extra: [String] = []) -> PackSearchPaths {
    var directories: [String] = []
    if let builtIn { directories.append(builtIn) }
    if let dataHome = XDGDirectories(environment: environment).dataHome { directories.append(dataHome + "/biki/packs") }
    directories += XDGDirectories.absoluteEntries(environment["BIKI_PACK_PATH"])
    directories += extra
    var seen = Set<String>()
    return PackSearchPaths(directories: directories.filter { seen.insert($0).inserted }, builtIn: builtIn, given: extra)
  }

  /// The precedence of a file found in these directories (files are named as `packFiles`
  /// names them: the directory, a slash, the file name), or given as itself.
  package func precedence(of file: String) -> Precedence { .of(file, given: given, builtIn: builtIn) }
}
