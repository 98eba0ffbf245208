import Foundation
import Testing

@testable import BikiFiles

/// SHA-256 against the digests FIPS 180-4's examples and NIST's test vectors give, and the same
/// digest however the bytes arrive, on the CPU's SHA instructions and on the portable code.
@Suite struct SHA256Tests {
  struct Vector: Sendable, CustomTestStringConvertible {
    let message: [UInt8]
    let digest: String
    var testDescription: String { "\(message.count) bytes" }
  }

  static let vectors: [Vector] = [
    Vector(message: [], digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    Vector(message: Array("abc".utf8), digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    // 56 bytes: the length no longer fits in the first block's padding.
    Vector(
      message: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
      digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    Vector(
      message: Array(
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
          .utf8),
      digest: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    Vector(
      message: [UInt8](repeating: 0x61, count: 1_000_000),
      digest: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
  ]

  @Test(arguments: vectors) func digestsMatchTheStandardsVectors(_ vector: Vector) {
    #expect(SHA256.hex(vector.message) == vector.digest)
    var portable = SHA256(hardware: false)
    portable.update(vector.message)
    #expect(portable.finishHex() == vector.digest, "the portable code")
  }

  /// Where the CPU has SHA instructions (this AMD EPYC has), they give the portable code's
  /// digest for every length across a few blocks and for random bytes.
  @Test func theCPUsInstructionsGiveThePortableDigest() throws {
    // The CPU is asked as Linux reports it: sha_ni among its flags (with SSSE3 and SSE4.1).
    let flags = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
    let listed = ["sha_ni", "ssse3", "sse4_1"].allSatisfy { flags.contains(" \($0)") }
    #expect(SHA256.hasHardware == listed)
    var random = SystemRandomNumberGenerator()
    for length in Array(0...200) + [1_000, 4_096, 65_537] {
      let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      var hardware = SHA256()
      var portable = SHA256(hardware: false)
      hardware.update(message)
      portable.update(message)
      #expect(hardware.finishHex() == portable.finishHex(), "\(length) bytes")
    }
  }

  @Test func theDigestDoesNotDependOnHowTheBytesArrive() {
    let message = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let whole = SHA256.hex(message)
    for piece in [1, 3, 55, 63, 64, 65, 200] {
      var hasher = SHA256()
      var start = 0
      while start < message.count {
        let end = min(message.count, start + piece)
        hasher.update(Array(message[start..<end]))
        start = end
      }
      #expect(hasher.finishHex() == whole, "in pieces of \(piece)")
    }
  }
}
