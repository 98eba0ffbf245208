import BikiCLI
import BikiCore
import BikiHost
import Foundation

/// `biki install` and `biki uninstall`: this Biki (its programs, built-in packs and sample
/// plugins) into an FHS prefix, and out again, touching only the files it lists in its manifest.
enum InstallCommand {
  static let installUsage = "biki install [--prefix <dir>]"
  static let uninstallUsage = "biki uninstall [--prefix <dir>]"

  static let installHelp = """
    OVERVIEW: Install this Biki so it runs by name from anywhere.

    Copies biki and biki-pack to PREFIX/bin, the built-in packs to PREFIX/share/biki/packs and
    the sample plugins to PREFIX/lib/biki/plugins, and lists them in
    PREFIX/share/biki/installed-files. Installing again replaces the earlier install.

    USAGE: \(installUsage)

    OPTIONS:
      --prefix <dir>          Where to install (default: ~/.local).
      -h, --help              Show help information.
    """

  static let uninstallHelp = """
    OVERVIEW: Remove what 'biki install' put into a prefix.

    Removes exactly the files listed in PREFIX/share/biki/installed-files, then Biki's own
    directories there if they are left empty. Your packs, plugins and history are kept.

    USAGE: \(uninstallUsage)

    OPTIONS:
      --prefix <dir>          The prefix given to 'biki install' (default: ~/.local).
      -h, --help              Show help information.
    """

  static func install(arguments: [String], environment: BikiEnvironment) -> CommandOutcome {
    let prefix: String
    switch parsePrefix(arguments, environment: environment, usage: installUsage, help: installHelp, helpCommand: "biki install --help") {
    case .success(let found): prefix = found
    case .failure(let failure): return failure.outcome
    }
    let installation = environment.installation
    if environment.fileSystem.canonicalPath(prefix + "/bin") == installation.binDirectory {
      return CommandOutcome(standardError: ["Error: this Biki is the one installed in \(prefix); nothing to do."], status: ExitStatus.usage)
    }
    let plan: InstallPlan
    do {
      plan = try InstallPlan.make(from: installation, fileSystem: environment.fileSystem)
    } catch {
      return CommandOutcome(standardError: ["Error: cannot install: \(error)"], status: ExitStatus.noInput)
    }
    do {
      let stale = try previousFiles(prefix).filter { file in !plan.copies.contains { $0.destination == file } && file != InstallPlan.manifestPath }
      for copy in plan.copies {
        try LiveFiles.copy(copy.source, to: prefix + "/" + copy.destination, executable: copy.isExecutable)
      }
      for file in stale { try LiveFiles.remove(prefix + "/" + file) }
      try LiveFiles.write(plan.manifest, to: prefix + "/" + InstallPlan.manifestPath)
    } catch {
      return CommandOutcome(standardError: ["Error: cannot install into \(prefix): \(error)"], status: ExitStatus.cannotCreate)
    }
    let plugins = plan.copies.filter { $0.destination.hasPrefix(Installation.pluginsPath) }.count
    let packs = plan.copies.filter { $0.destination.hasPrefix(Installation.packsPath) && !$0.destination.hasSuffix(".schema.json") }.count
    var lines = ["Installed Biki \(BikiVersion.current) into \(prefix): biki and biki-pack, \(packs) packs, \(plugins) plugins."]
    let onPath = (environment.variables["PATH"] ?? "").split(separator: ":").contains { environment.fileSystem.canonicalPath(String($0)) == environment.fileSystem.canonicalPath(prefix + "/bin") }
    lines.append(onPath ? "Try: biki topics" : "\(prefix)/bin is not on your PATH; add it, then try: biki topics")
    return CommandOutcome(standardOutput: lines)
  }

  static func uninstall(arguments: [String], environment: BikiEnvironment) -> CommandOutcome {
    let prefix: String
    switch parsePrefix(arguments, environment: environment, usage: uninstallUsage, help: uninstallHelp, helpCommand: "biki uninstall --help") {
    case .success(let found): prefix = found
    case .failure(let failure): return failure.outcome
    }
    let files: [String]
    do {
      files = try previousFiles(prefix)
    } catch {
      return CommandOutcome(standardError: ["Error: \(error)"], status: ExitStatus.dataError)
    }
    guard !files.isEmpty else {
      return CommandOutcome(standardError: ["Error: no Biki is installed in \(prefix) (there is no \(prefix)/\(InstallPlan.manifestPath))."], status: ExitStatus.noInput)
    }
    do {
      // The manifest goes last, so an interrupted uninstall can be run again.
      for file in files where file != InstallPlan.manifestPath { try LiveFiles.remove(prefix + "/" + file) }
      try LiveFiles.remove(prefix + "/" + InstallPlan.manifestPath)
      for directory in InstallPlan.ownDirectories { LiveFiles.removeIfEmpty(prefix + "/" + directory) }
    } catch {
      return CommandOutcome(standardError: ["Error: cannot uninstall from \(prefix): \(error)"], status: ExitStatus.failure)
    }
    return CommandOutcome(standardOutput: ["Removed Biki from \(prefix) (\(files.count) files)."])
  }

  /// The files an earlier install listed; none when there was none.
  private static func previousFiles(_ prefix: String) throws -> [String] {
    let path = prefix + "/" + InstallPlan.manifestPath
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try InstallPlan.files(inManifest: text)
  }

  private static func parsePrefix(
    _ arguments: [String], environment: BikiEnvironment, usage: String, help: String, helpCommand: String
  ) -> Result<String, CommandFailure> {
    let parsed: ParsedArguments
    switch CommandOutcome.parse(arguments, options: [.value("--prefix", "<dir>")], help: help, usage: usage, helpCommand: helpCommand) {
    case .success(let found): parsed = found
    case .failure(let failure): return .failure(failure)
    }
    if let extra = parsed.positionals.first {
      return .failure(CommandFailure(outcome: .usageError("Unexpected argument '\(extra)'.", usage: usage, helpCommand: helpCommand)))
    }
    if let prefix = parsed.value("--prefix") {
      guard !prefix.isEmpty else {
        return .failure(CommandFailure(outcome: .usageError("'--prefix' needs a directory.", usage: usage, helpCommand: helpCommand)))
      }
      // Relative to where the user is, as they typed it; stored and shown absolute.
      return .success(environment.fileSystem.canonicalPath(prefix))
    }
    guard let home = environment.variables["HOME"], home.hasPrefix("/") else {
      return .failure(CommandFailure(outcome: .usageError("HOME is not set; give a prefix with --prefix.", usage: usage, helpCommand: helpCommand)))
    }
    return .success(home + "/.local")
  }
}

/// The real file operations install and uninstall need; exercised by the end-to-end install test.
enum LiveFiles {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Copies through a temporary file and a rename, so a program that is running (a language
  /// server an editor started) is replaced, not overwritten in place.
  static func copy(_ source: String, to destination: String, executable: Bool) throws {
    let directory = (destination as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let data = try Data(contentsOf: URL(fileURLWithPath: source))
    try write(data, to: destination, mode: executable ? 0o755 : 0o644)
  }

  static func write(_ text: String, to destination: String) throws {
    try FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try write(Data(text.utf8), to: destination, mode: 0o644)
  }

  private static func write(_ data: Data, to destination: String, mode: mode_t) throws {
    try WholeFile.replace(destination, with: [UInt8](data), mode: mode)
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
