import Testing

@testable import BikiCore

@Suite struct QuestionOrderTests {
  @Test(arguments: [1, 2, 3, 5, 12, 31, 64, 100, 1000, 4097] as [UInt64])
  func everyQuestionOnceBeforeAnyRepeats(_ count: UInt64) {
    var order = QuestionOrder(count: count, seed: 42)
    for cycle in 0..<3 {
      let indices = (0..<count).map { _ in order.next() }
      #expect(Set(indices) == Set(0..<count), "cycle \(cycle)")
    }
  }

  @Test(arguments: [2, 3, 12] as [UInt64])
  func aNewCycleNeverOpensWithTheLastQuestion(_ count: UInt64) {
    for seed in UInt64(0)..<200 {
      var order = QuestionOrder(count: count, seed: seed)
      var previous: UInt64?
      for _ in 0..<(count * 6) {
        let index = order.next()
        #expect(index != previous, "seed \(seed)")
        previous = index
      }
    }
  }

  @Test func hugeSpacesDoNotRepeatInALongWindow() {
    var order = QuestionOrder(count: 1_000_000_000_000, seed: 7)
    let indices = (0..<50_000).map { _ in order.next() }
    #expect(Set(indices).count == indices.count)
    #expect(indices.allSatisfy { $0 < 1_000_000_000_000 })
  }

  @Test func theSameSeedGivesTheSameOrder() {
    var first = QuestionOrder(count: 100, seed: 9)
    var second = QuestionOrder(count: 100, seed: 9)
    var other = QuestionOrder(count: 100, seed: 10)
    let a = (0..<100).map { _ in first.next() }
    #expect(a == (0..<100).map { _ in second.next() })
    #expect(a != (0..<100).map { _ in other.next() })
  }

  @Test func theOrderIsShuffled() {
    var order = QuestionOrder(count: 1000, seed: 1)
    let indices = (0..<1000).map { _ in order.next() }
    #expect(indices != Array(0..<1000))
  }

  /// 本 from 1 to 100: the 50 numbers whose reading changes (1, 3, 6, 8, 10, 11, …) numbered first.
  @Test(arguments: [(100, 50), (100, 41), (7, 3), (2, 1), (31, 30)] as [(UInt64, UInt64)])
  func favouredQuestionsComeUpTwiceAsOftenWithoutRepeatsInACycle(_ count: UInt64, _ favoured: UInt64) {
    var order = QuestionOrder(count: count, seed: 5, favoured: favoured)
    let others = count - favoured
    var asked = [Int](repeating: 0, count: Int(count))
    for pair in 0..<4 {
      // Two cycles ask every favoured question twice and every other once.
      let first = (0..<(favoured + (others + 1) / 2)).map { _ in order.next() }
      let second = (0..<(favoured + others / 2)).map { _ in order.next() }
      #expect(Set(first).count == first.count, "cycle \(2 * pair)")
      #expect(Set(second).count == second.count, "cycle \(2 * pair + 1)")
      #expect(Set(first).isSuperset(of: 0..<favoured) && Set(second).isSuperset(of: 0..<favoured))
      #expect(Set(first).union(second) == Set(0..<count))
      for index in first + second { asked[Int(index)] += 1 }
    }
    #expect(asked[..<Int(favoured)].allSatisfy { $0 == 8 })
    #expect(asked[Int(favoured)...].allSatisfy { $0 == 4 })
  }

  @Test func aFavouredOrderNeverAsksTheSameQuestionTwiceInARow() {
    for seed in UInt64(0)..<200 {
      var order = QuestionOrder(count: 12, seed: seed, favoured: 5)
      var previous: UInt64?
      for _ in 0..<100 {
        let index = order.next()
        #expect(index != previous, "seed \(seed)")
        previous = index
      }
    }
  }

  @Test func favouringNoneOrEveryQuestionIsTheUsualOrder() {
    var usual = QuestionOrder(count: 40, seed: 3)
    var none = QuestionOrder(count: 40, seed: 3, favoured: 0)
    var every = QuestionOrder(count: 40, seed: 3, favoured: 40)
    let expected = (0..<120).map { _ in usual.next() }
    #expect((0..<120).map { _ in none.next() } == expected)
    #expect((0..<120).map { _ in every.next() } == expected)
  }

  @Test func splitMixMatchesTheReferenceSequence() {
    // Reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    var random = SeededRandom(seed: 0)
    #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(random.next() == 0x06C4_5D18_8009_454F)
  }
}
