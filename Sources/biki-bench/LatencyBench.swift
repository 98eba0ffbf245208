import BikiJSON
import Foundation

/// Latency as a user of `biki serve` feels it, with the real clock: how long after opening or
/// editing a pack its diagnostics arrive (next to `biki-pack lint`'s time on the same file), and
/// how long `biki/read` takes while a slow plugin's question is being made.
struct LatencyBench {
  let executable: String
  let packTool: String
  let repository: String

  func run(seconds: @escaping () -> Double) throws -> [String] {
    var report: [String] = []
    for (name, path) in [
      ("small", repository + "/TopicPacks/money.json"), ("large", repository + "/TopicPacks/counters.json"),
    ] {
      report += try diagnostics(name: name, path: path, seconds: seconds)
    }
    report.append(try readWhileASlowQuestionIsMade(seconds: seconds))
    return report
  }

  /// Messages by arrival, skipping what does not match.
  private func next(_ server: ServerBench.Server, where matches: (JSON) -> Bool) throws -> JSON {
    while true {
      let body = server.receive()
      guard let message = try? JSONParser.value(body) else {
        throw BenchFailure("biki serve sent a body that is not JSON")
      }
      if message["error"] != nil {
        throw BenchFailure("biki serve answered with an error: \(String(decoding: body.prefix(300), as: UTF8.self))")
      }
      if matches(message) { return message }
    }
  }

  private static func quoted(_ text: String) throws -> String {
    String(String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast())
  }

  private static func milliseconds(_ spread: Spread) -> String {
    String(format: "median %.1f ms, max %.1f ms", spread.median * 1000, spread.high * 1000)
  }

  /// Opens the pack 20 times (a new document each time), then edits one document 20 times with
  /// a pause after each edit, and times each publishDiagnostics from the message that caused it.
  func diagnostics(name: String, path: String, seconds: @escaping () -> Double) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    // The same pack with one key misspelled: a diagnostic to find each time.
    let broken = text.replacingOccurrences(of: "\"category\"", with: "\"categroy\"")
    let server = try ServerBench(executable: executable).started()
    var opens: [Double] = []
    for index in 0..<20 {
      let uri = "file:///bench/\(name)-\(index).json"
      let start = seconds()
      server.send(
        ServerBench.frame(
          #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"json","version":1,"text":\#(try Self.quoted(text))}}}"#
        ))
      _ = try next(server) {
        $0["method"]?.stringValue == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri
      }
      opens.append(seconds() - start)
    }
    var edits: [Double] = []
    let uri = "file:///bench/\(name)-0.json"
    for version in 2..<22 {
      let start = seconds()
      server.send(
        ServerBench.frame(
          #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"text":\#(try Self.quoted(version.isMultiple(of: 2) ? broken : text))}]}}"#
        ))
      let published = try next(server) {
        $0["method"]?.stringValue == "textDocument/publishDiagnostics"
          && $0["params"]?["version"]?.integerValue == Int64(version)
      }
      edits.append(seconds() - start)
      // The misspelled key's diagnostic, and only that, tells the versions apart: a copy of a
      // built-in pack is also told, on every version, that it would replace the built-in topics.
      let found =
        published["params"]?["diagnostics"]?.arrayValue?.filter { $0["code"]?.stringValue == "unknown-key" }.count ?? 0
      guard (found > 0) == version.isMultiple(of: 2) else {
        throw BenchFailure("diagnostics of version \(version) of \(path) are wrong: \(found) unknown-key diagnostics")
      }
      usleep(200_000)
    }
    server.stop()
    // The command-line check of the same file, as a whole command (start, load, check).
    var lints: [Double] = []
    for _ in 0..<10 {
      let lint = Process()
      lint.executableURL = URL(fileURLWithPath: packTool)
      lint.arguments = ["lint", path]
      lint.standardOutput = FileHandle.nullDevice
      lint.standardError = FileHandle.nullDevice
      let start = seconds()
      try lint.run()
      lint.waitUntilExit()
      lints.append(seconds() - start)
      guard lint.terminationStatus == 0 else { throw BenchFailure("biki-pack lint \(path) failed") }
    }
    let open = Spread(opens)
    let edit = Spread(edits)
    let lint = Spread(lints)
    let bytes = text.utf8.count
    return [
      "serve.latency.diagnostics-open.\(name): \(Self.milliseconds(open))  [didOpen to publishDiagnostics, \(path.split(separator: "/").last ?? "") (\(bytes) bytes); 20 opens; biki-pack lint on the file: median \(String(format: "%.1f", lint.median * 1000)) ms as a whole command]",
      "serve.latency.diagnostics-edit.\(name): \(Self.milliseconds(edit))  (target for a small pack: max ≤ 150 ms: \(name == "small" ? (edit.high <= 0.150 ? "met" : "NOT met") : "not set"))  [didChange to publishDiagnostics, the wait before a check (50 ms, or as long as the last check took) included; 20 edits with 200 ms pauses]",
    ]
  }

  /// `biki/read` sent right behind a `biki/startSession` on a plugin that takes 500 ms per
  /// question, against `biki/read` alone: the read must not wait for the question.
  func readWhileASlowQuestionIsMade(seconds: @escaping () -> Double) throws -> String {
    let plugins = NSTemporaryDirectory() + "biki-bench-slow-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: plugins) }
    let compile = Process()
    compile.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    compile.arguments = [
      "cc", "-std=c99", "-O2", "-shared", "-fPIC", "-DSLOW_MS=500", "-I", repository + "/Sources/BikiPluginABI/include",
      repository + "/Tests/BikiPluginsTests/Fixtures/misbehaving.c", "-o", plugins + "/libslow.so",
    ]
    try compile.run()
    compile.waitUntilExit()
    guard compile.terminationStatus == 0 else { throw BenchFailure("could not build the slow test plugin with cc") }
    let server = try ServerBench(executable: executable).started(arguments: ["--plugins", plugins])
    func read(_ id: Int) -> [UInt8] { ServerBench.request(id, "biki/read", #"{"text":"\#(id % 100)本"}"#) }
    var alone: [Double] = []
    for id in 1...200 {
      let start = seconds()
      _ = try next(server.call(read(id)), server)
      alone.append(seconds() - start)
    }
    var during: [Double] = []
    for round in 0..<10 {
      let start = 1000 + round * 10
      server.send(
        ServerBench.request(
          start, "biki/startSession", #"{"topicId":"misbehaving.ok","skill":"kana","mode":{"kind":"infinite"}}"#))
      let sent = seconds()
      server.send(read(start + 1))
      let answer = try next(server) { $0["id"]?.integerValue == Int64(start + 1) }
      during.append(seconds() - sent)
      guard answer["result"]?["reading"] != nil else {
        throw BenchFailure("biki/read gave no reading during the slow question")
      }
      // The start, answered once its question is made, and the session ended.
      let started = try next(server) { $0["id"]?.integerValue == Int64(start) }
      guard started["result"]?["question"] != nil else { throw BenchFailure("the slow plugin's session did not start") }
      _ = try next(
        server.call(ServerBench.request(start + 2, "biki/endSession", #"{"sessionId":"s\#(round + 1)"}"#)), server)
    }
    server.stop()
    let normal = Spread(alone)
    let slow = Spread(during)
    let ratio = slow.median / normal.median
    return
      "serve.latency.read-during-slow-question: \(String(format: "median %.0f µs, max %.0f µs", slow.median * 1e6, slow.high * 1e6)), \(String(format: "%.1f", ratio))× biki/read alone (\(String(format: "%.0f", normal.median * 1e6)) µs)  (target: max < 50 ms, the plugin takes 500 ms: \(slow.high < 0.05 ? "met" : "NOT met"))  [biki/read sent right behind a start on a plugin taking 500 ms per question; 10 rounds]"
  }

  /// The message that answers a request sent alone: it must be a result.
  private func next(_ body: [UInt8], _ server: ServerBench.Server) throws -> JSON {
    try ServerBench.requireResult(body)
    return (try? JSONParser.value(body)) ?? .null
  }
}
