import Testing

@testable import BikiJapanese

/// The table of group readings is built the fast way; each entry must be what spelling the
/// group out on its own gives.
@Suite struct GroupWordsTableTests {
  @Test func theFastTableMatchesEveryGroupSpelledOut() {
    let fast = GroupWords.table
    #expect(fast.count == 10_000)
    for group in 0..<10_000 where fast[group] != GroupWords(UInt64(group)) {
      Issue.record("group \(group): \(fast[group]) is not \(GroupWords(UInt64(group)))")
      break
    }
  }
}
