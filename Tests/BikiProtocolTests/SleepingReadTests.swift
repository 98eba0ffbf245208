import BikiJSON
import BikiSync
import Foundation
import Testing

@testable import BikiProtocol

/// The loop asleep in `read` on a blocking pipe, on the real clock and real threads: the
/// server's deadline and work finished off the loop still wake it, however close they come to
/// the moment it goes to sleep, and the input is left as it was found. A lost wake-up would
/// show as an answer that never comes: every wait here has a limit.
@Suite struct SleepingReadTests {
  /// `later` is answered from another thread's work, `at` (params: [seconds]) with a notification
  /// at that time from now, `echo` at once.
  struct TimedServer: LanguageServer {
    let name = "timed"
    let version = "1"
    let wake: WakeSignal
    let finished = Locked<[RequestID]>([])
    var waiting: [RequestID] = []
    var due: [Double] = []
    var hasPendingRequests: Bool { !waiting.isEmpty }
    var nextDeadline: Double? { due.min() }

    mutating func initialize(params: JSON?, outbox: inout [OutgoingMessage]) -> JSON { [:] }

    mutating func request(_ id: RequestID, _ method: String, params: JSON?, outbox: inout [OutgoingMessage])
      throws(ResponseError) -> Reply
    {
      switch method {
      case "echo": return .result(params ?? .null)
      case "later":
        waiting.append(id)
        let (finished, wake) = (finished, wake)
        // At once: the signal comes about when the loop goes back to its read.
        Thread.detachNewThread {
          finished.withLock { $0.append(id) }
          wake.signal()
        }
        return .later
      case "at":
        guard let seconds = params?.arrayValue?.first?.numberValue else { throw .invalidParams("seconds") }
        due.append(SleepingReadTests.monotonicSeconds() + seconds)
        return .result(.null)
      default: throw .methodNotFound(method)
      }
    }

    mutating func cancel(_ id: RequestID, outbox: inout [OutgoingMessage]) {}
    mutating func notification(_ method: String, params: JSON?, outbox: inout [OutgoingMessage]) {}

    mutating func tick(now: Double, outbox: inout [OutgoingMessage]) {
      for id in finished.withLock({ ids in
        defer { ids = [] }
        return ids
      }) {
        waiting.removeAll { $0 == id }
        outbox.append(.result(id: id, "finished"))
      }
      let passed = due.filter { $0 <= now }
      due.removeAll { $0 <= now }
      for _ in passed { outbox.append(.notification(method: "due", params: .null)) }
    }
  }

  static func monotonicSeconds() -> Double { ConnectionTests.monotonicSeconds() }

  /// A client of a loop running on its own thread, over two pipes or over one socket that is
  /// the server's input and output alike (one open file, so waking the read makes the
  /// server's writes non-blocking too).
  final class Client {
    let serverInput: Int32
    let serverOutput: Int32
    let toServer: Int32
    let fromServer: Int32
    let ended = DispatchSemaphore(value: 0)
    let status = Locked<Int32?>(nil)
    private var received: [UInt8] = []

    init(blocking: Bool = true, oneSocket: Bool = false) throws {
      if oneSocket {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        (serverInput, serverOutput, toServer, fromServer) = (ends[1], ends[1], ends[0], ends[0])
      } else {
        var toServerEnds: [Int32] = [-1, -1]
        var toClientEnds: [Int32] = [-1, -1]
        try #require(pipe(&toServerEnds) == 0 && pipe(&toClientEnds) == 0)
        (serverInput, serverOutput) = (toServerEnds[0], toClientEnds[1])
        (toServer, fromServer) = (toServerEnds[1], toClientEnds[0])
      }
      if !blocking { _ = fcntl(serverInput, F_SETFL, fcntl(serverInput, F_GETFL) | O_NONBLOCK) }
      let serverOutput = serverOutput
      let wake = try #require(WakeSignal())
      let connection = Connection(
        input: serverInput, output: serverOutput, now: SleepingReadTests.monotonicSeconds, log: { _ in }, wake: wake)
      let (status, ended) = (status, ended)
      Thread.detachNewThread {
        var endpoint = Endpoint(server: TimedServer(wake: wake))
        let result = connection.run(&endpoint)
        status.withLock { $0 = result }
        close(serverOutput)
        ended.signal()
      }
    }

    deinit {
      // The loop's thread closed `serverOutput`; each other descriptor is closed once.
      close(toServer)
      if fromServer != toServer { close(fromServer) }
      if serverInput != serverOutput { close(serverInput) }
    }

    func send(_ body: String) {
      #expect(ConnectionTests.writeAll(toServer, ConnectionTests.frame(body)))
    }

    /// Seconds until the server sends a message containing `text`, or nil when it has not
    /// within `limit`.
    func wait(for text: String, limit: Double = 5) -> Double? {
      let started = SleepingReadTests.monotonicSeconds()
      let marker = Array(text.utf8)
      while true {
        if let found = received.firstRange(of: marker) {
          received.removeSubrange(..<found.upperBound)
          return SleepingReadTests.monotonicSeconds() - started
        }
        guard readMore(before: started + limit) else { return nil }
      }
    }

    /// The next `count` messages the server sends, in order, or nil when they have not all
    /// come within `limit` seconds.
    func messages(_ count: Int, limit: Double = 10) -> [[String: Any]]? {
      let deadline = SleepingReadTests.monotonicSeconds() + limit
      var messages: [[String: Any]] = []
      while messages.count < count {
        if let separator = received.firstRange(of: Array("\r\n\r\n".utf8)),
          let length = Int(String(decoding: received[..<separator.lowerBound].dropFirst(16), as: UTF8.self)),
          received.count >= separator.upperBound + length
        {
          let body = Data(received[separator.upperBound..<separator.upperBound + length])
          received.removeSubrange(..<(separator.upperBound + length))
          guard let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
          messages.append(message)
          continue
        }
        guard readMore(before: deadline) else { return nil }
      }
      return messages
    }

    /// Adds what the server sends next to `received`; false at the end of its output or when
    /// nothing comes before `deadline`.
    private func readMore(before deadline: Double) -> Bool {
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let left = deadline - SleepingReadTests.monotonicSeconds()
        guard left > 0 else { return false }
        var entry = pollfd(fd: fromServer, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(left * 1000) + 1) >= 0 || errno == EINTR else { return false }
        guard entry.revents != 0 else { continue }
        let count = buffer.withUnsafeMutableBytes { read(fromServer, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        received += buffer[..<count]
        return true
      }
    }

    /// Ends the session as a client does, and waits for the loop to return.
    func finish() -> Int32? {
      send(#"{"jsonrpc":"2.0","id":"end","method":"shutdown"}"#)
      send(#"{"jsonrpc":"2.0","method":"exit"}"#)
      guard ended.wait(timeout: .now() + 10) == .success else { return nil }
      return status.withLock { $0 }
    }
  }

  @Test func theServersDeadlineWakesALoopAsleepInItsRead() throws {
    let client = try Client()
    client.send(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
    #expect(client.wait(for: #""id":0"#) != nil)
    client.send(#"{"jsonrpc":"2.0","id":1,"method":"at","params":[0.2]}"#)
    // Nothing more is sent: only the timer can wake the read.
    let after = try #require(client.wait(for: #""method":"due""#), "the deadline never woke the loop")
    #expect(after >= 0.15)
    #expect(after < 3)
    // A deadline already near when the loop goes to sleep, many times over.
    for round in 0..<50 {
      client.send(#"{"jsonrpc":"2.0","id":\#(round + 2),"method":"at","params":[0.000\#(round % 10)]}"#)
      #expect(client.wait(for: #""method":"due""#) != nil, "round \(round)")
    }
    #expect(client.finish() == 0)
  }

  @Test func workFinishedAsTheLoopGoesToSleepStillWakesIt() throws {
    let client = try Client()
    client.send(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
    #expect(client.wait(for: #""id":0"#) != nil)
    // Each answer is waited for before the next request, so every signal comes while the loop
    // is about to sleep or asleep, never while input is waiting.
    for id in 1...300 {
      client.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"later"}"#)
      guard client.wait(for: #""id":\#(id),"result":"finished""#) != nil else {
        Issue.record("request \(id) was never answered: a wake-up was lost")
        break
      }
    }
    #expect(client.finish() == 0)
  }

  @Test func aDeadlineAfterAWakeUpStillComes() throws {
    let client = try Client()
    client.send(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
    #expect(client.wait(for: #""id":0"#) != nil)
    client.send(#"{"jsonrpc":"2.0","id":1,"method":"at","params":[0.3]}"#)
    client.send(#"{"jsonrpc":"2.0","id":2,"method":"later"}"#)
    #expect(client.wait(for: #""id":2,"result":"finished""#) != nil)
    #expect(client.wait(for: #""method":"due""#) != nil, "the wake-up cost the deadline")
    #expect(client.finish() == 0)
  }

  @Test func theInputIsLeftAsItWasFound() throws {
    for blocking in [true, false] {
      let client = try Client(blocking: blocking)
      let flags = fcntl(client.serverInput, F_GETFL)
      client.send(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
      client.send(#"{"jsonrpc":"2.0","id":1,"method":"later"}"#)
      client.send(#"{"jsonrpc":"2.0","id":2,"method":"at","params":[0.05]}"#)
      #expect(client.wait(for: #""id":1,"result":"finished""#) != nil)
      #expect(client.wait(for: #""method":"due""#) != nil)
      client.send(#"{"jsonrpc":"2.0","id":3,"method":"echo","params":[3]}"#)
      #expect(client.wait(for: #""id":3,"result":[3]"#) != nil)
      #expect(client.finish() == 0)
      #expect(fcntl(client.serverInput, F_GETFL) == flags, "blocking: \(blocking)")
    }
  }

  @Test func aSocketThatIsBothInputAndOutputIsAnsweredWholeAcrossWakeUps() throws {
    let client = try Client(oneSocket: true)
    client.send(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#)
    #expect(client.messages(1)?.first?["id"] as? Int == 0)
    // Answers far larger than the socket holds, each beside work whose wake-up makes the
    // socket non-blocking, while the client reads nothing: the server's writes find it full.
    let rounds = 40
    let payload = String(repeating: "x", count: 100_000)
    let toServer = client.toServer
    let sender = Thread {
      for round in 1...rounds {
        let later = ConnectionTests.frame(#"{"jsonrpc":"2.0","id":\#(round),"method":"later"}"#)
        let echo = ConnectionTests.frame(
          #"{"jsonrpc":"2.0","id":\#(1000 + round),"method":"echo","params":["\#(payload)"]}"#)
        guard ConnectionTests.writeAll(toServer, later + echo) else { return }
      }
    }
    sender.start()
    usleep(200_000)
    let answers = try #require(client.messages(2 * rounds, limit: 30), "not every answer came")
    var finished = Set<Int>()
    var echoed = Set<Int>()
    for answer in answers {
      let id = try #require(answer["id"] as? Int)
      if answer["result"] as? String == "finished" { finished.insert(id) }
      if let echo = answer["result"] as? [String], echo == [payload] { echoed.insert(id - 1000) }
    }
    #expect(finished == Set(1...rounds))
    #expect(echoed == Set(1...rounds))
    #expect(client.finish() == 0)
  }

  @Test func onlyABlockingPipeOrSocketIsSleptOn() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    defer { for end in ends { close(end) } }
    #expect(InputSleeper(descriptor: ends[0], wake: nil) != nil)
    var sockets: [Int32] = [-1, -1]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &sockets) == 0)
    defer { for end in sockets { close(end) } }
    #expect(InputSleeper(descriptor: sockets[0], wake: nil) != nil)
    // A terminal's flags are its shell's too; a file or a device never makes a read wait.
    let terminal = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    if terminal >= 0 {
      #expect(InputSleeper(descriptor: terminal, wake: nil) == nil)
      close(terminal)
    }
    let null = open("/dev/null", O_RDONLY)
    defer { close(null) }
    #expect(InputSleeper(descriptor: null, wake: nil) == nil)
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    #expect(InputSleeper(descriptor: ends[0], wake: nil) == nil)
  }
}
