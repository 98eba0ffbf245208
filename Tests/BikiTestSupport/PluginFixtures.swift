import Foundation

/// Builds plugins with the system C compiler, as a plugin author would: `cc -shared -fPIC`.
public enum PluginFixtures {
  public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  public static let header = repository.appendingPathComponent("Sources/BikiPluginABI/include").path
  public static let directory =
    NSTemporaryDirectory() + "biki-plugins-" + String(ProcessInfo.processInfo.processIdentifier)

  /// The released 1.0 header and the synthetic later one, for ABI stability tests.
  public static let frozenHeader = repository.appendingPathComponent(".ci/abi/1.0").path
  /// Every released minor's header directory (.ci/abi/<major.minor>), oldest first.
  public static let releasedHeaders: [String] = {
    let abi = repository.appendingPathComponent(".ci/abi").path
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: abi)) ?? []).filter {
      FileManager.default.fileExists(atPath: "\(abi)/\($0)/biki_plugin.h")
    }
    return versions.sorted {
      $0.split(separator: ".").compactMap { Int($0) }.lexicographicallyPrecedes(
        $1.split(separator: ".").compactMap { Int($0) })
    }
    .map { "\(abi)/\($0)" }
  }()
  public static let laterHeader = repository.appendingPathComponent("Tests/BikiPluginsTests/Fixtures/abi/later").path

  /// Compiles `source` with the given `-D` defines into a uniquely named shared library.
  public static func build(_ source: String, defines: [String] = [], name: String, include: String = header) throws
    -> String
  {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let output = "\(directory)/lib\(name).so"
    if FileManager.default.fileExists(atPath: output) { return output }
    // Tests run in parallel: build under a unique name and rename into place atomically, so no
    // test ever loads a library another is still writing.
    let partial = output + ".partial-" + UUID().uuidString
    try compile(
      ["-std=c99", "-O1", "-shared", "-fPIC", "-I", include] + defines.map { "-D" + $0 } + [source, "-o", partial])
    guard rename(partial, output) == 0 else { throw CompileError(message: "cannot move \(partial) into place") }
    return output
  }

  /// Runs the C compiler (`cc`) with `arguments`; throws with what it said when it fails. Every
  /// C file a test builds goes through here.
  public static func compile(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["cc"] + arguments
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CompileError(message: message) }
  }

  public static func calendar() throws -> String {
    try build(repository.appendingPathComponent("Plugins/calendar-c/calendar.c").path, name: "biki-calendar")
  }

  /// The misbehaving fixture built with one `-D` define ("SEGFAULT", "SLOW_MS=100"), or none.
  public static func misbehaving(_ define: String?) throws -> String {
    try build(
      repository.appendingPathComponent("Tests/BikiPluginsTests/Fixtures/misbehaving.c").path,
      defines: define.map { [$0] } ?? [],
      name: "misbehaving-\(define ?? "ok")")
  }

  /// `source` (a path inside the repository) built with `defines` and copied into `directory`
  /// as `name`: a plugin directory laid out as a user's would be. Made if need be; the build is
  /// shared by every test in this process that asks for the same source and defines.
  @discardableResult
  public static func copy(_ source: String, defines: [String] = [], into directory: String, as name: String) throws
    -> String
  {
    let stem = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
    let built = try build(
      repository.appendingPathComponent(source).path, defines: defines,
      name: ([stem] + defines).joined(separator: "-").map {
        $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_"
      }.reduce(into: "") { $0.append($1) })
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let target = directory + "/" + name
    try? FileManager.default.removeItem(atPath: target)
    try FileManager.default.copyItem(atPath: built, toPath: target)
    return target
  }

  /// `biki`, built next to the test bundle: the executable plugin workers are started from.
  public static let worker = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("biki").path

  public struct CompileError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { "cc failed: \(message)" }
  }
}
