/// The order in which a session visits a topic's questions: a seeded permutation of
/// `0..<count`, so no question repeats until every one has been asked (a 12-month topic shows
/// all 12), then a fresh permutation. It costs O(1) memory whatever the size of the space,
/// so huge spaces never repeat within a cycle either.
///
/// The permutation is a four-round Feistel network on the next even power of two, walked until
/// it lands inside the space ("cycle walking"), which keeps it a bijection on `0..<count`.
package struct QuestionOrder: Hashable, Sendable, Codable {
  package let count: UInt64
  package let seed: UInt64
  package private(set) var cycle: UInt64 = 0
  package private(set) var position: UInt64 = 0
  /// Where this cycle starts, so a new cycle never opens with the question that closed the last.
  private var offset: UInt64 = 0
  package private(set) var last: UInt64?
  private let halfBits: UInt64
  /// In index order, for a space already put in the order it is to be asked in (a review plan).
  package private(set) var isSequential = false

  /// 0, 1, 2, … and round again: for spaces whose own order is the order to ask.
  package static func sequential(count: UInt64) -> QuestionOrder {
    var order = QuestionOrder(count: count, seed: 0)
    order.isSequential = true
    return order
  }

  package init(count: UInt64, seed: UInt64) {
    precondition(count > 0, "a topic has at least one question")
    self.count = count
    self.seed = seed
    var bits: UInt64 = 2
    while bits < 64 && (UInt64(1) << bits) < count { bits += 2 }
    halfBits = bits / 2
  }

  /// The next question index.
  package mutating func next() -> UInt64 {
    if isSequential {
      defer { position = (position + 1) % count }
      last = position
      return position
    }
    if position == count {
      cycle += 1
      position = 0
      offset = 0
      if count > 1, index(at: 0) == last { offset = 1 }
    }
    let chosen = index(at: (position + offset) % count)
    position += 1
    last = chosen
    return chosen
  }

  /// The index at `position` of the current cycle.
  func index(at position: UInt64) -> UInt64 {
    let key = SeededRandom.mix(seed ^ SeededRandom.mix(cycle &+ 0x5851_F42D_4C95_7F2D))
    var value = position
    repeat { value = permute(value, key: key) } while value >= count
    return value
  }

  private func permute(_ value: UInt64, key: UInt64) -> UInt64 {
    let mask: UInt64 = halfBits >= 32 ? 0xFFFF_FFFF : (UInt64(1) << halfBits) - 1
    var left = (value >> halfBits) & mask
    var right = value & mask
    for round in UInt64(0)..<4 {
      let mixed = SeededRandom.mix((right ^ key) &+ (round &* 0x9E37_79B9_7F4A_7C15)) & mask
      (left, right) = (right, left ^ mixed)
    }
    return (left << halfBits) | right
  }
}
