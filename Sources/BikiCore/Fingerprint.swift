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
  /// Sixteen lowercase hexadecimal digits, as the install manifest, the caches' keys and the
  /// history summary write a fingerprint.
  package static func text(_ hash: UInt64) -> String {
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

/// A fingerprint of many bytes (a pack or a plugin library at start-up, a history read in
/// chunks), fed in pieces of any size: the value depends only on the bytes, not on how they were
/// split. Eight bytes at a time (FNV-1a's multiply, with a shift to mix the high bits down), in
/// four lanes side by side so the multiplies overlap: hundreds of megabytes cost tens of
/// milliseconds. Like `Fingerprint`, it notices change; it does not resist forgery.
package struct StreamFingerprint: Sendable {
  private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
    0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4, 0x9ce4_cbf2_2325_8422, 0x2325_8422_9ce4_cbf2
  )
  /// Bytes not yet making a whole 32-byte block, fewer than 32.
  private var pending: [UInt8] = []
  private(set) var count: UInt64 = 0

  package init() {}

  private static func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
    let hash = (lane ^ word) &* 0x100_0000_01b3
    return hash ^ (hash >> 29)
  }

  mutating func add(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { add($0) }
  }

  package mutating func add(_ raw: UnsafeRawBufferPointer) {
    count &+= UInt64(raw.count)
    var start = 0
    if !pending.isEmpty {
      let taken = min(32 - pending.count, raw.count)
      pending += raw[0..<taken]
      start = taken
      guard pending.count == 32 else { return }
      pending.withUnsafeBytes { block in absorb(block, blocks: 1) }
      pending.removeAll(keepingCapacity: true)
    }
    let rest = UnsafeRawBufferPointer(rebasing: raw[start...])
    let blocks = rest.count / 32
    absorb(rest, blocks: blocks)
    pending += rest[(blocks * 32)...]
  }

  private mutating func absorb(_ raw: UnsafeRawBufferPointer, blocks: Int) {
    var (a, b, c, d) = lanes
    for block in 0..<blocks {
      let offset = block * 32
      a = Self.mix(a, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      b = Self.mix(b, raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
      c = Self.mix(c, raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
      d = Self.mix(d, raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
    }
    lanes = (a, b, c, d)
  }

  /// The fingerprint of every byte added so far (more may be added after).
  package var value: UInt64 {
    var hash = Self.mix(Self.mix(Self.mix(Self.mix(count, lanes.0), lanes.1), lanes.2), lanes.3)
    for byte in pending { hash = Self.mix(hash, UInt64(byte)) }
    return hash
  }

  package static func of(_ bytes: [UInt8]) -> UInt64 {
    var stream = StreamFingerprint()
    stream.add(bytes)
    return stream.value
  }
}
