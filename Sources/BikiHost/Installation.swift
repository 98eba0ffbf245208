/// Where a Biki's own files are, found from the real path of its running executable, so it is
/// the same Biki however it was started (by bare name through `PATH`, through a symlink, from
/// any directory):
///
/// - installed (`biki install`): `PREFIX/bin/biki`, with `PREFIX/share/biki/built-in-packs` and
///   `PREFIX/lib/biki/plugins`;
/// - a source checkout: `.build/<config>/biki`, with the nearest `TopicPacks/` above it and the
///   sample plugins built beside it (`libbiki-*.so`).
package struct Installation: Sendable, Equatable {
  /// The directory holding `biki` and `biki-pack`.
  package var binDirectory: String
  /// The built-in packs, if found.
  package var packs: String?
  /// The built-in plugins' directory, if any.
  var plugins: String?
  /// In a build directory only `libbiki-*.so` are plugins (the rest are Biki's own
  /// libraries); in an installed plugin directory every `.so` is.
  var pluginNamePrefix: String

  /// Relative to an installation prefix. Not `share/biki/packs`: with the prefix `~/.local`
  /// that is where the user's own packs go (`$XDG_DATA_HOME/biki/packs`), and every pack there
  /// would be taken for a built-in one.
  package static let packsPath = "share/biki/built-in-packs"
  /// Where earlier installs put the built-in packs: an install over one moves them.
  package static let earlierPacksPath = "share/biki/packs"
  package static let pluginsPath = "lib/biki/plugins"

  /// Finds the installation `executable` belongs to. `BIKI_BUILTIN_PACKS` overrides where the
  /// built-in packs are (for running a build against another tree).
  package static func locate(executable: String, environment: [String: String], fileSystem: FileSystem) -> Installation
  {
    let real = fileSystem.canonicalPath(executable)
    let bin = parent(of: real)
    var installation: Installation
    let prefix = parent(of: bin)
    let installedPacks = join(prefix, packsPath)
    if fileSystem.kind(installedPacks + "/numbers.json") == .file {
      installation = Installation(
        binDirectory: bin, packs: installedPacks, plugins: join(prefix, pluginsPath), pluginNamePrefix: "")
    } else {
      installation = Installation(binDirectory: bin, packs: nil, plugins: bin, pluginNamePrefix: "libbiki-")
      var directory = bin
      for _ in 0..<8 {
        let candidate = join(directory, "TopicPacks")
        if fileSystem.kind(candidate + "/numbers.json") == .file {
          installation.packs = candidate
          break
        }
        guard directory != "/" else { break }
        directory = parent(of: directory)
      }
    }
    if let override = environment["BIKI_BUILTIN_PACKS"], !override.isEmpty { installation.packs = override }
    return installation
  }

  /// The sample plugins a source checkout builds (the dynamic library products in
  /// Package.swift), by the topics' pack id and the library's file name.
  static let samplePlugins = [("calendar", "libbiki-calendar.so"), ("prices", "libbiki-prices.so")]

  /// In a source checkout, the sample plugins not built beside this `biki`: `swift build` builds
  /// them, `swift run biki` builds only biki. Their pack ids, for saying why their topics are
  /// absent; none for an installed Biki.
  package func unbuiltSamplePlugins(fileSystem: FileSystem) -> [String] {
    guard pluginNamePrefix == "libbiki-", let plugins else { return [] }
    return Self.samplePlugins.filter { fileSystem.kind(Self.join(plugins, $0.1)) == nil }.map(\.0)
  }

  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
