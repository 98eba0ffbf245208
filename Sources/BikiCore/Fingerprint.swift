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

extension Fingerprint {
  /// A fingerprint of many bytes taken eight at a time (FNV-1a's multiply with a shift to mix
  /// the high bits down), about eight times as fast as `of`: for whole files at start-up, a
  /// plugin library being megabytes. Not the same value as `of`.
  package static func wordwise(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
    bytes.withUnsafeBytes { raw in
      let words = raw.count / 8
      for index in 0..<words {
        hash = (hash ^ raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x100_0000_01b3
        hash ^= hash >> 29
      }
      for offset in (words * 8)..<raw.count {
        hash = (hash ^ UInt64(raw[offset])) &* 0x100_0000_01b3
      }
    }
    return hash
  }
}
