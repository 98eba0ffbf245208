import Dispatch
import Foundation
import BikiSync

#if canImport(Glibc)
  import Glibc
#endif

/// Runs an endpoint over a pair of file descriptors: a read loop on its own thread frames and
/// parses what arrives, the message loop handles it in order and calls the server's `tick` at
/// its deadlines, and a serialized writer sends whole frames. A client that vanishes is end of
/// input (or a failed write), never a crash.
package struct Connection: Sendable {
  package var input: Int32
  package var output: Int32
  /// Seconds on a monotonic clock; the server's deadlines are on this clock.
  package var now: @Sendable () -> Double
  /// Where the connection reports what it cannot send to the client (stderr).
  package var log: @Sendable (String) -> Void
  package var maximumBody: Int

  package init(
    input: Int32, output: Int32, now: @Sendable @escaping () -> Double, log: @Sendable @escaping (String) -> Void,
    maximumBody: Int = MessageFramer.defaultMaximumBody
  ) {
    self.input = input
    self.output = output
    self.now = now
    self.log = log
    self.maximumBody = maximumBody
  }

  /// Keeps fd 1 for the protocol and points the process's stdout at stderr, so a stray print
  /// cannot corrupt the stream. Returns the descriptor to write protocol messages to.
  package static func claimStandardOutput() -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let protocolOutput = dup(1)
    dup2(2, 1)
    return protocolOutput >= 0 ? protocolOutput : 1
  }

  /// Serves until `exit` or the end of input; returns the exit status (0 only after `shutdown`).
  package func run<Server: LanguageServer>(_ endpoint: inout Endpoint<Server>) -> Int32 {
    let inbox = Inbox()
    startReadLoop(into: inbox)
    let writer = MessageWriter(descriptor: output)
    while true {
      let timeout = endpoint.nextDeadline.map { max(0, $0 - now()) }
      var outgoing: [OutgoingMessage] = []
      var ended = false
      for entry in inbox.take(waitingAtMost: timeout) {
        switch entry {
        case .message(let message): outgoing += endpoint.receive(message)
        case .cancelled(let id): outgoing.append(Endpoint<Server>.cancelled(id))
        case .end(let truncated):
          if truncated { log("the client closed the connection in the middle of a message") }
          ended = true
        }
        if endpoint.exitStatus != nil { break }
      }
      if let deadline = endpoint.nextDeadline, now() >= deadline {
        outgoing += endpoint.tick(now: now())
      }
      if !outgoing.isEmpty && !writer.write(outgoing) {
        log("the client stopped reading; closing")
        return endpoint.phase == .shutDown ? 0 : 1
      }
      if let status = endpoint.exitStatus { return status }
      if ended { return endpoint.phase == .shutDown ? 0 : 1 }
    }
  }

  private func startReadLoop(into inbox: Inbox) {
    let input = input
    let maximumBody = maximumBody
    let thread = Thread {
      var framer = MessageFramer(maximumBody: maximumBody)
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else {
          inbox.push([.end(truncated: framer.hasPartialMessage)])
          return
        }
        let events = framer.feed(buffer[..<count])
        if !events.isEmpty { inbox.push(MessageQueue.entries(for: events, maximumBody: maximumBody)) }
      }
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
}

/// The queue between the read loop and the message loop. It is bounded: when the message
/// loop falls behind a client that pipelines, the read loop waits, and the rest stays in the
/// pipe rather than in memory.
final class Inbox: Sendable {
  private struct State {
    var queue = MessageQueue()
    var count = 0
    var readerWaiting = false
  }

  static let capacity = 1024
  private let state = Locked(State())
  private let arrived = DispatchSemaphore(value: 0)
  private let drained = DispatchSemaphore(value: 0)

  func push(_ entries: [InboxEntry]) {
    let full = state.withLock { state in
      for entry in entries { state.queue.push(entry) }
      state.count += entries.count
      state.readerWaiting = state.count >= Inbox.capacity
      return state.readerWaiting
    }
    arrived.signal()
    if full { drained.wait() }
  }

  /// What is waiting; if nothing is, waits up to `timeout` seconds (forever when nil) for more.
  func take(waitingAtMost timeout: Double?) -> [InboxEntry] {
    let waiting = takeAll()
    if !waiting.isEmpty { return waiting }
    if let timeout {
      _ = arrived.wait(timeout: .now() + .nanoseconds(Int(min(timeout, 3600) * 1e9)))
    } else {
      arrived.wait()
    }
    return takeAll()
  }

  private func takeAll() -> [InboxEntry] {
    let (entries, wakeReader) = state.withLock { state in
      let entries = state.queue.takeAll()
      state.count = 0
      defer { state.readerWaiting = false }
      return (entries, state.readerWaiting)
    }
    if wakeReader { drained.signal() }
    return entries
  }
}

/// Writes whole frames, in order, one message loop iteration's worth at a time.
struct MessageWriter {
  let descriptor: Int32

  /// False once the client can no longer be written to.
  func write(_ messages: [OutgoingMessage]) -> Bool {
    var bytes: [UInt8] = []
    for message in messages { MessageFramer.frame(message.json.bytes, into: &bytes) }
    return bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return true }
      var sent = 0
      while sent < raw.count {
        let count = Glibc.write(descriptor, base + sent, raw.count - sent)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        sent += count
      }
      return true
    }
  }
}
