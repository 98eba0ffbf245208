import Foundation
import Testing

/// `biki serve` spoken to in raw framed bytes, as an editor speaks to it.
struct ServeRun {
  var status: Int32
  var terminatedBySignal: Bool
  /// Each message the server sent, in order.
  var messages: [[String: Any]]
  var standardError: String

  func response(_ id: Int) -> [String: Any]? { messages.first { ($0["id"] as? Int) == id && $0["method"] == nil } }
  func result(_ id: Int) -> [String: Any]? { response(id)?["result"] as? [String: Any] }
  func errorCode(_ id: Int) -> Int? { (response(id)?["error"] as? [String: Any])?["code"] as? Int }
  var nullIDErrors: [Int] {
    messages.filter { $0["id"] is NSNull }.compactMap { ($0["error"] as? [String: Any])?["code"] as? Int }
  }
  func notifications(_ method: String) -> [[String: Any]] {
    messages.filter { $0["method"] as? String == method }.compactMap { $0["params"] as? [String: Any] }
  }

  static func frame(_ body: [UInt8]) -> [UInt8] { Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body }
  static func frame(_ json: String) -> [UInt8] { frame(Array(json.utf8)) }
  static func request(_ id: Int, _ method: String, _ params: String? = nil) -> [UInt8] {
    frame(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)""# + (params.map { #","params":\#($0)"# } ?? "") + "}")
  }
  static func notification(_ method: String, _ params: String = "{}") -> [UInt8] {
    frame(#"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#)
  }
  static let initialize =
    request(0, "initialize", #"{"processId":null,"capabilities":{}}"#) + notification("initialized")
  static let shutdownAndExit = request(999, "shutdown") + notification("exit")

  /// Starts `biki serve`, writes `input`, closes stdin, and reads everything it sends back.
  static func run(
    _ input: [UInt8], arguments: [String] = [], home: String? = nil, closeOutputEarly: Bool = false,
    extraEnvironment: [String: String] = [:]
  ) throws -> ServeRun {
    let process = Process()
    process.executableURL = BikiProcess.executable
    process.arguments = ["serve"] + arguments
    let home = home ?? NSTemporaryDirectory() + "biki-serve-" + UUID().uuidString
    process.environment = [
      "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state", "PATH": "/usr/bin:/bin",
    ]
    .merging(extraEnvironment) { $1 }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    if closeOutputEarly { try stdout.fileHandleForReading.close() }
    let writer = Thread {
      stdin.fileHandleForWriting.write(Data(input))
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let output = closeOutputEarly ? Data() : stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ServeRun(
      status: process.terminationStatus, terminatedBySignal: process.terminationReason == .uncaughtSignal,
      messages: try parse(Array(output)), standardError: String(decoding: errors, as: UTF8.self))
  }

  /// Splits the server's output into messages, checking each frame is exactly `Content-Length`
  /// and a body of that many bytes.
  static func parse(_ bytes: [UInt8]) throws -> [[String: Any]] {
    var messages: [[String: Any]] = []
    var rest = bytes[...]
    while !rest.isEmpty {
      let prefix = Array("Content-Length: ".utf8)
      try #require(rest.starts(with: prefix), "a frame must start with Content-Length")
      rest = rest.dropFirst(prefix.count)
      let digits = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }
      let length = try #require(Int(String(decoding: digits, as: UTF8.self)))
      rest = rest.dropFirst(digits.count)
      try #require(rest.starts(with: Array("\r\n\r\n".utf8)), "only Content-Length is sent")
      rest = rest.dropFirst(4)
      try #require(rest.count >= length)
      let body = Data(rest.prefix(length))
      rest = rest.dropFirst(length)
      messages.append(try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any]))
    }
    return messages
  }
}

/// `biki serve` in a conversation: send, wait for what comes back, send more; for exchanges
/// whose order matters (a check's diagnostics before the document is closed).
final class ServeConversation {
  let process = Process()
  private let input = Pipe(), output = Pipe()
  private var buffer: [UInt8] = []
  private(set) var received: [[String: Any]] = []

  init(home: String = NSTemporaryDirectory() + "biki-serve-" + UUID().uuidString) throws {
    process.executableURL = BikiProcess.executable
    process.arguments = ["serve"]
    process.environment = [
      "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state", "PATH": "/usr/bin:/bin",
    ]
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  func send(_ bytes: [UInt8]) { input.fileHandleForWriting.write(Data(bytes)) }

  /// Reads until a message satisfies `matches` (which is returned) or the server closes.
  func wait(for matches: ([String: Any]) -> Bool) throws -> [String: Any]? {
    while true {
      while let frame = nextFrame() {
        let message = try #require(try JSONSerialization.jsonObject(with: Data(frame)) as? [String: Any])
        received.append(message)
        if matches(message) { return message }
      }
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { return nil }
      buffer += data
    }
  }

  /// Ends the conversation; returns the exit status.
  func finish() throws -> Int32 {
    send(ServeRun.shutdownAndExit)
    try? input.fileHandleForWriting.close()
    _ = try wait { _ in false }
    process.waitUntilExit()
    return process.terminationStatus
  }

  private func nextFrame() -> [UInt8]? {
    let separator = Array("\r\n\r\n".utf8)
    guard let end = (0..<max(0, buffer.count - 3)).first(where: { Array(buffer[$0..<$0 + 4]) == separator }) else {
      return nil
    }
    let header = String(decoding: buffer[..<end], as: UTF8.self)
    guard let length = Int(header.replacingOccurrences(of: "Content-Length: ", with: "")),
      buffer.count >= end + 4 + length
    else { return nil }
    defer { buffer.removeFirst(end + 4 + length) }
    return Array(buffer[(end + 4)..<(end + 4 + length)])
  }
}

@Suite(.serialized) struct BikiServeTests {
  @Test func theLifecycleAndEveryMethod() throws {
    let run = try ServeRun.run(
      ServeRun.initialize
        + ServeRun.request(1, "biki/topics")
        + ServeRun.request(
          2, "biki/startSession", #"{"topicId":"counters.hon","seed":5,"mode":{"kind":"questionLimit","limit":2}}"#)
        + ServeRun.request(3, "biki/answer", #"{"sessionId":"s1","answer":"0"}"#)
        + ServeRun.request(4, "biki/skip", #"{"sessionId":"s1"}"#)
        + ServeRun.request(5, "biki/endSession", #"{"sessionId":"s1"}"#)
        + ServeRun.request(6, "biki/generate", #"{"topicId":"counters.hon","seed":5,"count":2}"#)
        + ServeRun.request(7, "biki/read", #"{"text":"20日","as":"date"}"#)
        + ServeRun.request(8, "biki/stats")
        + ServeRun.request(9, "biki/reloadPacks")
        + ServeRun.shutdownAndExit)
    #expect(run.status == 0)
    #expect(!run.terminatedBySignal)
    let initialized = try #require(run.result(0))
    #expect((initialized["serverInfo"] as? [String: Any])?["name"] as? String == "biki")
    #expect(initialized["capabilities"] is [String: Any])
    #expect(((run.result(1)?["topics"] as? [Any])?.count ?? 0) >= 60)
    let question = try #require(run.result(2)?["question"] as? [String: Any])
    #expect((question["prompt"] as? String)?.hasSuffix("本") == true)
    #expect(run.result(3)?["verdict"] as? String == "incorrect")
    #expect(run.result(4)?["expected"] != nil)
    #expect((run.result(5)?["summary"] as? [String: Any])?["skipped"] as? Int == 1)
    let generated = try #require(run.result(6)?["questions"] as? [[String: Any]])
    // The session and generate agree on the first question: the seed replays it.
    #expect(generated.first?["kanji"] as? String == question["prompt"] as? String)
    #expect(run.result(7)?["reading"] as? String == "はつか")
    #expect((run.result(8)?["total"] as? [String: Any])?["answers"] as? Int == 1)
    #expect(run.result(9)?["topicCount"] as? Int == (run.result(1)?["topics"] as? [Any])?.count)
    #expect(run.response(999)?["result"] is NSNull)
  }

  @Test func everyBaseProtocolError() throws {
    let run = try ServeRun.run(
      ServeRun.request(1, "biki/topics")
        + ServeRun.initialize
        + ServeRun.frame("{not json")
        + ServeRun.frame(#"[{"jsonrpc":"2.0","id":2,"method":"biki/topics"}]"#)
        + ServeRun.request(3, "biki/nothing")
        + ServeRun.request(4, "biki/startSession", #"{"topicId":"counters.hon","mode":{"kind":"timeLimit"}}"#)
        + ServeRun.request(5, "biki/generate", #"{"topicId":"counters.hon","seed":1}"#)
        + ServeRun.notification("$/cancelRequest", #"{"id":5}"#)
        + ServeRun.notification("$/somethingNew")
        + ServeRun.notification("biki/notARealNotification")
        + ServeRun.frame([0x7B, 0xFF, 0xFE, 0x7D])
        + ServeRun.request(6, "initialize", "{}")
        + ServeRun.request(7, "shutdown")
        + ServeRun.request(8, "biki/topics")
        + ServeRun.notification("exit"))
    #expect(run.status == 0)
    #expect(run.errorCode(1) == -32002)
    #expect(run.errorCode(3) == -32601)
    #expect(run.errorCode(4) == -32602)
    #expect(run.errorCode(5) == -32800)
    #expect(run.errorCode(6) == -32600)
    #expect(run.errorCode(8) == -32600)
    #expect(run.nullIDErrors == [-32700, -32600, -32700])
    // Requests are answered, notifications never: initialize, 1, 3–8 and the three bad bodies.
    #expect(run.messages.filter { $0["id"] != nil }.count == 11)
  }

  @Test func malformedHeadersAreReportedAndTheNextMessageServed() throws {
    let run = try ServeRun.run(
      ServeRun.initialize
        + Array("Content-Length: twelve\r\n\r\n".utf8)
        + Array("X-Nonsense\r\n\r\n".utf8)
        + Array("content-length: 47\r\ncontent-type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n".utf8)
        + Array(#"{"jsonrpc":"2.0","id":1,"method":"biki/topics"}"#.utf8)
        + ServeRun.shutdownAndExit)
    #expect(run.status == 0)
    // One answer for the stretch of junk: the server looks for the next Content-Length after
    // the first bad block, and the nonsense block is skipped on the way.
    #expect(run.nullIDErrors == [-32600])
    #expect(run.result(1)?["topics"] != nil)
  }

  @Test func anOversizedMessageIsSkippedWithoutBeingKept() throws {
    let size = 17 << 20
    let run = try ServeRun.run(
      ServeRun.initialize + Array("Content-Length: \(size)\r\n\r\n".utf8) + [UInt8](repeating: 0x20, count: size)
        + ServeRun.request(1, "biki/read", #"{"text":"8本"}"#) + ServeRun.shutdownAndExit)
    #expect(run.status == 0)
    #expect(run.nullIDErrors == [-32600])
    #expect(run.result(1)?["reading"] as? String == "はっぽん")
  }

  @Test func aClientThatVanishesMidMessageEndsTheServerCleanly() throws {
    let body = Array(#"{"jsonrpc":"2.0","id":1,"method":"biki/topics"}"#.utf8)
    let run = try ServeRun.run(
      ServeRun.initialize + Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body.prefix(10))
    #expect(run.status == 1)
    #expect(!run.terminatedBySignal)
    #expect(run.standardError.contains("in the middle of a message"))
    let declaredOnly = try ServeRun.run(ServeRun.initialize + Array("Content-Length: 99999999\r\n\r\n".utf8))
    #expect(declaredOnly.status == 1)
    #expect(declaredOnly.nullIDErrors == [-32600])
  }

  @Test func aClientThatStopsReadingDoesNotKillTheServerWithSIGPIPE() throws {
    let run = try ServeRun.run(ServeRun.initialize + ServeRun.request(1, "biki/topics"), closeOutputEarly: true)
    #expect(!run.terminatedBySignal)
    #expect(run.status == 1)
  }

  @Test func endOfInputWithoutExitIsOneAndAfterShutdownZero() throws {
    #expect(try ServeRun.run(ServeRun.initialize).status == 1)
    #expect(try ServeRun.run(ServeRun.initialize + ServeRun.request(1, "shutdown")).status == 0)
    #expect(try ServeRun.run(ServeRun.initialize + ServeRun.notification("exit")).status == 1)
  }

  @Test func aBrokenPackShowsItsDiagnosticAtTheRightUTF16Column() throws {
    // 日本 are one UTF-16 unit each and 🎌 two, so the stray comma is at character 31 (code point 30).
    let text = "{\n  \"title\": \"日本🎌\", \"format\": 1,, \"id\": \"x\", \"topics\": []\n}"
    let escaped = String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst()
      .dropLast()
    let server = try ServeConversation()
    server.send(
      ServeRun.initialize
        + ServeRun.notification(
          "textDocument/didOpen",
          #"{"textDocument":{"uri":"file:///tmp/broken.json","languageId":"json","version":1,"text":\#(escaped)}}"#))
    let published = try #require(
      try server.wait { $0["method"] as? String == "textDocument/publishDiagnostics" }?["params"] as? [String: Any])
    let diagnostic = try #require((published["diagnostics"] as? [[String: Any]])?.first)
    let start = (diagnostic["range"] as? [String: Any])?["start"] as? [String: Int]
    #expect(start == ["line": 1, "character": 31])
    #expect(diagnostic["code"] as? String == "json-syntax")
    #expect(diagnostic["source"] as? String == "biki")
    server.send(ServeRun.notification("textDocument/didClose", #"{"textDocument":{"uri":"file:///tmp/broken.json"}}"#))
    let cleared =
      try server.wait { $0["method"] as? String == "textDocument/publishDiagnostics" }?["params"] as? [String: Any]
    #expect((cleared?["diagnostics"] as? [Any])?.isEmpty == true)
    #expect(try server.finish() == 0)
  }

  @Test func requestsAreAnsweredWhileALargePackIsChecked() throws {
    // 2,000 topics of a million questions each: a check that takes a while, on its own thread.
    let topic =
      #"{ "id": "t%d", "title": "T", "description": "d", "category": "number", "skills": ["reading"], "variables": { "n": { "range": { "min": 0, "max": 1000000 } } }, "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } } }"#
    let topics = (0..<2000).map { String(format: topic, $0) }.joined(separator: ",")
    let pack = #"{ "format": 1, "id": "big", "title": "B", "version": "1", "topics": [\#(topics)] }"#
    let escaped = String(decoding: try JSONSerialization.data(withJSONObject: [pack]), as: UTF8.self).dropFirst()
      .dropLast()
    let server = try ServeConversation()
    server.send(
      ServeRun.initialize
        + ServeRun.notification(
          "textDocument/didOpen", #"{"textDocument":{"uri":"file:///tmp/big.json","version":1,"text":\#(escaped)}}"#)
        + ServeRun.request(5, "biki/topics"))
    // The topics come back before the document's diagnostics: the check did not hold them up.
    let first = try server.wait {
      $0["id"] as? Int == 5 || $0["method"] as? String == "textDocument/publishDiagnostics"
    }
    #expect(first?["id"] as? Int == 5)
    let published = try server.wait { $0["method"] as? String == "textDocument/publishDiagnostics" }
    #expect((published?["params"] as? [String: Any])?["version"] as? Int == 1)
    #expect(try server.finish() == 0)
  }

  @Test func answersAreInTheHistoryAndBikiStatsReadsThem() throws {
    let home = NSTemporaryDirectory() + "biki-serve-" + UUID().uuidString
    let run = try ServeRun.run(
      ServeRun.initialize
        + ServeRun.request(1, "biki/startSession", #"{"topicId":"counters.hon","skill":"kana","seed":11}"#)
        + ServeRun.request(2, "biki/answer", #"{"sessionId":"s1","answer":"いっぽん"}"#)
        + ServeRun.request(3, "biki/skip", #"{"sessionId":"s1"}"#)
        + ServeRun.shutdownAndExit, home: home)
    #expect(run.status == 0)
    let history = try String(contentsOfFile: home + "/state/biki/history.jsonl", encoding: .utf8)
    // The session's start, the answer and the skip; the end when the session ends.
    let lines = history.split(separator: "\n")
    #expect(lines.filter { !$0.contains(#""event""#) }.count == 2)
    #expect(lines.first?.contains(#""event":"sessionStarted""#) == true)
    #expect(history.contains(#""given":"いっぽん""#))
    let stats = try BikiProcess.run(["stats"], environment: ["HOME": home, "XDG_STATE_HOME": home + "/state"])
    #expect(stats.status == 0)
    // One right answer and one skip: two tries.
    #expect(stats.standardOutput.contains("counters.hon\t2\t1\t0\t1\t"), "\(stats.standardOutput)")
    #expect(stats.standardOutput.contains("Missed most often"))
  }

  @Test func aPluginPrintingToStandardOutputCannotCorruptTheStream() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libnoisy.so", defines: ["NOISY"])
    let run = try ServeRun.run(
      ServeRun.initialize + ServeRun.request(1, "biki/generate", #"{"topicId":"misbehaving.ok","seed":1,"count":3}"#)
        + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins, "--in-process"])
    // Every frame parsed (ServeRun.run checks them), and the noise went to stderr.
    #expect(run.status == 0)
    #expect((run.result(1)?["questions"] as? [Any])?.count == 3)
    #expect(run.standardError.contains("noise from a plugin"))
  }

  @Test func aPluginThatCrashesCostsItsRequestAndNothingElse() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libcrash.so", defines: ["SEGFAULT"])
    let run = try ServeRun.run(
      ServeRun.initialize
        + ServeRun.request(1, "biki/startSession", #"{"topicId":"misbehaving.ok","skill":"kana"}"#)
        + ServeRun.request(2, "biki/generate", #"{"topicId":"misbehaving.ok","seed":1}"#)
        + ServeRun.request(3, "biki/read", #"{"text":"3本"}"#)
        + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins])
    #expect(run.status == 0)
    #expect(run.errorCode(1) == -32803)
    #expect(run.errorCode(2) == -32803)
    #expect(run.result(3)?["reading"] as? String == "さんぼん")
  }

  @Test func aSessionWithAPluginCrashingOnEveryTenthSeedRunsItsThirtyQuestions() throws {
    let plugins = try PluginIntegrationTests.pluginDirectory(
      "Tests/BikiPluginsTests/Fixtures/misbehaving.c", name: "libtenth.so", defines: ["CRASH_EVERY_TENTH"])
    let skips = (2..<32).map { ServeRun.request($0, "biki/skip", #"{"sessionId":"s1"}"#) }.reduce([], +)
    let run = try ServeRun.run(
      ServeRun.initialize
        + ServeRun.request(
          1, "biki/startSession",
          #"{"topicId":"misbehaving.ok","skill":"kana","seed":5,"mode":{"kind":"questionLimit","limit":30}}"#)
        + skips + ServeRun.shutdownAndExit,
      arguments: ["--plugins", plugins])
    #expect(run.status == 0)
    let last = try #require(run.result(31))
    #expect(last["finished"] as? Bool == true, "\(last)")
    #expect((last["summary"] as? [String: Any])?["questions"] as? Int == 30, "\(last)")
    #expect((last["summary"] as? [String: Any])?["endReason"] as? String == "questionLimitReached", "\(last)")
  }
}
