import BikiInputSupport
import BikiJSON
import Glibc

/// Runs an endpoint over a pair of file descriptors on one thread: it sleeps until input
/// arrives, work finished off the loop signals, or the server's next deadline passes, whichever
/// comes first; reads what has arrived, frames and parses it, handles it in order, lets the
/// server collect finished work and due timers (`tick`), and sends the responses as whole
/// frames. A client that vanishes is end of input (or a failed write), never a crash.
///
/// One thread, not a read loop handing messages to a message loop: a request answered one at a
/// time then costs the process one wake-up, as it costs a C server, rather than two. Work that
/// takes long (checking a pack, a plugin's question) runs elsewhere and signals `wake` when it is
/// done. Input that arrives while a request is handled waits in the pipe and is read after it,
/// so a `$/cancelRequest` read with the request it names still takes that request's place.
///
/// On a blocking pipe or socket, what editors give a language server, the loop sleeps in `read`
/// itself, and finished work and deadlines interrupt it (`InputSleeper`): a request answered one
/// at a time costs a read and a write, as it costs a C server. Elsewhere, after a pass that read
/// input the loop first reads without waiting, and `poll`s only when nothing is there: a stream
/// of requests has the next waiting, so the pass costs a read and a write. Work finished off the
/// loop is then seen through `WakeSignal.isPending`, and deadlines as always.
package struct Connection: Sendable {
  var input: Int32
  var output: Int32
  /// Seconds on a monotonic clock; the server's deadlines are on this clock.
  var now: @Sendable () -> Double
  /// Where the connection reports what it cannot send to the client (stderr).
  var log: @Sendable (String) -> Void
  var maximumBody: Int
  /// What work finished off the loop signals; nil when nothing runs off it.
  var wake: WakeSignal?

  package init(
    input: Int32, output: Int32, now: @Sendable @escaping () -> Double, log: @Sendable @escaping (String) -> Void,
    maximumBody: Int = MessageFramer.defaultMaximumBody, wake: WakeSignal? = nil
  ) {
    self.input = input
    self.output = output
    self.now = now
    self.log = log
    self.maximumBody = maximumBody
    self.wake = wake
  }

  /// Keeps fd 1 for the protocol and points the process's stdout at stderr, so a stray print
  /// cannot corrupt the stream. Returns the descriptor to write protocol messages to.
  ///
  /// A standard descriptor the parent closed (`biki serve 2>&-`) is the next one any open, dup
  /// or pipe hands out: the protocol's copy of stdout would have become fd 2, and every log line
  /// a frame's neighbour. Each closed one is first opened on /dev/null — logs with stderr closed
  /// go nowhere — and the protocol's copy is taken above 2.
  package static func claimStandardOutput() -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
      let null = open("/dev/null", O_RDWR)
      if null >= 0 && null != descriptor {
        dup2(null, descriptor)
        close(null)
      }
    }
    let protocolOutput = fcntl(1, F_DUPFD_CLOEXEC, 3)
    dup2(2, 1)
    return protocolOutput >= 0 ? protocolOutput : 1
  }

  /// Serves until `exit` or the end of input; returns the exit status (0 only after `shutdown`).
  package func run<Server: LanguageServer>(_ endpoint: inout Endpoint<Server>) -> Int32 {
    var reader = InputReader(descriptor: input, maximumBody: maximumBody)
    var writer = MessageWriter(descriptor: output)
    var inputEnded = false
    // Kept, with their room, from one pass to the next: a pass per request answered one at a
    // time would otherwise allocate both.
    var inbox: [InboxEntry] = []
    var outgoing: [OutgoingMessage] = []
    // When the end was asked for while work still ran: a wait longer than a plugin's limits
    // allow is worth a line on stderr, saying what it waits for.
    var endingSince: Double?
    var toldOfWait = false
    var inputFlowing = false
    let sleeper = InputSleeper(descriptor: input, wake: wake)
    while true {
      // The deadline is read once per pass: it is a time, not an interval, so a server that
      // keeps work running cannot push it ahead of itself.
      let deadline = endpoint.nextDeadline
      let ready: Readiness
      if !inputEnded, let sleeper, wake?.isPending != true, deadline.map({ $0 > now() }) ?? true {
        sleeper.wake(at: deadline, now: now)
        // A signal that comes with the input is seen before the next read: the flag is read
        // once a pass.
        let woken = !reader.read(into: &inbox)
        if woken { sleeper.settle() }
        ready = Readiness(input: !woken, wake: woken && wake?.isPending == true, failed: false)
      } else if inputFlowing && !inputEnded && reader.readIfWaiting(into: &inbox) {
        ready = Readiness(input: true, wake: wake?.isPending ?? false, failed: false)
      } else {
        ready = Self.wait(
          input: inputEnded ? nil : input, wake: wake?.descriptor, timeout: deadline.map { max(0, $0 - now()) })
        if ready.input { reader.read(into: &inbox) }
      }
      inputFlowing = ready.input
      var ended = false
      if !inbox.isEmpty {
        // Taken from the end of the reversed inbox, each entry moves out of it: iterating would
        // copy each one, and its message, and destroy both again, a request at a time.
        inbox.reverse()
        while let entry = inbox.popLast() {
          switch consume entry {
          case .message(let message): endpoint.receive(message, into: &outgoing)
          case .cancelled(let id): outgoing.append(Endpoint<Server>.cancelled(id))
          case .contentModified(let id): outgoing.append(Endpoint<Server>.contentModified(id))
          case .end(let truncated):
            if truncated { log("the client closed the connection in the middle of a message") }
            ended = true
          }
          if endpoint.exitStatus != nil { break }
        }
        inbox.empty()
      }
      if ready.wake { wake?.drain() }
      if ready.wake || deadline != nil {
        // Read once: with a deadline set (the server always has one), every pass asks.
        let time = now()
        if ready.wake || deadline.map({ time >= $0 }) == true { endpoint.tick(now: time, into: &outgoing) }
      }
      if !outgoing.isEmpty && !writer.write(outgoing) {
        log("the client stopped reading; closing")
        return endpoint.phase == .shutDown ? 0 : 1
      }
      outgoing.empty()
      if let status = endpoint.exitStatus { return status }
      if ready.failed { return endpoint.phase == .shutDown ? 0 : 1 }
      if (endpoint.isEnding || inputEnded) && endpoint.isWaitingForWork {
        let since = endingSince ?? now()
        endingSince = since
        if !toldOfWait && now() - since > 10 {
          toldOfWait = true
          log("still answering requests before ending: \(endpoint.server.pendingRequestsDescription)")
        }
      }
      if ended { inputEnded = true }
      // Requests still waiting for work are answered before the process ends: a client that
      // closes its end after its last request still gets every response it can read.
      if inputEnded && !endpoint.isWaitingForWork { return endpoint.phase == .shutDown ? 0 : 1 }
    }
  }

  /// What a pass has to do.
  struct Readiness {
    /// Input has arrived (or ended).
    var input: Bool
    /// Work finished off the loop.
    var wake: Bool
    /// `poll` itself failed for a reason other than a signal.
    var failed: Bool
  }

  /// Which descriptors are ready after waiting at most `timeout` seconds (forever when nil).
  static func wait(input: Int32?, wake: Int32?, timeout: Double?) -> Readiness {
    // Milliseconds, rounded up so a deadline a fraction of one away is not spun on.
    let milliseconds = timeout.map { Int32(min(($0 * 1000).rounded(.up), 3_600_000)) } ?? -1
    // On the stack: the loop waits once per request answered one at a time.
    return withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { descriptors in
      descriptors[0] = pollfd(fd: input ?? -1, events: Int16(POLLIN), revents: 0)
      descriptors[1] = pollfd(fd: wake ?? -1, events: Int16(POLLIN), revents: 0)
      let polled = poll(descriptors.baseAddress, 2, milliseconds)
      if polled < 0 { return Readiness(input: false, wake: false, failed: errno != EINTR) }
      // POLLHUP and POLLERR count as input: the read that follows sees the end.
      let inputReady = input != nil && descriptors[0].revents != 0
      let wakeReady = wake != nil && descriptors[1].revents & Int16(POLLIN) != 0
      return Readiness(input: inputReady, wake: wakeReady, failed: false)
    }
  }
}

/// Reads the client's input once `poll` says some has arrived, and returns the messages it
/// completes, with cancellations applied among them.
struct InputReader {
  let descriptor: Int32
  private var framer: MessageFramer
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)
  /// What the framer made of the last read, and the queue its entries pass through; both
  /// kept with their room, as the loop reads once per request answered one at a time.
  private var events: [MessageFramer.Event] = []
  private var queue = MessageQueue()
  /// False once the descriptor (or the kernel) cannot be read without waiting: the loop then
  /// always polls first.
  private(set) var canReadWithoutWaiting = true

  init(descriptor: Int32, maximumBody: Int) {
    self.descriptor = descriptor
    self.framer = MessageFramer(maximumBody: maximumBody)
  }

  /// Appends what one read completes to `inbox`; false when the read was interrupted or found
  /// nothing (a sleeping read woken), and read nothing.
  @discardableResult
  mutating func read(into inbox: inout [InboxEntry]) -> Bool {
    let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
    if count < 0 && (errno == EINTR || errno == EAGAIN) { return false }
    take(count, into: &inbox)
    return true
  }

  /// Reads only if input is already waiting (or has ended), and appends what that completes to
  /// `inbox`; false when there was nothing to read, and the loop should wait for it.
  mutating func readIfWaiting(into inbox: inout [InboxEntry]) -> Bool {
    guard canReadWithoutWaiting else { return false }
    let count = buffer.withUnsafeMutableBytes { biki_read_if_waiting(descriptor, $0.baseAddress, $0.count) }
    if count < 0 {
      if errno != EAGAIN && errno != EINTR { canReadWithoutWaiting = false }
      return false
    }
    take(count, into: &inbox)
    return true
  }

  private mutating func take(_ count: Int, into inbox: inout [InboxEntry]) {
    if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
    guard count > 0 else {
      inbox.append(.end(truncated: framer.hasPartialMessage))
      return
    }
    events.empty()
    framer.feed(buffer[..<count], into: &events)
    // Moved out one by one, as the loop takes its inbox, not copied out and destroyed twice.
    events.reverse()
    while let event = events.popLast() { queue.push(MessageQueue.entry(for: event, maximumBody: framer.maximumBody)) }
    queue.takeAll(into: &inbox)
  }
}

/// Writes whole frames, in order, one message loop iteration's worth at a time.
struct MessageWriter: ~Copyable {
  /// Waits until `descriptor` can take more; false when the client closed its end.
  static func waitForRoom(_ descriptor: Int32) -> Bool {
    var target = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    while true {
      let polled = poll(&target, 1, -1)
      if polled < 0 && errno == EINTR { continue }
      guard polled > 0 else { return false }
      return target.revents & Int16(POLLOUT) != 0
    }
  }

  let descriptor: Int32
  /// Writes each message's body; kept, with its room, from one write to the next.
  private var body = JSONWriter()
  /// The frames of one write; kept likewise.
  private var bytes: [UInt8] = []

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// False once the client can no longer be written to.
  mutating func write(_ messages: [OutgoingMessage]) -> Bool {
    bytes.removeAll(keepingCapacity: true)
    // Through the buffer: each message is framed where it is, not copied out first.
    messages.withUnsafeBufferPointer { messages in
      for index in messages.indices { messages[index].frame(into: &bytes, using: &body) }
    }
    // A burst's frames and bodies are not kept past it: a single large answer (a topic list,
    // a reload's report) leaves no large buffer behind.
    defer {
      if bytes.capacity > 1 << 20 { bytes = [] }
      if body.room > 1 << 20 { body = JSONWriter() }
    }
    return bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return true }
      var sent = 0
      while sent < raw.count {
        let count = Glibc.write(descriptor, base + sent, raw.count - sent)
        if count < 0 && errno == EINTR { continue }
        // A non-blocking stdout whose pipe is full (a client reading late): wait for room, as
        // a blocking write would. The loop reads no more input meanwhile, so what waits is this
        // pass's frames alone.
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
          guard Self.waitForRoom(descriptor) else { return false }
          continue
        }
        guard count > 0 else { return false }
        sent += count
      }
      return true
    }
  }
}

extension Array {
  /// Removes every element and keeps the room. One at a time: the loop's arrays of messages
  /// hold one or two a pass, often none, and `removeAll(keepingCapacity:)` goes through the
  /// general replacement of a range, which costs more than removing them. (Not for bytes.)
  @inline(__always)
  mutating func empty() {
    while !isEmpty { removeLast() }
  }
}
