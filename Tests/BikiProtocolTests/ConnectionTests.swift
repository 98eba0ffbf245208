import BikiJSON
import BikiSync
import Foundation
import Testing

@testable import BikiProtocol

/// The message loop on real pipes, threads and clock: it reads the client's next message
/// without `poll` when one is already waiting, and work finished off the loop still reaches the
/// client while messages keep arriving.
@Suite struct ConnectionTests {
  /// Answers `later` once work on another thread has finished and signalled the loop, and
  /// `echo` after a tenth of a millisecond, slower than the client sends them, so the pipe stays
  /// full. No deadline: only the wake signal can make it answer `later`.
  struct WorkServer: LanguageServer {
    let name = "work"
    let version = "1"
    let wake: WakeSignal
    let finished = Locked(false)
    var pending: RequestID?
    var hasPendingRequests: Bool { pending != nil }
    var nextDeadline: Double? { nil }

    mutating func initialize(params: JSON?, outbox: inout [OutgoingMessage]) -> JSON { [:] }

    mutating func request(_ id: RequestID, _ method: String, params: JSON?, outbox: inout [OutgoingMessage])
      throws(ResponseError) -> Reply
    {
      switch method {
      case "echo":
        usleep(100)
        return .result(params ?? .null)
      case "later":
        pending = id
        let (finished, wake) = (finished, wake)
        Thread.detachNewThread {
          usleep(50_000)
          finished.withLock { $0 = true }
          wake.signal()
        }
        return .later
      default: throw .methodNotFound(method)
      }
    }

    mutating func cancel(_ id: RequestID, outbox: inout [OutgoingMessage]) {}
    mutating func notification(_ method: String, params: JSON?, outbox: inout [OutgoingMessage]) {}

    mutating func tick(now: Double, outbox: inout [OutgoingMessage]) {
      guard let id = pending, finished.withLock({ $0 }) else { return }
      pending = nil
      outbox.append(.result(id: id, "finished"))
    }
  }

  static func frame(_ body: String) -> [UInt8] {
    Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
  }

  static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    (try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: bytes)) != nil
  }

  static func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  @Test func workFinishedOffTheLoopIsAnsweredWhileRequestsKeepArriving() throws {
    var toServer: [Int32] = [-1, -1]
    var toClient: [Int32] = [-1, -1]
    try #require(pipe(&toServer) == 0 && pipe(&toClient) == 0)
    let (serverInput, clientOutput, clientInput, serverOutput) = (toServer[0], toServer[1], toClient[0], toClient[1])
    let wake = try #require(WakeSignal())
    let connection = Connection(
      input: serverInput, output: serverOutput, now: Self.monotonicSeconds, log: { _ in }, wake: wake)
    let status = Locked<Int32?>(nil)
    let served = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var endpoint = Endpoint(server: WorkServer(wake: wake))
      let result = connection.run(&endpoint)
      status.withLock { $0 = result }
      close(serverOutput)
      served.signal()
    }
    // The client: `initialize`, one request whose work runs off the loop, then echo requests
    // as fast as the pipe takes them, so that input is always waiting when the loop looks.
    let answered = Locked(false)
    let echoes = Locked(0)
    let writerDone = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var ok = Self.writeAll(clientOutput, Self.frame(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#))
      ok = ok && Self.writeAll(clientOutput, Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"later"}"#))
      let deadline = Self.monotonicSeconds() + 10
      var id = 2
      var burst: [UInt8] = []
      while ok && !answered.withLock({ $0 }) && Self.monotonicSeconds() < deadline {
        burst.removeAll(keepingCapacity: true)
        for _ in 0..<64 {
          burst += Self.frame(#"{"jsonrpc":"2.0","id":\#(id),"method":"echo","params":\#(id)}"#)
          id += 1
        }
        ok = Self.writeAll(clientOutput, burst)
        echoes.withLock { $0 = id - 2 }
      }
      _ = Self.writeAll(clientOutput, Self.frame(#"{"jsonrpc":"2.0","id":"end","method":"shutdown"}"#))
      _ = Self.writeAll(clientOutput, Self.frame(#"{"jsonrpc":"2.0","method":"exit"}"#))
      close(clientOutput)
      writerDone.signal()
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let marker = Array(#""id":1,"result":"finished""#.utf8)
    let started = Self.monotonicSeconds()
    var answeredAfter: Double?
    var echoesBeforeAnswer = 0
    while true {
      let count = buffer.withUnsafeMutableBytes { read(clientInput, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      output += buffer[..<count]
      if answeredAfter == nil, output.firstRange(of: marker) != nil {
        answeredAfter = Self.monotonicSeconds() - started
        echoesBeforeAnswer = echoes.withLock { $0 }
        answered.withLock { $0 = true }
      }
      // Only the tail is kept: a marker split between two reads is still found.
      if answeredAfter != nil || output.count > 1 << 20 { output = Array(output.suffix(256)) }
    }
    writerDone.wait()
    served.wait()
    close(serverInput)
    close(clientInput)
    let seconds = try #require(answeredAfter, "the work finished off the loop was never answered")
    // Finished after 50 ms; answered well within the ten seconds of requests the client sends.
    #expect(seconds < 5)
    // Requests were arriving all along: the answer came out between them, not after them.
    #expect(echoesBeforeAnswer > 64)
    #expect(status.withLock { $0 } == 0)
  }

  @Test func aReadIfWaitingReadsOnlyWhatHasArrivedAndTheEnd() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    var reader = InputReader(descriptor: ends[0], maximumBody: 1 << 20)
    var inbox: [InboxEntry] = []
    let readFromEmpty = reader.readIfWaiting(into: &inbox)
    #expect(!readFromEmpty)
    #expect(inbox.isEmpty)
    #expect(Self.writeAll(ends[1], Self.frame(#"{"jsonrpc":"2.0","method":"note"}"#)))
    let readMessage = reader.readIfWaiting(into: &inbox)
    #expect(readMessage)
    #expect(inbox == [.message(.notification(method: "note", params: nil))])
    inbox = []
    close(ends[1])
    let readEnd = reader.readIfWaiting(into: &inbox)
    #expect(readEnd)
    #expect(inbox == [.end(truncated: false)])
    #expect(reader.canReadWithoutWaiting)
  }

  @Test func aDescriptorThatCannotBeReadWithoutWaitingIsLeftToPoll() throws {
    // A directory cannot be read at all; any descriptor the call refuses (an old kernel, a
    // kind without the flag) makes the loop poll, as it would without the call.
    let directory = open("/", O_RDONLY | O_DIRECTORY)
    try #require(directory >= 0)
    defer { close(directory) }
    var reader = InputReader(descriptor: directory, maximumBody: 1 << 20)
    var inbox: [InboxEntry] = []
    let first = reader.readIfWaiting(into: &inbox)
    #expect(!first)
    #expect(!reader.canReadWithoutWaiting)
    let second = reader.readIfWaiting(into: &inbox)
    #expect(!second)
    #expect(inbox.isEmpty)
  }
}
