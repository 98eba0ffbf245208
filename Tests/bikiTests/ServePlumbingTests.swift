import BikiSync
import Foundation
import Testing

/// Where `biki serve` meets its own plumbing, through the real binary: a non-blocking stdout
/// read late, a closed stderr, and numbers as every JSON library writes them.
@Suite struct ServePlumbingTests {
  /// A home of the server's own, so no history or pack of the machine's is read.
  static func environment() -> [String: String] {
    let home = NSTemporaryDirectory() + "biki-plumbing-" + UUID().uuidString
    return ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state", "PATH": "/usr/bin:/bin"]
  }

  /// With O_NONBLOCK on its stdout (as some clients and process managers leave it) and a client
  /// that reads two seconds late, every one of 300 answers arrives and the server ends cleanly:
  /// a full pipe is waited on, not taken for a departed client.
  @Test func aNonBlockingStdoutReadLateLosesNothing() throws {
    let process = Process()
    process.executableURL = BikiProcess.executable
    process.arguments = ["serve"]
    process.environment = Self.environment()
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    let writeEnd = stdout.fileHandleForWriting.fileDescriptor
    #expect(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Each topic list is tens of kilobytes: 300 of them fill the pipe many times over.
    var input = ServeRun.initialize
    for id in 1...300 { input += ServeRun.request(id, "biki/topics", "{}") }
    input += ServeRun.shutdownAndExit
    let bytes = input
    Thread {
      stdin.fileHandleForWriting.write(Data(bytes))
      try? stdin.fileHandleForWriting.close()
    }.start()
    let errors = Locked(Data())
    Thread { errors.withLock { $0 = stderr.fileHandleForReading.readDataToEndOfFile() } }.start()
    Thread.sleep(forTimeInterval: 2)
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let messages = try ServeRun.parse(Array(output))
    let answered = Set(messages.compactMap { $0["result"] != nil ? $0["id"] as? Int : nil })
    #expect(
      answered.isSuperset(of: 1...300),
      "\(answered.count) answers; \(String(decoding: errors.withLock { $0 }, as: UTF8.self))")
    #expect(process.terminationStatus == 0)
  }

  /// With stderr closed, what the server would log (here: input ending mid-message) goes nowhere,
  /// and stdout carries nothing but frames.
  @Test func withStderrClosedLogsStayOutOfTheProtocolStream() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", #"exec "$0" serve 2>&-"#, BikiProcess.executable.path]
    process.environment = Self.environment()
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    let input = ServeRun.initialize + Array(#"Content-Length: 40\#r\#n\#r\#n{"jsonrpc":"#.utf8)
    stdin.fileHandleForWriting.write(Data(input))
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(!String(decoding: output, as: UTF8.self).contains("biki serve:"))
    let messages = try ServeRun.parse(Array(output))
    #expect(messages.count == 1 && messages.first?["id"] as? Int == 0, "\(messages)")
    #expect(process.terminationStatus == 1)
  }

  /// A seed is any JSON number that is a whole number from 0 to 2^64−1, however written, and
  /// the same seed written two ways asks the same questions; one out of range or not whole is
  /// refused, naming the field and the range. Counts and limits take 10.0 and 1e1 alike.
  @Test func seedsAndCountsAreWholeNumbersHoweverWritten() throws {
    func generate(_ id: Int, seed: String, count: String = "2") -> [UInt8] {
      ServeRun.request(id, "biki/generate", #"{"topicId":"counters.hon","seed":\#(seed),"count":\#(count)}"#)
    }
    let run = try ServeRun.run(
      ServeRun.initialize + generate(1, seed: "9223372036854775808") + generate(2, seed: "18446744073709551615")
        + generate(3, seed: "5.0") + generate(4, seed: "5") + generate(5, seed: "1e3") + generate(6, seed: "\"1000\"")
        + generate(7, seed: "0.0") + generate(8, seed: "18446744073709551616") + generate(9, seed: "-1")
        + generate(10, seed: "1.5") + generate(11, seed: "4", count: "10.0") + generate(12, seed: "4", count: "1e1")
        + generate(13, seed: "4", count: "2.5") + ServeRun.shutdownAndExit)
    func questions(_ id: Int) -> [[String: Any]]? { run.result(id)?["questions"] as? [[String: Any]] }
    func displays(_ id: Int) -> [String] { questions(id)?.compactMap { $0["display"] as? String } ?? [] }
    for id in [1, 2, 3, 5, 7] {
      #expect(questions(id)?.count == 2, "request \(id): \(String(describing: run.response(id)))")
    }
    #expect(displays(3) == displays(4) && !displays(3).isEmpty)
    #expect(displays(5) == displays(6) && !displays(5).isEmpty)
    #expect(questions(11)?.count == 10 && questions(12)?.count == 10)
    func message(_ id: Int) -> String {
      (run.response(id)?["error"] as? [String: Any])?["message"] as? String ?? "answered"
    }
    let range = "\"seed\" must be a whole number from 0 to 18446744073709551615 (2^64−1)"
    #expect(run.errorCode(8) == -32602 && message(8) == range + ", not a number of 2^64 or more")
    #expect(message(9) == range + ", not -1")
    #expect(message(10) == range + ", not 1.5")
    #expect(run.errorCode(13) == -32602 && message(13).hasPrefix("\"count\" must be a whole number from 1 to 1000"))
    #expect(message(13).hasSuffix("not 2.5"))
    #expect(run.status == 0)
  }
}
