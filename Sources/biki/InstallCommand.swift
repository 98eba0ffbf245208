import BikiCLI
import BikiCore
import BikiFiles
import BikiHost
import Foundation

/// `biki install` and `biki uninstall`: this Biki (its programs, built-in packs and sample
/// plugins) into an FHS prefix, and out again, touching only the files it lists in its manifest.
enum InstallCommand {
  static let installUsage = "biki install [--prefix <dir>]"
  static let uninstallUsage = "biki uninstall [--prefix <dir>]"

  static let installHelp = """
    OVERVIEW: Install this Biki so it runs by name from anywhere.

    Copies biki and biki-pack to PREFIX/bin, the built-in packs to
    PREFIX/share/biki/built-in-packs (apart from your own packs, even with the prefix ~/.local)
    and the sample plugins to PREFIX/lib/biki/plugins, and lists them in
    PREFIX/share/biki/installed-files. Installing again replaces the earlier install, except
    an installed file you changed since: that is kept, and the new version is written beside
    it with '.biki-new' added to its name. Biki writes only through real directories inside
    PREFIX, never through a symbolic link.

    USAGE: \(installUsage)

    OPTIONS:
      --prefix <dir>          Where to install (default: ~/.local).
      -h, --help              Show help information.
    """

  static let uninstallHelp = """
    OVERVIEW: Remove what 'biki install' put into a prefix.

    Removes exactly the files listed in PREFIX/share/biki/installed-files, then Biki's own
    directories there if they are left empty. Your packs, plugins and history are kept, and so
    is any installed file you changed since it was installed.

    USAGE: \(uninstallUsage)

    OPTIONS:
      --prefix <dir>          The prefix given to 'biki install' (default: the prefix this
                              biki is installed in, else ~/.local).
      -h, --help              Show help information.
    """

  static func install(arguments: [String], environment: BikiEnvironment) -> CommandOutcome {
    let prefix: String
    switch parsePrefix(
      arguments, environment: environment, usage: installUsage, help: installHelp, helpCommand: "biki install --help")
    {
    case .success(let found): prefix = found
    case .failure(let failure): return failure.outcome
    }
    let installation = environment.installation
    if environment.fileSystem.canonicalPath(prefix + "/bin") == installation.binDirectory {
      return CommandOutcome(
        standardError: ["Error: this Biki is the one installed in \(prefix); nothing to do."], status: ExitStatus.usage)
    }
    let plan: InstallPlan
    do {
      plan = try InstallPlan.make(from: installation, fileSystem: environment.fileSystem)
    } catch {
      return CommandOutcome(standardError: ["Error: cannot install: \(error)"], status: ExitStatus.noInput)
    }
    let tree = InstallTree(prefix: prefix)
    let refused = { (reason: String) in
      CommandOutcome(
        standardError: ["Error: cannot install into \(prefix): \(reason); nothing was written."],
        status: ExitStatus.cannotCreate)
    }
    // Everything is looked at before anything is written, so a refused install changes nothing.
    let writes: [PlannedWrite]
    let stale: [InstallPlan.Entry]
    do {
      let previous = try tree.readManifest() ?? []
      writes = try plan.copies.map { copy throws -> PlannedWrite in
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: copy.source)))
        let hash = Fingerprint.of(bytes)
        // A file an earlier install wrote and the user has changed since stays theirs; this
        // version goes beside it, under a name no pack or plugin search picks up.
        if let recorded = previous.first(where: { $0.path == copy.destination })?.hash,
          case .file(let current) = try tree.inspect(copy.destination),
          current != recorded, current != hash
        {
          return PlannedWrite(copy: copy, bytes: bytes, hash: hash, keptEdit: (copy.destination, recorded))
        }
        return PlannedWrite(copy: copy, bytes: bytes, hash: hash, keptEdit: nil)
      }
      let targets = Set(
        writes.flatMap { [$0.target] + ($0.keptEdit.map { [$0.path] } ?? []) } + [InstallPlan.manifestPath])
      stale = previous.filter { !targets.contains($0.path) }
      for path in targets.sorted() + stale.map(\.path) { try tree.checkDirectories(of: path) }
    } catch let refusal as InstallTree.Refusal {
      return refused(refusal.description)
    } catch {
      return CommandOutcome(standardError: ["Error: cannot install: \(error)"], status: ExitStatus.noInput)
    }
    var written: [InstallPlan.Entry] = []
    var kept: [String] = []
    do {
      for write in writes {
        try tree.makeDirectories(of: write.target)
        try LiveFiles.write(write.bytes, to: tree.absolute(write.target), mode: write.copy.isExecutable ? 0o755 : 0o644)
        written.append(InstallPlan.Entry(path: write.target, hash: write.hash))
        if let edit = write.keptEdit {
          // Listed with the hash it was installed with, so uninstall keeps it too.
          written.append(InstallPlan.Entry(path: edit.path, hash: edit.recorded))
          kept.append(
            "Kept \(tree.absolute(edit.path)): changed since it was installed; this version is beside it as \(tree.absolute(write.target))."
          )
        }
      }
      for entry in stale {
        if let reason = try LiveFiles.removeUnlessChanged(entry, in: tree) {
          kept.append("Kept \(tree.absolute(entry.path)): \(reason).")
        }
      }
      // An earlier install's pack directory, emptied by moving its packs, is not left behind
      // to look like a place for packs of one's own.
      if stale.contains(where: { $0.path.hasPrefix(Installation.earlierPacksPath + "/") }) {
        LiveFiles.removeIfEmpty(tree.absolute(Installation.earlierPacksPath))
      }
      try tree.makeDirectories(of: InstallPlan.manifestPath)
      try LiveFiles.write(
        Array(InstallPlan.manifest(written).utf8), to: tree.absolute(InstallPlan.manifestPath), mode: 0o644)
    } catch {
      return CommandOutcome(
        standardError: ["Error: cannot install into \(prefix): \(error)"], status: ExitStatus.cannotCreate)
    }
    let plugins = plan.copies.filter { $0.destination.hasPrefix(Installation.pluginsPath) }.count
    let packs = plan.copies.filter {
      $0.destination.hasPrefix(Installation.packsPath) && !$0.destination.hasSuffix(".schema.json")
    }.count
    var lines =
      ["Installed Biki \(BikiVersion.current) into \(prefix): biki and biki-pack, \(packs) packs, \(plugins) plugins."]
      + kept
    let onPath = (environment.variables["PATH"] ?? "").split(separator: ":").contains {
      environment.fileSystem.canonicalPath(String($0)) == environment.fileSystem.canonicalPath(prefix + "/bin")
    }
    lines.append(onPath ? "Try: biki topics" : "\(prefix)/bin is not on your PATH; add it, then try: biki topics")
    return CommandOutcome(standardOutput: lines)
  }

  /// One file an install writes: where, and whether it goes beside a file the user changed.
  private struct PlannedWrite {
    var copy: InstallPlan.Copy
    var bytes: [UInt8]
    var hash: UInt64
    /// The installed file the user changed since (its path and the hash it was installed with).
    var keptEdit: (path: String, recorded: UInt64)?
    /// Relative to the prefix.
    var target: String { keptEdit == nil ? copy.destination : copy.destination + InstallPlan.besideSuffix }
  }

  static func uninstall(arguments: [String], environment: BikiEnvironment) -> CommandOutcome {
    let prefix: String
    let given = arguments.contains { $0 == "--prefix" || $0.hasPrefix("--prefix=") }
    switch parsePrefix(
      arguments, environment: environment, usage: uninstallUsage, help: uninstallHelp,
      helpCommand: "biki uninstall --help")
    {
    case .success(let found): prefix = given ? found : (ownPrefix(environment) ?? found)
    case .failure(let failure): return failure.outcome
    }
    let tree = InstallTree(prefix: prefix)
    let refused = { (reason: String) in
      CommandOutcome(
        standardError: ["Error: cannot uninstall from \(prefix): \(reason); nothing was removed."],
        status: ExitStatus.dataError)
    }
    // Everything is looked at before anything is removed, so a refused uninstall changes nothing.
    let entries: [InstallPlan.Entry]
    do {
      guard let found = try tree.readManifest(), !found.isEmpty else {
        let hint = given ? "" : " If Biki was installed elsewhere, give that prefix: biki uninstall --prefix <dir>"
        return CommandOutcome(
          standardError: [
            "Error: no Biki is installed in \(prefix) (there is no \(tree.absolute(InstallPlan.manifestPath))).\(hint)"
          ],
          status: ExitStatus.noInput)
      }
      entries = found
      for entry in entries { try tree.checkDirectories(of: entry.path) }
    } catch {
      return refused(error.description)
    }
    var removed = 0
    var kept: [String] = []
    do {
      // The manifest goes last, so an interrupted uninstall can be run again.
      for entry in entries where entry.path != InstallPlan.manifestPath {
        if let reason = try LiveFiles.removeUnlessChanged(entry, in: tree) {
          kept.append("Kept \(tree.absolute(entry.path)): \(reason).")
        } else {
          removed += 1
        }
      }
      try LiveFiles.remove(tree.absolute(InstallPlan.manifestPath))
      for directory in InstallPlan.ownDirectories { LiveFiles.removeIfEmpty(tree.absolute(directory)) }
    } catch {
      return CommandOutcome(
        standardError: ["Error: cannot uninstall from \(prefix): \(error)"], status: ExitStatus.failure)
    }
    return CommandOutcome(standardOutput: ["Removed Biki from \(prefix) (\(removed) files)."] + kept)
  }

  /// The prefix this running biki was installed into (`PREFIX/bin/biki` beside
  /// `PREFIX/share/biki/installed-files`), so `biki uninstall` by name removes itself.
  private static func ownPrefix(_ environment: BikiEnvironment) -> String? {
    let bin = environment.installation.binDirectory
    guard bin.hasSuffix("/bin") else { return nil }
    let prefix = String(bin.dropLast(4))
    guard !prefix.isEmpty else { return nil }
    var status = stat()
    guard lstat(InstallTree(prefix: prefix).absolute(InstallPlan.manifestPath), &status) == 0 else { return nil }
    return prefix
  }

  private static func parsePrefix(
    _ arguments: [String], environment: BikiEnvironment, usage: String, help: String, helpCommand: String
  ) -> Result<String, CommandFailure> {
    let parsed: ParsedArguments
    switch CommandOutcome.parse(
      arguments, options: [.value("--prefix", "<dir>")], help: help, usage: usage, helpCommand: helpCommand)
    {
    case .success(let found): parsed = found
    case .failure(let failure): return .failure(failure)
    }
    if let extra = parsed.positionals.first {
      return .failure(
        CommandFailure(outcome: .usageError("Unexpected argument '\(extra)'.", usage: usage, helpCommand: helpCommand)))
    }
    if let prefix = parsed.value("--prefix") {
      guard !prefix.isEmpty else {
        return .failure(
          CommandFailure(outcome: .usageError("'--prefix' needs a directory.", usage: usage, helpCommand: helpCommand)))
      }
      // Relative to where the user is, as they typed it; stored and shown absolute.
      return .success(environment.fileSystem.canonicalPath(prefix))
    }
    guard let home = environment.variables["HOME"], home.hasPrefix("/") else {
      return .failure(
        CommandFailure(
          outcome: .usageError("HOME is not set; give a prefix with --prefix.", usage: usage, helpCommand: helpCommand))
      )
    }
    // A ~/.local that is itself a link (kept on another disk) is followed once, here.
    return .success(environment.fileSystem.canonicalPath(home + "/.local"))
  }
}

/// The real file operations install and uninstall need; exercised by the end-to-end install test.
enum LiveFiles {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Writes through a temporary file and a rename (never through a symbolic link), so a program
  /// that is running (a language server an editor started) is replaced, not overwritten in place.
  static func write(_ bytes: [UInt8], to destination: String, mode: mode_t) throws {
    try WholeFile.replace(destination, with: bytes, mode: mode)
  }

  /// Removes a file an install wrote, unless it is no longer what was written: then the reason
  /// it was kept. A file already gone is fine.
  static func removeUnlessChanged(_ entry: InstallPlan.Entry, in tree: InstallTree) throws -> String? {
    switch try tree.inspect(entry.path) {
    case .nothing: return nil
    case .notAFile: return "not a regular file, so not what Biki installed"
    case .file(let hash):
      if let recorded = entry.hash, recorded != hash { return "changed since it was installed" }
      try remove(tree.absolute(entry.path))
      return nil
    }
  }

  /// Removes a file; one already gone is fine.
  static func remove(_ path: String) throws {
    guard unlink(path) == 0 || errno == ENOENT else {
      throw Failure(description: "cannot remove \(path): \(String(cString: strerror(errno)))")
    }
  }

  static func removeIfEmpty(_ directory: String) {
    rmdir(directory)  // fails, harmlessly, when something of the user's is still there
  }
}
