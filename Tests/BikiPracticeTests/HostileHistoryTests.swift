import BikiTestSupport
import Foundation
import Testing

@testable import BikiPractice

#if canImport(Glibc)
  import Glibc
#endif

/// A history or summary that is a FIFO is refused with a reason, never waited on: a regression
/// would block in open(), and the watchdog frees it so the test fails instead.
@Suite(.timeLimit(.minutes(1))) struct HostileHistoryTests {
  @Test func aHistoryThatIsAFIFOIsRefusedAtOnce() throws {
    let directory = NSTemporaryDirectory() + "biki-history-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(mkdir(directory, 0o700) == 0)
    let path = directory + "/history.jsonl"
    #expect(mkfifo(path, 0o600) == 0)
    let watchdog = FIFOWatchdog([path])
    let history = AnswerHistory.file(path: path)
    let loaded = history.load()
    #expect(loaded.entries.isEmpty)
    #expect(loaded.warnings == ["cannot read \(path): not a regular file (a FIFO)"])
    #expect(history.summary().warnings == loaded.warnings)
    #expect(!watchdog.stop(), "reading the history waited on the FIFO")
  }

  @Test func aSummaryThatIsAFIFOIsMadeAfreshBesideIt() throws {
    let directory = NSTemporaryDirectory() + "biki-history-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(mkdir(directory, 0o700) == 0)
    let path = directory + "/history.jsonl"
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    #expect(mkfifo(path + ".summary", 0o600) == 0)
    let watchdog = FIFOWatchdog([path + ".summary"])
    #expect(AnswerHistory.file(path: path).summary().warnings.isEmpty)
    #expect(!watchdog.stop(), "reading the summary waited on the FIFO")
  }
}
