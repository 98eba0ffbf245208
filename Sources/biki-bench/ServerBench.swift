import BikiJSON
import BikiProtocol
import Foundation

/// A benchmark whose operation failed: it stops the run rather than reporting a figure.
struct BenchFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// `biki serve` measured over real pipes, from a client's side: round trips, pipelined
/// throughput, cold start to the `initialize` response, and memory after many sessions.
struct ServerBench {
  let executable: String

  /// A running `biki serve` with its pipes.
  final class Server {
    let process = Process()
    let input: Int32
    let output: Int32
    private var framer = MessageFramer()
    private var ready: [[UInt8]] = []
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let stdin = Pipe(), stdout = Pipe()
    /// The state directory made for this server, removed when it stops.
    private let ownedState: String?

    init(executable: String, arguments: [String] = [], stateHome: String? = nil) throws {
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = ["serve"] + arguments
      let state = stateHome ?? NSTemporaryDirectory() + "biki-bench-" + UUID().uuidString
      ownedState = stateHome == nil ? state : nil
      var environment = ProcessInfo.processInfo.environment
      environment["XDG_STATE_HOME"] = state
      process.environment = environment
      process.standardInput = stdin
      process.standardOutput = stdout
      input = stdin.fileHandleForWriting.fileDescriptor
      output = stdout.fileHandleForReading.fileDescriptor
      try process.run()
    }

    func send(_ bytes: [UInt8]) { Server.send(bytes, to: input) }

    static func send(_ bytes: [UInt8], to input: Int32) {
      bytes.withUnsafeBytes { raw in
        var sent = 0
        while sent < raw.count {
          let count = write(input, raw.baseAddress! + sent, raw.count - sent)
          guard count > 0 else { fatalError("biki serve stopped reading") }
          sent += count
        }
      }
    }

    /// The next message the server sends.
    func receive() -> [UInt8] {
      while ready.isEmpty {
        let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        guard count > 0 else { fatalError("biki serve closed its output") }
        for case .message(let body) in framer.feed(buffer[..<count]) { ready.append(body) }
      }
      return ready.removeFirst()
    }

    func call(_ frame: [UInt8]) -> [UInt8] {
      send(frame)
      return receive()
    }

    /// The next message, which must be a result: an error stops the benchmark instead of
    /// counting as a fast answer.
    func receiveResult() throws -> [UInt8] {
      let body = receive()
      try ServerBench.requireResult(body)
      return body
    }

    var residentKilobytes: Int { kilobytes("VmRSS") }
    /// The most the server has held resident so far.
    var peakKilobytes: Int { kilobytes("VmHWM") }

    /// A figure in kB of the server's /proc status, by its name.
    private func kilobytes(_ field: String) -> Int {
      let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func stop() {
      _ = call(ServerBench.request(1_000_000_000, "shutdown", nil))
      send(ServerBench.frame(#"{"jsonrpc":"2.0","method":"exit"}"#))
      process.waitUntilExit()
      if let ownedState { try? FileManager.default.removeItem(atPath: ownedState) }
    }
  }

  static func requireResult(_ body: [UInt8]) throws {
    guard let message = try? JSONParser.value(body), message["result"] != nil else {
      throw BenchFailure(
        "biki serve answered with an error, so no figure is given: \(String(decoding: body.prefix(300), as: UTF8.self))"
      )
    }
  }

  static func frame(_ json: String) -> [UInt8] { MessageFramer.frame(Array(json.utf8)) }
  static func request(_ id: Int, _ method: String, _ params: String?) -> [UInt8] {
    frame(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)""# + (params.map { #","params":\#($0)"# } ?? "") + "}")
  }
  static let initialize = request(0, "initialize", #"{"processId":null,"capabilities":{}}"#)
  static func generate(_ id: Int) -> [UInt8] {
    request(id, "biki/generate", #"{"topicId":"numbers.beginner","seed":\#(id),"count":1}"#)
  }

  func started(arguments: [String] = []) throws -> Server {
    let server = try Server(executable: executable, arguments: arguments)
    _ = server.call(Self.initialize)
    server.send(Self.frame(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#))
    // The packs and plugins load after `initialize` is answered; what is timed starts once they
    // are there (a request waits for them).
    try Self.requireResult(server.call(Self.request(900_000_001, "biki/topics", nil)))
    return server
  }

  func roundTrips(_ server: Server, seconds: () -> Double) throws -> (p50: Double, p99: Double) {
    for id in 1...2_000 { try Self.requireResult(server.call(Self.generate(id))) }
    var trips: [Double] = []
    trips.reserveCapacity(20_000)
    for id in 0..<20_000 {
      let frame = Self.generate(id)
      let start = seconds()
      let answer = server.call(frame)
      trips.append(seconds() - start)
      // Checked after the clock stops, so the check is not timed.
      try Self.requireResult(answer)
    }
    trips.sort()
    return (trips[trips.count / 2], trips[trips.count * 99 / 100])
  }

  /// Questions a session serves per second, `biki/skip` after `biki/skip` (each answered with
  /// the next question), sent in flights of 50 as an editor driving many sessions would:
  /// the rate a session's next question is made at, for a topic from a pack or a plugin.
  func sessionQuestions(_ server: Server, topic: String, count: Int, seconds: () -> Double) throws -> Double {
    try sessionRates(server, topic: topic, count: count, window: count, seconds: seconds)[0]
  }

  /// A long session's next questions, skip after skip: the rate of its first `window` and of
  /// its last, which must be alike (a step must not cost more for the questions asked before).
  func longSession(_ server: Server, topic: String, count: Int, window: Int, seconds: () -> Double) throws -> (
    first: Double, last: Double
  ) {
    let rates = try sessionRates(server, topic: topic, count: count, window: window, seconds: seconds)
    return (rates.first ?? 0, rates.last ?? 0)
  }

  /// The rate of each `window` of a session's `count` skips, in order.
  private func sessionRates(_ server: Server, topic: String, count: Int, window: Int, seconds: () -> Double) throws
    -> [Double]
  {
    let started = server.call(
      Self.request(
        1, "biki/startSession", #"{"topicId":"\#(topic)","mode":{"kind":"infinite"},"seed":7,"skill":"kana"}"#))
    try Self.requireResult(started)
    guard let id = (try? JSONParser.value(started))?["result"]?["sessionId"]?.stringValue else {
      throw BenchFailure("biki/startSession gave no sessionId: \(String(decoding: started.prefix(300), as: UTF8.self))")
    }
    // Below the 64 requests a session lets wait for its next question.
    let flight = 50
    // Each skip has its own id: a skip waiting for a plugin's question holds its id until answered.
    let batches = (0..<(count / flight)).map { batch in
      Array(
        (0..<flight).map { Self.request(10 + batch * flight + $0, "biki/skip", #"{"sessionId":"\#(id)"}"#) }.joined())
    }
    var rates: [Double] = []
    let size = max(flight, window / flight * flight)
    var start = seconds()
    var (done, windowStart) = (0, 0)
    for batch in batches {
      server.send(batch)
      for _ in 0..<flight {
        let body = try server.receiveResult()
        // Every skip must bring a question: a session that failed to make one would be fast.
        guard body.count > 40, String(decoding: body, as: UTF8.self).contains(#""question":"#) else {
          throw BenchFailure(
            "a skip on \(topic) brought no question: \(String(decoding: body.prefix(300), as: UTF8.self))")
        }
      }
      done += flight
      if done - windowStart == size || done == batches.count * flight {
        let now = seconds()
        rates.append(Double(done - windowStart) / (now - start))
        (start, windowStart) = (now, done)
      }
    }
    _ = server.call(Self.request(5, "biki/endSession", #"{"sessionId":"\#(id)"}"#))
    return rates
  }

  /// Round trips while a large pack document is being checked: the check runs on its own
  /// thread, so requests should cost about what they cost without it.
  func duringCheck(_ server: Server, normal: Double, seconds: () -> Double) throws -> (ratio: Double, line: String) {
    let topic =
      #"{ "id": "t%d", "title": "T", "description": "d", "category": "number", "skills": ["reading"], "variables": { "n": { "range": { "min": 0, "max": 1000000000 } } }, "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } } }"#
    let pack =
      #"{ "format": 1, "id": "big", "title": "B", "version": "1", "topics": ["#
      + (0..<2000).map { String(format: topic, $0) }.joined(separator: ",") + "] }"
    let text = String(decoding: try JSONSerialization.data(withJSONObject: [pack]), as: UTF8.self).dropFirst()
      .dropLast()
    server.send(
      Self.frame(
        #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///bench/big.json","version":1,"text":\#(text)}}}"#
      ))
    // The first answer waits for the 300 KB document to be read and stored; the rest are sent
    // while its check runs, until its diagnostics arrive.
    var trips: [Double] = []
    var checked = false
    var id = 0
    while !checked {
      id += 1
      let start = seconds()
      server.send(Self.generate(id))
      var answered = false
      while !answered {
        let body = String(decoding: server.receive(), as: UTF8.self)
        if body.contains("textDocument/publishDiagnostics") {
          checked = true
        } else if body.contains("\"error\"") {
          throw BenchFailure("biki/generate failed during the check: \(body.prefix(200))")
        } else {
          answered = true
        }
      }
      trips.append(seconds() - start)
    }
    guard trips.count > 2 else { throw BenchFailure("the check finished before any request was sent during it") }
    let during = Array(trips.dropFirst()).sorted()
    let p50 = during[during.count / 2]
    let ratio = p50 / normal
    return (
      ratio,
      "serve.during-check: p50 \(String(format: "%.1f", p50 * 1e6)) µs, max \(String(format: "%.1f", during[during.count - 1] * 1e6)) µs, first \(String(format: "%.1f", trips[0] * 1e3)) ms; \(String(format: "%.1f", ratio))× the p50 without a check  (target ≤ 5×: \(ratio <= 5 ? "met" : "NOT met"))  [biki/generate one at a time while a 2,000-topic pack is checked; \(during.count) requests]"
    )
  }

  /// A CPU affinity mask, as the kernel takes it (1,024 CPUs).
  typealias Affinity = [UInt64]
  private typealias AffinityCall = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

  /// glibc declares these only for _GNU_SOURCE, which Swift's Glibc module does not set.
  private static func affinityCall(_ name: String) -> AffinityCall? {
    dlsym(nil, name).map { unsafeBitCast($0, to: AffinityCall.self) }
  }

  /// Pins the calling thread to CPU 0; returns the affinity it had.
  static func pinToFirstCPU() -> Affinity {
    var previous = Affinity(repeating: 0, count: 16)
    _ = previous.withUnsafeMutableBytes { affinityCall("sched_getaffinity")?(0, $0.count, $0.baseAddress!) }
    var first = Affinity(repeating: 0, count: 16)
    first[0] = 1
    _ = first.withUnsafeMutableBytes { affinityCall("sched_setaffinity")?(0, $0.count, $0.baseAddress!) }
    return previous
  }

  static func restoreAffinity(_ affinity: Affinity) {
    var affinity = affinity
    _ = affinity.withUnsafeMutableBytes { affinityCall("sched_setaffinity")?(0, $0.count, $0.baseAddress!) }
  }

  func run(seconds: @escaping () -> Double) throws -> [String] {
    var report: [String] = []
    // Cold start: spawn to the initialize response, packs loaded. Its target is a ratio to a
    // bare Swift program's start, measured side by side in `--compare`.
    var starts: [Double] = []
    for _ in 0..<20 {
      let start = seconds()
      let server = try Server(executable: executable)
      try Self.requireResult(server.call(Self.initialize))
      starts.append(seconds() - start)
      server.stop()
    }
    let start = Spread(starts)
    report.append(
      "serve.cold-start: \(String(format: "%.1f", start.median * 1000)) ms median (\(String(format: "%.1f", start.low * 1000))–\(String(format: "%.1f", start.high * 1000)) ms)  [spawn to the initialize response, built-in packs loaded; 20 starts; target as a ratio in --compare]"
    )

    // Sequential round trips, with client and server sharing one core (the server inherits
    // this thread's affinity), then on separate cores, where each wake-up crosses CPUs.
    let everyCPU = Self.pinToFirstCPU()
    let pinned = try started()
    let shared = try roundTrips(pinned, seconds: seconds)
    pinned.stop()
    Self.restoreAffinity(everyCPU)
    report.append(
      "serve.round-trip.shared-core: p50 \(String(format: "%.1f", shared.p50 * 1e6)) µs, p99 \(String(format: "%.1f", shared.p99 * 1e6)) µs  [biki/generate count 1, one at a time, client and server on one core; 20,000 requests; target as a ratio in --compare]"
    )
    let server = try started()
    let separate = try roundTrips(server, seconds: seconds)
    report.append(
      "serve.round-trip.two-cores: p50 \(String(format: "%.1f", separate.p50 * 1e6)) µs, p99 \(String(format: "%.1f", separate.p99 * 1e6)) µs  [the same, client and server free to run on either core]"
    )

    report.append(try duringCheck(server, normal: separate.p50, seconds: seconds).line)

    // Pipelined: a writer thread sends while this thread reads; the median of 3 runs.
    let count = 100_000
    var all: [UInt8] = []
    for id in 0..<count { all += Self.generate(id) }
    let payload = all
    var rates: [Double] = []
    for _ in 0..<3 {
      let start = seconds()
      let input = server.input
      let writer = Thread { Server.send(payload, to: input) }
      writer.start()
      for _ in 0..<count { _ = try server.receiveResult() }
      rates.append(Double(count) / (seconds() - start))
    }
    let pipelined = Spread(rates)
    report.append(
      "serve.pipelined: \(Int(pipelined.median)) requests/s median (\(Int(pipelined.low))–\(Int(pipelined.high)))  [biki/generate count 1, 100,000 in flight; 3 runs; target as a ratio to the floor server in --compare]"
    )
    server.stop()

    report.append(try memory().line)
    return report
  }

  /// Resident memory of a fresh server right after `initialize`, and after 10,000 sessions
  /// started and ended; the target is the ratio, since the start differs between machines.
  func memory() throws -> (ratio: Double, line: String) {
    let server = try started()
    // One session first, so code and tables every session touches count as the start.
    try Self.requireResult(
      server.call(Self.request(1, "biki/startSession", #"{"topicId":"counters.hon","mode":{"kind":"infinite"}}"#)))
    try Self.requireResult(server.call(Self.request(2, "biki/endSession", #"{"sessionId":"s1"}"#)))
    let before = server.residentKilobytes
    for batch in 0..<100 {
      var frames: [UInt8] = []
      for index in 0..<100 {
        frames += Self.request(index, "biki/startSession", #"{"topicId":"counters.hon","mode":{"kind":"infinite"}}"#)
      }
      server.send(frames)
      for _ in 0..<100 { _ = try server.receiveResult() }
      frames = []
      for index in 0..<100 {
        frames += Self.request(index, "biki/endSession", #"{"sessionId":"s\#(batch * 100 + index + 2)"}"#)
      }
      server.send(frames)
      for _ in 0..<100 { _ = try server.receiveResult() }
    }
    let after = server.residentKilobytes
    server.stop()
    guard before > 0, after > 0 else { throw BenchFailure("could not read biki serve's VmRSS") }
    let ratio = Double(after) / Double(before)
    return (
      ratio,
      "serve.memory: \(String(format: "%.1f", Double(after) / 1024)) MB resident after 10,000 sessions, \(String(format: "%.1f", Double(before) / 1024)) MB at start: \(String(format: "%.2f", ratio))×  (target ≤ 1.25×: \(ratio <= 1.25 ? "met" : "NOT met"))  [VmRSS of a fresh biki serve]"
    )
  }
}
