import Glibc

/// Runs an endpoint over a pair of file descriptors on one thread: it waits for input or the
/// server's next deadline, reads what has arrived, frames and parses it, handles it in order,
/// calls the server's `tick` at its deadlines, and sends the responses as whole frames. A client
/// that vanishes is end of input (or a failed write), never a crash.
///
/// One thread, not a read loop handing messages to a message loop: a request answered one at a
/// time then costs the process one wake-up, as it costs a C server, rather than two. Work that
/// takes long (checking a large pack) runs elsewhere and is collected at a deadline. Input that
/// arrives while a request is handled waits in the pipe and is read after it, so a
/// `$/cancelRequest` read with the request it names still takes that request's place.
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
    var reader = InputReader(descriptor: input, maximumBody: maximumBody)
    let writer = MessageWriter(descriptor: output)
    while true {
      let timeout = endpoint.nextDeadline.map { max(0, $0 - now()) }
      var outgoing: [OutgoingMessage] = []
      var ended = false
      for entry in reader.read(waitingAtMost: timeout) {
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
}

/// Reads the client's input: waits until some has arrived (or a timeout passes), reads what is
/// there, and returns the messages it completes, with cancellations applied among them.
struct InputReader {
  let descriptor: Int32
  private var framer: MessageFramer
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)

  init(descriptor: Int32, maximumBody: Int) {
    self.descriptor = descriptor
    self.framer = MessageFramer(maximumBody: maximumBody)
  }

  /// What one read completes; nothing when `timeout` seconds pass first (forever when nil).
  mutating func read(waitingAtMost timeout: Double?) -> [InboxEntry] {
    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    // Milliseconds, rounded up so a deadline a fraction of one away is not spun on.
    let milliseconds = timeout.map { Int32(min(($0 * 1000).rounded(.up), 3_600_000)) } ?? -1
    let polled = poll(&ready, 1, milliseconds)
    if polled < 0 && errno != EINTR { return [.end(truncated: framer.hasPartialMessage)] }
    guard polled > 0 else { return [] }
    let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { return [] }
    guard count > 0 else { return [.end(truncated: framer.hasPartialMessage)] }
    let events = framer.feed(buffer[..<count])
    var queue = MessageQueue()
    for entry in MessageQueue.entries(for: events, maximumBody: framer.maximumBody) { queue.push(entry) }
    return queue.takeAll()
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
