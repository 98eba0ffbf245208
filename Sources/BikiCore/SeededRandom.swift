/// SplitMix64: small, fast, and the same sequence for the same seed on every platform, which
/// is what makes a session or a bug reproducible from its seed.
package struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
  private(set) var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return SeededRandom.mix(state)
  }

  /// The SplitMix64 finaliser: a bijection on UInt64 that scatters nearby inputs.
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Where fresh seeds come from when the caller gives none: the system's generator when live,
/// a fixed value in tests.
package struct SeedSource: Sendable {
  package var next: @Sendable () -> UInt64

  init(next: @Sendable @escaping () -> UInt64) {
    self.next = next
  }

  package static let live = SeedSource { UInt64.random(in: .min ... .max) }

  package static func constant(_ seed: UInt64) -> SeedSource {
    SeedSource { seed }
  }
}
