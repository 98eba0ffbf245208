import Testing

@testable import BikiPacks

/// A misspelt value where the format allows one choice: the did-you-mean names it, and nothing
/// lists it again.
@Suite struct OneChoiceWordingTests {
  @Test func aValueWithOneChoiceIsCorrectedOnce() {
    let topic =
      #"{ "id": "t", "title": "T", "description": "T.", "category": "number", "skills": ["kana"], "favour": "sound-change", "variables": { "n": { "range": { "min": 1, "max": 20 } } }, "question": { "parts": [{ "number": "n" }], "answer": { "value": "n" } } }"#
    let messages = PackCompiler.compile(Array(PackFixtures.pack(topic: topic).utf8)).diagnostics.map(\.message)
    #expect(
      messages.contains(#"what the topic favours "sound-change" is not known; did you mean "sound-changes"?"#),
      "\(messages)")
    let far = topic.replacingOccurrences(of: "sound-change", with: "zzz")
    let farMessages = PackCompiler.compile(Array(PackFixtures.pack(topic: far).utf8)).diagnostics.map(\.message)
    #expect(
      farMessages.contains(#"what the topic favours "zzz" is not known; the only one is sound-changes"#),
      "\(farMessages)")
  }
}
