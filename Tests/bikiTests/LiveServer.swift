import BikiSync
import Foundation
import Testing

/// `biki serve` as an editor keeps it: one long-running process written to when the test
/// decides, with a thread that reads every message it sends and stamps it with the real
/// clock's time of arrival. Nothing is simulated: the clock, the pipes, the plugins are real.
final class LiveServer: @unchecked Sendable {
  struct Received {
    /// Seconds on `LiveServer.now()`.
    var at: Double
    var message: [String: Any]
  }

  let process = Process()
  private let input: FileHandle
  private let condition = NSCondition()
  private var received: [Received] = []
  private var malformedOutput: String?
  private var outputEnded = false
  private let errors = Pipe()
  /// The last few kilobytes the server wrote to stderr, for a failure's report.
  private let errorTail = Locked("")
  /// What the server has written to stderr lately (its last 4 KB).
  var standardErrorTail: String { errorTail.withLock { $0 } }

  /// Monotonic seconds.
  static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  /// The server's own HOME, made for it: documents the tests open are named inside it.
  let home: String

  /// `environment` adds to (or replaces) the variables the server is given.
  init(arguments: [String] = [], home: String? = nil, environment: [String: String] = [:]) throws {
    let home = home ?? NSTemporaryDirectory() + "biki-live-" + UUID().uuidString
    self.home = home
    process.executableURL = BikiProcess.executable
    process.arguments = ["serve"] + arguments
    process.environment = [
      "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state", "PATH": "/usr/bin:/bin",
    ].merging(environment) { $1 }
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = errors
    try process.run()
    input = stdin.fileHandleForWriting
    let output = stdout.fileHandleForReading
    Thread { [self] in readAll(output) }.start()
    // Drained as it comes, so a chatty server never blocks on a full pipe.
    let errorOutput = errors.fileHandleForReading
    let errorTail = errorTail
    Thread {
      while true {
        let chunk = errorOutput.availableData
        if chunk.isEmpty { break }
        errorTail.withLock { $0 = String(($0 + String(decoding: chunk, as: UTF8.self)).suffix(4096)) }
      }
    }.start()
  }

  private func readAll(_ output: FileHandle) {
    var buffer: [UInt8] = []
    while true {
      let chunk = output.availableData
      if chunk.isEmpty { break }
      buffer += chunk
      while let (message, used) = Self.nextFrame(buffer) {
        buffer.removeFirst(used)
        condition.lock()
        if let message {
          received.append(Received(at: Self.now(), message: message))
        } else {
          malformedOutput = String(decoding: buffer.prefix(200), as: UTF8.self)
        }
        condition.broadcast()
        condition.unlock()
      }
    }
    condition.lock()
    outputEnded = true
    condition.broadcast()
    condition.unlock()
  }

  /// The first whole frame in `bytes` (nil inside when it is not a JSON object) and its size.
  private static func nextFrame(_ bytes: [UInt8]) -> ([String: Any]?, Int)? {
    let separator = Array("\r\n\r\n".utf8)
    guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
    let header = String(decoding: bytes[..<end], as: UTF8.self)
    guard header.hasPrefix("Content-Length: "), let length = Int(header.dropFirst(16)) else {
      return (nil, bytes.count)
    }
    let start = end + 4
    guard bytes.count - start >= length else { return nil }
    let body = Data(bytes[start..<(start + length)])
    return ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any], start + length)
  }

  func send(_ bytes: [UInt8]) { input.write(Data(bytes)) }

  /// Closes the server's stdin, as a client that leaves without a word.
  func closeInput() throws { try input.close() }

  /// Sends a request; returns when it was sent.
  @discardableResult
  func request(_ id: Int, _ method: String, _ params: String? = nil) -> Double {
    let sent = Self.now()
    send(ServeRun.request(id, method, params))
    return sent
  }

  @discardableResult
  func notify(_ method: String, _ params: String) -> Double {
    let sent = Self.now()
    send(ServeRun.notification(method, params))
    return sent
  }

  func initialize() throws {
    send(ServeRun.initialize)
    try #require(waitForResponse(0, within: 30) != nil, "biki serve did not answer initialize")
  }

  /// The first message since `index` (by arrival) that matches, waiting at most `within` seconds.
  func waitFor(within seconds: Double, after index: Int = 0, _ matches: ([String: Any]) -> Bool) -> Received? {
    let deadline = Date(timeIntervalSinceNow: seconds)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let found = received[min(index, received.count)...].first(where: { matches($0.message) }) { return found }
      if outputEnded || !condition.wait(until: deadline) {
        return received[min(index, received.count)...].first { matches($0.message) }
      }
    }
  }

  /// Waits until the server has loaded its packs and plugins (which it does after answering
  /// `initialize`): a request waits for them, so its response says they are there.
  func waitUntilLoaded() throws {
    request(900_000_001, "biki/topics")
    try #require(waitForResponse(900_000_001, within: 30) != nil, "biki serve did not answer biki/topics")
  }

  func waitForResponse(_ id: Int, within seconds: Double) -> Received? {
    waitFor(within: seconds) { ($0["id"] as? Int) == id && $0["method"] == nil }
  }

  /// How many messages have arrived so far.
  var count: Int {
    condition.lock()
    defer { condition.unlock() }
    return received.count
  }

  var messages: [Received] {
    condition.lock()
    defer { condition.unlock() }
    return received
  }

  /// Frames that were not LSP frames of JSON objects; nil when every one was.
  var badOutput: String? {
    condition.lock()
    defer { condition.unlock() }
    return malformedOutput
  }

  /// The server's resident memory, in KiB, from /proc.
  var residentKiB: Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else {
      return nil
    }
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
  }

  /// Shuts the server down as a client does; returns its exit status (nil if it had to be killed).
  func finish(within seconds: Double = 30) -> Int32? {
    send(ServeRun.shutdownAndExit)
    try? input.close()
    let deadline = Date(timeIntervalSinceNow: seconds)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    guard !process.isRunning else {
      Issue.record(
        "biki serve did not exit within \(Int(seconds)) s of shutdown and exit; \(threadStates)\nstderr: \(errorTail.withLock { $0 })\n\(backtrace)"
      )
      process.terminate()
      return nil
    }
    return process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
  }

  /// Every thread's stack, from gdb when it is installed: for a report when the server hangs.
  var backtrace: String {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { return "" }
    let gdb = Process()
    gdb.executableURL = URL(fileURLWithPath: "/usr/bin/gdb")
    gdb.arguments = ["-batch", "-p", "\(process.processIdentifier)", "-ex", "thread apply all bt 12"]
    let output = Pipe()
    gdb.standardOutput = output
    gdb.standardError = FileHandle.nullDevice
    guard (try? gdb.run()) != nil else { return "" }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    gdb.waitUntilExit()
    return text.split(separator: "\n").filter { $0.hasPrefix("#") || $0.hasPrefix("Thread") }.prefix(40).joined(
      separator: "\n")
  }

  /// What each of the server's threads is waiting in, from /proc: for a report when it hangs.
  var threadStates: String {
    let tasks = "/proc/\(process.processIdentifier)/task"
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    return threads.sorted().map { thread in
      let name =
        (try? String(contentsOfFile: "\(tasks)/\(thread)/comm", encoding: .utf8))?.trimmingCharacters(
          in: .whitespacesAndNewlines) ?? "?"
      let wchan = (try? String(contentsOfFile: "\(tasks)/\(thread)/wchan", encoding: .utf8)) ?? "?"
      let stack =
        (try? String(contentsOfFile: "\(tasks)/\(thread)/stack", encoding: .utf8))?.split(separator: "\n").prefix(3)
        .joined(separator: " < ") ?? ""
      return "\(thread) \(name): \(wchan) \(stack)"
    }.joined(separator: "; ")
  }

  deinit {
    if process.isRunning { process.terminate() }
  }
}

extension [String: Any] {
  var result: [String: Any]? { self["result"] as? [String: Any] }
  var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
  var params: [String: Any]? { self["params"] as? [String: Any] }
}
