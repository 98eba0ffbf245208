import BikiTestSupport
import Foundation
import Testing

@testable import BikiFiles

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh directory of its own for each test, on the real file system.
struct Scratch: ~Copyable {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "biki-files-" + UUID().uuidString
    mkdir(path, 0o700)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func file(_ name: String, _ text: String) -> String {
    let file = path + "/" + name
    _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
    return file
  }
}

// Each read of a FIFO would block for ever without the fix; the watchdog frees it and the test
// fails instead.
@Suite(.timeLimit(.minutes(1))) struct RegularFileTests {
  @Test func aRegularFileIsReadWhole() throws {
    let scratch = Scratch()
    let path = scratch.file("a.json", "{\"a\": 1}")
    #expect(try RegularFile.read(path, limit: 100) == Array("{\"a\": 1}".utf8))
  }

  @Test func aFIFOIsRefusedAtOnceWithoutWaitingForAWriter() throws {
    let scratch = Scratch()
    let path = scratch.path + "/pipe.json"
    #expect(mkfifo(path, 0o600) == 0)
    let watchdog = FIFOWatchdog([path])
    #expect(throws: FileError.notRegular(what: "a FIFO")) { try RegularFile.read(path, limit: 100) }
    #expect(!watchdog.stop(), "reading a FIFO waited for a writer")
    #expect(FileError.notRegular(what: "a FIFO").description == "not a regular file (a FIFO)")
  }

  @Test func aDirectoryAndADeviceAreRefused() throws {
    let scratch = Scratch()
    #expect(throws: FileError.notRegular(what: "a directory")) { try RegularFile.read(scratch.path, limit: 100) }
    #expect(throws: FileError.notRegular(what: "a character device")) { try RegularFile.read("/dev/zero", limit: 100) }
  }

  @Test func aFileLargerThanTheLimitIsRefusedUnread() throws {
    let scratch = Scratch()
    let path = scratch.file("big.json", String(repeating: "x", count: 101))
    #expect(throws: FileError.tooLarge(limit: 100)) { try RegularFile.read(path, limit: 100) }
    #expect(FileError.tooLarge(limit: 100).description == "larger than 100 bytes")
    #expect(try RegularFile.read(path, limit: 101).count == 101)
  }

  @Test func aMissingFileSaysSo() {
    let scratch = Scratch()
    #expect(throws: FileError.missing) { try RegularFile.read(scratch.path + "/none", limit: 100) }
  }

  @Test func aSymbolicLinkIsFollowedOnlyWhenAllowed() throws {
    let scratch = Scratch()
    let target = scratch.file("target", "hello")
    let link = scratch.path + "/link"
    #expect(symlink(target, link) == 0)
    #expect(try RegularFile.read(link, limit: 100) == Array("hello".utf8))
    #expect(throws: FileError.symbolicLink) { try RegularFile.read(link, limit: 100, links: .refuse) }
  }

  @Test func aSymbolicLinkLoopIsAnErrorNotAHang() {
    let scratch = Scratch()
    let a = scratch.path + "/a.json"
    let b = scratch.path + "/b.json"
    #expect(symlink(b, a) == 0)
    #expect(symlink(a, b) == 0)
    #expect(throws: FileError.system("too many levels of symbolic links")) { try RegularFile.read(a, limit: 100) }
  }

  @Test func anOpenedFileReadsBlockingAgain() throws {
    let scratch = Scratch()
    let path = scratch.file("a", "abc")
    let descriptor = try RegularFile.open(path)
    defer { close(descriptor) }
    #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK == 0)
    #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
    #expect(RegularFile.read(descriptor, at: 1, count: 10) == Array("bc".utf8))
  }
}

@Suite(.timeLimit(.minutes(1))) struct WholeFileTests {
  @Test func aReplacedFileIsNewWholeAndPrivate() throws {
    let scratch = Scratch()
    let path = scratch.file("cache.json", "old")
    try WholeFile.replace(path, with: Array("new".utf8), mode: 0o600)
    #expect(try RegularFile.read(path, limit: 100) == Array("new".utf8))
    var status = stat()
    #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
  }

  @Test func aFIFOInThePlaceIsReplacedNotWrittenThrough() throws {
    let scratch = Scratch()
    let path = scratch.path + "/cache.json"
    #expect(mkfifo(path, 0o600) == 0)
    try WholeFile.replace(path, with: Array("new".utf8), mode: 0o600)
    #expect(try RegularFile.read(path, limit: 100) == Array("new".utf8))
  }

  @Test func aSymbolicLinkInThePlaceIsReplacedNotWrittenThrough() throws {
    let scratch = Scratch()
    let target = scratch.file("elsewhere", "keep")
    let path = scratch.path + "/cache.json"
    #expect(symlink(target, path) == 0)
    try WholeFile.replace(path, with: Array("new".utf8), mode: 0o600)
    #expect(try RegularFile.read(target, limit: 100) == Array("keep".utf8))
    #expect(try RegularFile.read(path, limit: 100, links: .refuse) == Array("new".utf8))
  }
}
