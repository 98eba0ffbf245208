/// FNV-1a over bytes: tells two texts apart cheaply; a fingerprint, not a defence.
package enum Fingerprint {
  package static func of(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBufferPointer { buffer in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in buffer {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
      return hash
    }
  }
}
