import BikiCore
import Testing

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

  @Test func splitMixMatchesTheReferenceSequence() {
    // Reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    var random = SeededRandom(seed: 0)
    #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(random.next() == 0x06C4_5D18_8009_454F)
  }
}
