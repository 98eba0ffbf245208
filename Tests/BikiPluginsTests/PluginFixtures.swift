import Foundation
import Testing

/// Builds plugins with the system C compiler, as a plugin author would: `cc -shared -fPIC`.
enum PluginFixtures {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let header = repository.appendingPathComponent("Sources/BikiPluginABI/include").path
  static let directory = NSTemporaryDirectory() + "biki-plugins-" + String(ProcessInfo.processInfo.processIdentifier)

  /// The frozen v1.0 header and the synthetic later one, for ABI stability tests.
  static let frozenHeader = repository.appendingPathComponent("Tests/BikiPluginsTests/Fixtures/abi/v1.0").path
  static let laterHeader = repository.appendingPathComponent("Tests/BikiPluginsTests/Fixtures/abi/later").path

  /// Compiles `source` with the given `-D` defines into a uniquely named shared library.
  static func build(_ source: String, defines: [String] = [], name: String, include: String = header) throws -> String {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let output = "\(directory)/lib\(name).so"
    if FileManager.default.fileExists(atPath: output) { return output }
    // Tests run in parallel: build under a unique name and rename into place atomically, so no
    // test ever loads a library another is still writing.
    let partial = output + ".partial-" + UUID().uuidString
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["cc", "-std=c99", "-O1", "-shared", "-fPIC", "-I", include] + defines.map { "-D" + $0 } + [source, "-o", partial]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard process.terminationStatus == 0 else { throw CompileError(message: message) }
    guard rename(partial, output) == 0 else { throw CompileError(message: "cannot move \(partial) into place") }
    return output
  }

  static func calendar() throws -> String {
    try build(repository.appendingPathComponent("Plugins/calendar-c/calendar.c").path, name: "biki-calendar")
  }

  static func misbehaving(_ define: String?) throws -> String {
    try build(
      repository.appendingPathComponent("Tests/BikiPluginsTests/Fixtures/misbehaving.c").path, defines: define.map { [$0] } ?? [],
      name: "misbehaving-\(define ?? "ok")")
  }

  struct CompileError: Error, CustomStringConvertible {
    var message: String
    var description: String { "cc failed: \(message)" }
  }
}
