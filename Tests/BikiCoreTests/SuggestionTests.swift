import Testing

@testable import BikiCore

@Suite struct SuggestionTests {
  @Test func aSwappedPairIsOneSlip() {
    #expect(Suggestion.editDistance("hno", "hon") == 1)
    #expect(Suggestion.editDistance("tpoics", "topics") == 1)
    #expect(Suggestion.editDistance("kitten", "sitting") == 3)
  }

  /// counters.hno is one slip from counters.hon and one deletion from counters.ho (歩): the word
  /// as long as the one typed is the likelier meaning.
  @Test func amongEqualsTheSameLengthWins() {
    #expect(Suggestion.closest(to: "counters.hno", among: ["counters.ho", "counters.hon"]) == "counters.hon")
    #expect(Suggestion.closest(to: "counters.hno", among: ["counters.hon", "counters.ho"]) == "counters.hon")
    #expect(Suggestion.closest(to: "tpoics", among: ["title", "topics"]) == "topics")
  }
}
