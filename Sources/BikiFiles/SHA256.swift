import BikiHashSupport

/// SHA-256 (FIPS 180-4), for keys that a file's author must not be able to steer: a pack shared
/// by someone else is keyed by its digest, so no crafted file can take the cache entry of one
/// that passed its check. Fast 64-bit fingerprints are kept for what only tells accidents apart.
package struct SHA256: Sendable {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
  )
  /// Bytes of a block not yet complete, kept between `update`s.
  private var pending: [UInt8] = []
  private var length: UInt64 = 0
  /// Whether blocks are compressed by the CPU's SHA instructions rather than the code below.
  private let usesHardware: Bool

  /// Whether this CPU computes SHA-256 itself.
  static let hasHardware = biki_sha256_hardware() != 0

  /// `hardware` false keeps to the portable code, for tests to hold the two to the same digests.
  init(hardware: Bool = SHA256.hasHardware) {
    usesHardware = hardware && Self.hasHardware
    pending.reserveCapacity(64)
  }

  /// The digest of `bytes`, as 64 lowercase hexadecimal digits.
  package static func hex(_ bytes: [UInt8]) -> String {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finishHex()
  }

  mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { update($0) }
  }

  mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
    length &+= UInt64(bytes.count)
    var offset = 0
    if !pending.isEmpty {
      let taken = min(64 - pending.count, bytes.count)
      pending.append(contentsOf: bytes[0..<taken])
      offset = taken
      guard pending.count == 64 else { return }
      pending.withUnsafeBufferPointer { compress($0.baseAddress.map { UnsafeRawPointer($0) }, blocks: 1) }
      pending.removeAll(keepingCapacity: true)
    }
    let whole = (bytes.count - offset) / 64
    if whole > 0, let base = bytes.baseAddress {
      compress(UnsafeRawPointer(base + offset), blocks: whole)
      offset += whole * 64
    }
    if offset < bytes.count { pending.append(contentsOf: bytes[offset...]) }
  }

  /// The digest's 32 bytes; the hasher is spent.
  mutating func finish() -> [UInt8] {
    let bits = length &* 8
    var tail: [UInt8] = [0x80]
    let used = (pending.count + 1) % 64
    tail += [UInt8](repeating: 0, count: used <= 56 ? 56 - used : 120 - used)
    for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    let counted = length
    update(tail)
    length = counted
    let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
    return words.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
  }

  mutating func finishHex() -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for byte in finish() {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  private mutating func compress(_ input: UnsafeRawPointer?, blocks: Int) {
    guard let input else { return }
    if usesHardware {
      var words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
      words.withUnsafeMutableBufferPointer { words in
        guard let base = words.baseAddress else { return }
        biki_sha256_blocks(base, input.assumingMemoryBound(to: UInt8.self), blocks)
      }
      state = (words[0], words[1], words[2], words[3], words[4], words[5], words[6], words[7])
      return
    }
    var schedule = [UInt32](repeating: 0, count: 64)
    Self.roundConstants.withUnsafeBufferPointer { k in
      schedule.withUnsafeMutableBufferPointer { w in
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        for block in 0..<blocks {
          let base = input + block * 64
          for index in 0..<16 {
            w[index] = UInt32(bigEndian: base.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
          }
          for index in 16..<64 {
            let early = w[index - 15]
            let late = w[index - 2]
            let s0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
            let s1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
            w[index] = w[index - 16] &+ s0 &+ w[index - 7] &+ s1
          }
          var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
          for index in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ k[index] &+ w[index]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
          }
          (h0, h1, h2, h3) = (h0 &+ a, h1 &+ b, h2 &+ c, h3 &+ d)
          (h4, h5, h6, h7) = (h4 &+ e, h5 &+ f, h6 &+ g, h7 &+ h)
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
      }
    }
  }
}

extension UInt32 {
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
