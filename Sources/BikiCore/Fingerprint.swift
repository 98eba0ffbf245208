/// FNV-1a over bytes: tells two texts apart cheaply (a topic list, a file a user edited since
/// Biki installed it); a fingerprint, not a defence against forged content. Bytes may come in
/// pieces, as a file read in chunks: the value is the same as of them whole.
package struct Fingerprint: Sendable {
  package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  package init() {}

  package mutating func add(_ bytes: [UInt8]) {
    var hash = value
    bytes.withUnsafeBufferPointer { buffer in
      for byte in buffer {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
    }
    value = hash
  }

  package static func of(_ bytes: [UInt8]) -> UInt64 {
    var fingerprint = Fingerprint()
    fingerprint.add(bytes)
    return fingerprint.value
  }
}
