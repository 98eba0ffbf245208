import BikiCore
import Foundation
import Glibc
import Testing

@testable import BikiHost

/// Cache keys follow a file's bytes and Biki's build, on the real file system.
@Suite struct ContentKeyTests {
  static func scratch() throws -> String {
    let directory = NSTemporaryDirectory() + "biki-content-key-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test func aFileEditedInPlaceWithItsSizeAndTimeKeptGetsANewKey() throws {
    let path = try Self.scratch() + "/mine.json"
    try Data(#"{"reading": "はっぽん"}"#.utf8).write(to: URL(fileURLWithPath: path))
    var status = stat()
    #expect(stat(path, &status) == 0)
    let before = try #require(ContentKey.ofLibrary(path, build: "b1"))
    // Same size, same modification time, same inode: only the bytes differ.
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.seek(toOffset: 13)
    handle.write(Data("ぱ".utf8))
    try handle.close()
    var times = [status.st_atim, status.st_mtim]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    var after = stat()
    #expect(stat(path, &after) == 0)
    #expect(
      after.st_size == status.st_size && after.st_mtim.tv_sec == status.st_mtim.tv_sec
        && after.st_mtim.tv_nsec == status.st_mtim.tv_nsec)
    #expect(after.st_ino == status.st_ino)
    #expect(ContentKey.ofLibrary(path, build: "b1") != before)
  }

  @Test func anotherBuildOfBikiGetsAnotherKeyForTheSameBytes() throws {
    let path = try Self.scratch() + "/mine.json"
    try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
    #expect(ContentKey.ofLibrary(path, build: "build-a") == ContentKey.ofLibrary(path, build: "build-a"))
    #expect(ContentKey.ofLibrary(path, build: "build-a") != ContentKey.ofLibrary(path, build: "build-b"))
    // A FIFO or a missing file has no key, so nothing is cached for it.
    let fifo = try Self.scratch() + "/pipe.json"
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(ContentKey.ofLibrary(fifo, build: "build-a") == nil)
    #expect(ContentKey.ofLibrary(path + ".missing", build: "build-a") == nil)
  }

  /// A library read a piece at a time has the key of its bytes read whole (keys written before
  /// stay good), and one past the limit has none.
  @Test func aLargeLibraryIsKeyedByAllItsBytes() throws {
    let path = try Self.scratch() + "/libbig.so"
    var random = SystemRandomNumberGenerator()
    let bytes = (0..<(600 << 10) + 7).map { _ in UInt8.random(in: 0...255, using: &random) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(
      ContentKey.ofLibrary(path, build: "b") == "\(bytes.count):\(Fingerprint.text(StreamFingerprint.of(bytes))):b")
    #expect(ContentKey.ofLibrary(path, build: "b", limit: bytes.count - 1) == nil)
  }

  /// A pack's key is its SHA-256 digest and the build, so no crafted file of the same size and
  /// fingerprint shares it.
  @Test func aPacksKeyIsItsDigestAndTheBuild() {
    let bytes = Array("abc".utf8)
    #expect(
      ContentKey.ofPack(bytes, build: "build-a")
        == "sha256-ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad:build-a")
    #expect(ContentKey.ofPack(bytes, build: "build-b") != ContentKey.ofPack(bytes, build: "build-a"))
    #expect(ContentKey.ofPack(Array("abd".utf8), build: "build-a") != ContentKey.ofPack(bytes, build: "build-a"))
  }

  @Test func theBuildIsTheLinkersBuildIDAndDiffersBetweenExecutables() throws {
    let own = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    let identity = BuildIdentity.of(executable: own)
    #expect(identity.hasPrefix("build-"), "\(identity)")
    #expect(BuildIdentity.of(executable: own) == identity)
    // Another program is another build; a file that is not ELF is keyed by its bytes.
    #expect(BuildIdentity.of(executable: "/bin/sh") != identity)
    let text = try Self.scratch() + "/not-elf"
    try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: text))
    #expect(BuildIdentity.of(executable: text).hasPrefix("file-"))
  }
}
