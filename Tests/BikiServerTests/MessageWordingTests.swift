import BikiCore
import BikiJSON
import BikiProtocol
import Testing

@testable import BikiServer

/// Error messages as a person reads them, word for word: the field at fault first, no stray
/// punctuation, nothing said twice.
@Suite struct MessageWordingTests {
  @Test func aSeedBelowZeroOrWithAFractionIsNamedAsGiven() {
    var endpoint = ServerFixtures.endpoint()
    #expect(endpoint.failure("biki/generate", ["topicId": "test.hon", "seed": -1])?.message == #""seed" must be a whole number from 0 to 2^64−1, not -1"#)
    #expect(endpoint.failure("biki/generate", ["topicId": "test.hon", "seed": .double(1.5)])?.message == #""seed" must be a whole number from 0 to 2^64−1, not 1.5"#)
  }

  @Test func aSkillTheTopicDoesNotOfferNamesTheSkillField() {
    var endpoint = ServerFixtures.endpoint()
    let error = endpoint.failure("biki/startSession", ["topicId": "test.hon", "skill": "counter"])
    #expect(error?.code == ResponseError.invalidParams)
    #expect(error?.message == #""skill": topic test.hon does not offer the counter skill; it offers: listening, reading, kana"#)
  }
}
