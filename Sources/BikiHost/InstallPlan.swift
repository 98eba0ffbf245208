import BikiCore

/// What `biki install` copies, worked out from the running Biki's installation before anything
/// is written, so a missing piece stops the install with nothing half done.
package struct InstallPlan: Sendable, Equatable {
  package struct Copy: Sendable, Equatable {
    package var source: String
    /// Relative to the prefix.
    package var destination: String
    package var isExecutable: Bool
  }

  package var copies: [Copy]

  /// Relative to the prefix: every file an install wrote, one per line, so uninstall (and a
  /// later install) removes exactly those and nothing else.
  package static let manifestPath = "share/biki/installed-files"
  static let programs = ["biki", "biki-pack"]
  /// Added to the name of a file an install writes beside an installed file the user changed:
  /// not `.json` or `.so`, so no search for packs or plugins loads it.
  package static let besideSuffix = ".biki-new"

  package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
  }

  /// The programs, the built-in packs (with their schema) and Biki's own plugins.
  package static func make(from installation: Installation, fileSystem: FileSystem) throws(Problem) -> InstallPlan {
    var copies: [Copy] = []
    for program in programs {
      let path = Installation.join(installation.binDirectory, program)
      guard fileSystem.kind(path) == .file else {
        throw Problem(description: "\(path) is missing; build everything first: swift build -c release")
      }
      copies.append(Copy(source: path, destination: "bin/" + program, isExecutable: true))
    }
    guard let packs = installation.packs, fileSystem.kind(packs) == .directory else {
      throw Problem(
        description: "the built-in packs were not found (looked for TopicPacks above \(installation.binDirectory))")
    }
    let packNames = ((try? fileSystem.contents(packs)) ?? []).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
      .sorted()
    guard packNames.contains("numbers.json") else {
      throw Problem(description: "\(packs) holds no numbers.json; it is not Biki's packs")
    }
    for name in packNames {
      copies.append(
        Copy(
          source: Installation.join(packs, name), destination: Installation.packsPath + "/" + name, isExecutable: false)
      )
    }
    let plugins = PluginSearchPaths(
      directories: [], builtIn: installation.plugins, builtInNamePrefix: installation.pluginNamePrefix)
    for library in plugins.libraries(fileSystem: fileSystem) {
      let name = String(library.split(separator: "/").last ?? Substring(library))
      copies.append(Copy(source: library, destination: Installation.pluginsPath + "/" + name, isExecutable: true))
    }
    return InstallPlan(copies: copies)
  }

  /// One line of the manifest: a file an install wrote and, for the files it copied, a hash of
  /// what it wrote, so uninstall can tell a file the user has since edited.
  package struct Entry: Sendable, Equatable {
    package var path: String
    package var hash: UInt64?

    package init(path: String, hash: UInt64?) {
      self.path = path
      self.hash = hash
    }
  }

  /// The manifest's text: `<16 hex digits>  <path>` for each copied file, then the manifest's
  /// own path alone (a manifest from before hashes has every line that way).
  package static func manifest(_ entries: [Entry]) -> String {
    let lines = entries.map { entry in entry.hash.map { Fingerprint.text($0) + "  " + entry.path } ?? entry.path }
    return (lines + [manifestPath]).joined(separator: "\n") + "\n"
  }

  /// The files a manifest lists, refusing any entry that would reach outside the prefix.
  static func entries(inManifest text: String) throws(Problem) -> [Entry] {
    var entries: [Entry] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      var path = Substring(line)
      var hash: UInt64?
      let digits = line.prefix(16)
      if line.count > 18, digits.allSatisfy(\.isHexDigit), line.dropFirst(16).hasPrefix("  "),
        let value = UInt64(digits, radix: 16)
      {
        hash = value
        path = line.dropFirst(18)
      }
      let parts = path.split(separator: "/", omittingEmptySubsequences: false)
      guard !path.hasPrefix("/"), !parts.contains(".."), !parts.contains(""), !parts.contains(".") else {
        throw Problem(
          description:
            "the install manifest lists \"\(Excerpt.of(String(line), limit: 80))\", which is not a path inside the prefix"
        )
      }
      entries.append(Entry(path: String(path), hash: hash))
    }
    return entries
  }

  /// Directories an install creates, deepest first: removed at uninstall when left empty.
  package static let ownDirectories = [
    Installation.packsPath, Installation.earlierPacksPath, "share/biki", Installation.pluginsPath, "lib/biki",
  ]
}
