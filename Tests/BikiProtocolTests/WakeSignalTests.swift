import Glibc
import Testing

@testable import BikiProtocol

/// The loop's wake-up: made close-on-exec and non-blocking at once, a signal is readable until
/// drained, and signalling a full one never blocks the thread that finished its work.
@Suite struct WakeSignalTests {
  func isReadable(_ descriptor: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) == 1
  }

  @Test func bothEndsAreCloseOnExecAndNonBlockingFromTheStart() throws {
    let wake = try #require(WakeSignal())
    #expect(fcntl(wake.descriptor, F_GETFD) & FD_CLOEXEC != 0)
    #expect(fcntl(wake.descriptor, F_GETFL) & O_NONBLOCK != 0)
  }

  @Test func aSignalStaysReadableUntilDrained() throws {
    let wake = try #require(WakeSignal())
    #expect(!isReadable(wake.descriptor))
    wake.signal()
    wake.signal()
    #expect(isReadable(wake.descriptor))
    wake.drain()
    #expect(!isReadable(wake.descriptor))
  }

  @Test func signallingAFullOneReturnsAndOneDrainEmptiesIt() throws {
    let wake = try #require(WakeSignal())
    // Far more than any socket buffer holds: every signal past the buffer finds it full.
    for _ in 0..<100_000 { wake.signal() }
    #expect(isReadable(wake.descriptor))
    wake.drain()
    #expect(!isReadable(wake.descriptor))
  }

  @Test func aSignalIsPendingWithoutASystemCallUntilDrained() throws {
    let wake = try #require(WakeSignal())
    #expect(!wake.isPending)
    wake.signal()
    #expect(wake.isPending)
    wake.drain()
    #expect(!wake.isPending)
    #expect(!isReadable(wake.descriptor))
  }
}
