import Foundation
import Testing

/// `biki install` and `biki uninstall` against a prefix someone has tampered with: the real
/// binaries, a scratch prefix, and canary files outside it that must survive untouched.
@Suite(.serialized) struct InstallSafetyTests {
  typealias Scratch = InstallTests.Scratch

  /// Runs biki with a deadline, killing it when the deadline passes, so a regression that reads
  /// forever fails the test instead of hanging it.
  static func run(
    _ arguments: [String], viaShell script: String? = nil, scratch: Scratch, environment: [String: String]? = nil,
    seconds: Double = 60
  ) throws -> (result: BikiProcess.Result, timedOut: Bool) {
    let process = Process()
    process.environment = environment ?? scratch.environment
    process.currentDirectoryURL = URL(fileURLWithPath: scratch.elsewhere)
    if let script {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", script]
    } else {
      process.executableURL = BikiProcess.executable
      process.arguments = arguments
    }
    let outputPath = scratch.root + "/out-\(UUID().uuidString)"
    let errorPath = outputPath + ".err"
    for path in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
    defer {
      try? output.close()
      try? error.close()
    }
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date(timeIntervalSinceNow: seconds)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    let timedOut = process.isRunning
    if timedOut { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let result = BikiProcess.Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self),
      standardError: String(decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self))
    return (result, timedOut)
  }

  static func canonical(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }

  static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// Install replaces each file by a rename, so an unchanged inode means nothing was written.
  static func inode(_ path: String) -> UInt? {
    var status = stat()
    return lstat(path, &status) == 0 ? UInt(status.st_ino) : nil
  }

  static func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  static func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  /// A directory outside the prefix holding files named as Biki's own and one of the user's.
  static func canaries(in directory: String, names: [String]) throws -> [String: String] {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var canaries: [String: String] = [:]
    for name in names {
      canaries[name] = "the user's own \(name)"
      try write("the user's own \(name)", to: directory + "/" + name)
    }
    return canaries
  }

  static func expectUntouched(_ canaries: [String: String], in directory: String) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    #expect(names.sorted() == canaries.keys.sorted())
    for (name, text) in canaries { #expect(contents(directory + "/" + name) == text, "\(name)") }
  }

  /// The canary names: files install would write there, and one of the user's own.
  static func canaryNames(_ directory: String) -> [String] {
    directory == "share/biki/built-in-packs"
      ? ["counters.json", "numbers.json", "mine.json"] : ["libbiki-calendar.so", "mine.so"]
  }

  @Test(arguments: ["share/biki/built-in-packs", "lib/biki/plugins"])
  func installRefusesADirectoryThatIsASymbolicLinkAndWritesNothing(directory: String) throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let outside = scratch.root + "/outside"
    let canaries = try Self.canaries(in: outside, names: Self.canaryNames(directory))
    let link = scratch.prefix + "/" + directory
    try FileManager.default.createDirectory(
      atPath: (link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)

    let (install, timedOut) = try Self.run(["install", "--prefix", scratch.prefix], scratch: scratch)
    #expect(!timedOut)
    #expect(install.status == 73)
    #expect(install.standardError.hasPrefix("Error: "))
    #expect(
      install.standardError.contains("\(Self.canonical(scratch.prefix))/\(directory) is a symbolic link"),
      "\(install.standardError)")
    Self.expectUntouched(canaries, in: outside)
    #expect(!Self.exists(scratch.prefix + "/bin"))
    #expect(!Self.exists(scratch.prefix + "/share/biki/installed-files"))
  }

  @Test(arguments: ["share/biki/built-in-packs", "lib/biki/plugins"])
  func uninstallRefusesADirectoryThatBecameASymbolicLinkAndRemovesNothing(directory: String) throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    #expect(try Self.run(["install", "--prefix", scratch.prefix], scratch: scratch).result.status == 0)
    let outside = scratch.root + "/outside"
    let canaries = try Self.canaries(in: outside, names: Self.canaryNames(directory))
    let link = scratch.prefix + "/" + directory
    try FileManager.default.removeItem(atPath: link)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)

    let (uninstall, timedOut) = try Self.run(["uninstall", "--prefix", scratch.prefix], scratch: scratch)
    #expect(!timedOut)
    #expect(uninstall.status == 65)
    #expect(
      uninstall.standardError.contains("\(Self.canonical(scratch.prefix))/\(directory) is a symbolic link"),
      "\(uninstall.standardError)")
    #expect(uninstall.standardError.contains("nothing was removed"))
    Self.expectUntouched(canaries, in: outside)
    #expect(Self.exists(scratch.prefix + "/bin/biki"))
    #expect(Self.exists(scratch.prefix + "/share/biki/installed-files"))
  }

  @Test func aHugeManifestIsRefusedAtOnceWithAShortMessage() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    #expect(try Self.run(["install", "--prefix", scratch.prefix], scratch: scratch).result.status == 0)
    let manifest = scratch.prefix + "/share/biki/installed-files"
    // 64 MiB: one listed file, then a single enormous line.
    var bytes = Data("bin/biki\n".utf8)
    bytes.append(Data(repeating: UInt8(ascii: "a"), count: 64 << 20))
    try bytes.write(to: URL(fileURLWithPath: manifest))
    let installed = Self.inode(scratch.prefix + "/bin/biki")

    for command in ["uninstall", "install"] {
      let (result, timedOut) = try Self.run([command, "--prefix", scratch.prefix], scratch: scratch, seconds: 10)
      #expect(!timedOut, "\(command)")
      #expect(result.status == (command == "install" ? 73 : 65), "\(command): \(result.standardError)")
      #expect(result.standardError.contains("more than an install manifest can be"), "\(command)")
      #expect(result.standardError.count < 400, "\(command)")
      #expect(Self.inode(scratch.prefix + "/bin/biki") == installed, "\(command)")
    }

    // The limit is 1 MiB: one byte more is refused too.
    try Data(repeating: UInt8(ascii: "\n"), count: (1 << 20) + 1).write(to: URL(fileURLWithPath: manifest))
    for command in ["uninstall"] {
      let (result, timedOut) = try Self.run([command, "--prefix", scratch.prefix], scratch: scratch, seconds: 10)
      #expect(!timedOut, "\(command)")
      #expect(result.status == (command == "install" ? 73 : 65), "\(command): \(result.standardError)")
      #expect(result.standardError.contains("more than an install manifest can be"), "\(command)")
      #expect(result.standardError.count < 400, "\(command)")
      #expect(Self.inode(scratch.prefix + "/bin/biki") == installed, "\(command)")
    }
  }

  @Test func aFIFOOrADeviceAsTheManifestIsRefusedAtOnce() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    #expect(try Self.run(["install", "--prefix", scratch.prefix], scratch: scratch).result.status == 0)
    let manifest = scratch.prefix + "/share/biki/installed-files"
    try FileManager.default.removeItem(atPath: manifest)
    #expect(mkfifo(manifest, 0o600) == 0)
    let installed = Self.inode(scratch.prefix + "/bin/biki")

    for command in ["uninstall", "install"] {
      let (fifo, fifoTimedOut) = try Self.run([command, "--prefix", scratch.prefix], scratch: scratch, seconds: 10)
      #expect(!fifoTimedOut, "\(command)")
      #expect(fifo.status == (command == "install" ? 73 : 65), "\(command)")
      #expect(fifo.standardError.contains("installed-files is not a regular file"), "\(fifo.standardError)")
      #expect(Self.inode(scratch.prefix + "/bin/biki") == installed, "\(command)")
    }

    try FileManager.default.removeItem(atPath: manifest)
    try FileManager.default.createSymbolicLink(atPath: manifest, withDestinationPath: "/dev/zero")
    let (zero, zeroTimedOut) = try Self.run(["uninstall", "--prefix", scratch.prefix], scratch: scratch, seconds: 10)
    #expect(!zeroTimedOut)
    #expect(zero.status == 65)
    #expect(zero.standardError.contains("installed-files is a symbolic link"), "\(zero.standardError)")
    #expect(Self.exists(scratch.prefix + "/bin/biki"))
  }

  @Test func uninstallKeepsAnInstalledPackTheUserEditedAndSaysSo() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    #expect(try Self.run(["install", "--prefix", scratch.prefix], scratch: scratch).result.status == 0)
    let pack = scratch.prefix + "/share/biki/built-in-packs/counters.json"
    let edited = (Self.contents(pack) ?? "") + "\n"
    try Self.write(edited, to: pack)

    let (uninstall, _) = try Self.run(["uninstall", "--prefix", scratch.prefix], scratch: scratch)
    #expect(uninstall.status == 0, "\(uninstall.standardError)")
    #expect(
      uninstall.standardOutput.contains("Kept \(Self.canonical(pack)): changed since it was installed."),
      "\(uninstall.standardOutput)")
    #expect(Self.contents(pack) == edited)
    #expect(!Self.exists(scratch.prefix + "/share/biki/built-in-packs/numbers.json"))
    #expect(!Self.exists(scratch.prefix + "/bin/biki"))
    #expect(!Self.exists(scratch.prefix + "/share/biki/installed-files"))
  }

  /// Installing again (an upgrade) never overwrites an installed pack the user edited: it is
  /// kept and named, the new version goes beside it where no search loads it, and uninstall
  /// removes the new version but keeps the edit.
  @Test func installingAgainKeepsAnInstalledPackTheUserEditedAndSaysSo() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    #expect(try Self.run(["install", "--prefix", scratch.prefix], scratch: scratch).result.status == 0)
    let pack = scratch.prefix + "/share/biki/built-in-packs/counters.json"
    let original = Self.contents(pack) ?? ""
    let edited = original + "\n"
    try Self.write(edited, to: pack)

    let (again, _) = try Self.run(["install", "--prefix", scratch.prefix], scratch: scratch)
    #expect(again.status == 0, "\(again.standardError)")
    let beside = Self.canonical(pack) + ".biki-new"
    #expect(
      again.standardOutput.contains(
        "Kept \(Self.canonical(pack)): changed since it was installed; this version is beside it as \(beside)."),
      "\(again.standardOutput)")
    #expect(Self.contents(pack) == edited)
    #expect(Self.contents(beside) == original)
    // The installed biki, by name from elsewhere, loads the edited pack and not the copy beside it.
    let (topics, _) = try Self.run([], viaShell: "biki topics", scratch: scratch)
    #expect(topics.status == 0 && topics.standardError.isEmpty, "\(topics.standardError)")
    #expect(topics.standardOutput.contains("counters.hon\t"))
    #expect(!topics.standardOutput.contains(".biki-new"))

    // A third install keeps it again (the manifest still holds the hash it was installed with).
    let (third, _) = try Self.run(["install", "--prefix", scratch.prefix], scratch: scratch)
    #expect(
      third.standardOutput.contains("Kept \(Self.canonical(pack)): changed since it was installed"),
      "\(third.standardOutput)")
    let (uninstall, _) = try Self.run(["uninstall", "--prefix", scratch.prefix], scratch: scratch)
    #expect(uninstall.status == 0, "\(uninstall.standardError)")
    #expect(
      uninstall.standardOutput.contains("Kept \(Self.canonical(pack)): changed since it was installed."),
      "\(uninstall.standardOutput)")
    #expect(Self.contents(pack) == edited)
    #expect(!Self.exists(beside))
  }

  @Test func aManifestFromBeforeHashesStillUninstalls() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    #expect(try Self.run(["install", "--prefix", scratch.prefix], scratch: scratch).result.status == 0)
    let manifest = scratch.prefix + "/share/biki/installed-files"
    let oldFormat = (Self.contents(manifest) ?? "").split(separator: "\n").map { line in
      line.count > 18 && line.dropFirst(16).hasPrefix("  ") ? String(line.dropFirst(18)) : String(line)
    }
    #expect(oldFormat.contains("bin/biki"))
    try Self.write(oldFormat.joined(separator: "\n") + "\n", to: manifest)
    let (uninstall, _) = try Self.run(["uninstall", "--prefix", scratch.prefix], scratch: scratch)
    #expect(uninstall.status == 0, "\(uninstall.standardError)")
    #expect(!Self.exists(scratch.prefix + "/bin/biki"))
    #expect(!Self.exists(manifest))
  }

  @Test func uninstallByNameFindsThePrefixItIsInstalledIn() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    // Nothing installed under HOME: the message names where it looked and suggests --prefix.
    let (nothing, _) = try Self.run(["uninstall"], scratch: scratch)
    #expect(nothing.status == 66)
    #expect(
      nothing.standardError.contains("no Biki is installed in \(Self.canonical(scratch.home))/.local"),
      "\(nothing.standardError)")
    #expect(nothing.standardError.contains("biki uninstall --prefix <dir>"))

    #expect(try Self.run(["install", "--prefix", scratch.prefix], scratch: scratch).result.status == 0)
    let (uninstall, _) = try Self.run([], viaShell: "biki uninstall", scratch: scratch)
    #expect(uninstall.status == 0, "\(uninstall.standardError)")
    #expect(
      uninstall.standardOutput.contains("Removed Biki from \(Self.canonical(scratch.prefix))"),
      "\(uninstall.standardOutput)")
    #expect(!Self.exists(scratch.prefix + "/bin/biki"))
    #expect(!Self.exists(scratch.prefix + "/share/biki/installed-files"))
  }
}
