/// The order in which a session visits a topic's questions: a seeded permutation of
/// `0..<count`, so no question repeats until every one has been asked (a 12-month topic shows
/// all 12), then a fresh permutation. It costs O(1) memory whatever the size of the space,
/// so huge spaces never repeat within a cycle either.
///
/// A topic may favour some of its questions (those exercising a sound change): the generator
/// numbers them first, `0..<favoured`, and they come up twice as often as the rest. Each cycle
/// then asks every favoured question once and half of the others, the other half in the next
/// cycle, so nothing repeats within a cycle and the weighting holds however long a session runs.
///
/// Each permutation is a four-round Feistel network on the next even power of two, walked until
/// it lands inside its range ("cycle walking"), which keeps it a bijection.
package struct QuestionOrder: Hashable, Sendable, Codable {
  let count: UInt64
  let seed: UInt64
  /// How many of the questions, numbered first, come up twice as often; 0 when none do or all do.
  let favoured: UInt64
  private(set) var cycle: UInt64 = 0
  private(set) var position: UInt64 = 0
  /// Where this cycle starts, so a new cycle never opens with the question that closed the last.
  private var offset: UInt64 = 0
  private(set) var last: UInt64?
  /// In index order, for a space already put in the order it is to be asked in (a review plan).
  private(set) var isSequential = false

  /// 0, 1, 2, … and round again: for spaces whose own order is the order to ask.
  static func sequential(count: UInt64) -> QuestionOrder {
    var order = QuestionOrder(count: count, seed: 0)
    order.isSequential = true
    return order
  }

  package init(count: UInt64, seed: UInt64, favoured: UInt64 = 0) {
    precondition(count > 0, "a topic has at least one question")
    self.count = count
    self.seed = seed
    self.favoured = favoured < count ? favoured : 0
  }

  /// The index `next()` gives next, without moving on.
  package var upcoming: UInt64 {
    var copy = self
    return copy.next()
  }

  /// The next question index.
  package mutating func next() -> UInt64 {
    if isSequential {
      defer { position = (position + 1) % count }
      last = position
      return position
    }
    if position == length(of: cycle) {
      cycle += 1
      position = 0
      offset = 0
      if length(of: cycle) > 1, index(at: 0) == last { offset = 1 }
    }
    let chosen = index(at: (position + offset) % length(of: cycle))
    position += 1
    last = chosen
    return chosen
  }

  /// The questions that are not favoured, split in two halves that alternate between cycles.
  private var others: UInt64 { count - favoured }
  private func othersHalf(_ cycle: UInt64) -> (start: UInt64, length: UInt64) {
    let firstHalf = (others + 1) / 2
    return cycle % 2 == 0 ? (0, firstHalf) : (firstHalf, others - firstHalf)
  }

  /// How many questions a cycle asks.
  private func length(of cycle: UInt64) -> UInt64 {
    favoured == 0 ? count : favoured + othersHalf(cycle).length
  }

  /// The index at `position` of the current cycle.
  func index(at position: UInt64) -> UInt64 {
    let key = SeededRandom.mix(seed ^ SeededRandom.mix(cycle &+ 0x5851_F42D_4C95_7F2D))
    guard favoured > 0 else { return Self.permute(position, count: count, key: key) }
    let slot = Self.permute(position, count: length(of: cycle), key: key)
    if slot < favoured { return slot }
    // The others keep one permutation for the two cycles that share it out.
    let othersKey = SeededRandom.mix(seed ^ SeededRandom.mix((cycle / 2) &+ 0x2545_F491_4F6C_DD1D))
    let half = othersHalf(cycle)
    return favoured + Self.permute(half.start + slot - favoured, count: others, key: othersKey)
  }

  /// A seeded bijection on `0..<count`.
  private static func permute(_ position: UInt64, count: UInt64, key: UInt64) -> UInt64 {
    var bits: UInt64 = 2
    while bits < 64 && (UInt64(1) << bits) < count { bits += 2 }
    let halfBits = bits / 2
    var value = position
    repeat { value = round(value, halfBits: halfBits, key: key) } while value >= count
    return value
  }

  private static func round(_ value: UInt64, halfBits: UInt64, key: UInt64) -> UInt64 {
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
