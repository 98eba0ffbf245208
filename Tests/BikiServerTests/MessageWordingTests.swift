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
    #expect(
      endpoint.failure("biki/generate", ["topicId": "test.hon", "seed": -1])?.message
        == #""seed" must be a whole number from 0 to 18446744073709551615 (2^64−1), not -1"#)
    #expect(
      endpoint.failure("biki/generate", ["topicId": "test.hon", "seed": .double(1.5)])?.message
        == #""seed" must be a whole number from 0 to 18446744073709551615 (2^64−1), not 1.5"#)
  }

  @Test func aSkillTheTopicDoesNotOfferNamesTheSkillField() {
    var endpoint = ServerFixtures.endpoint()
    let error = endpoint.failure("biki/startSession", ["topicId": "test.hon", "skill": "counter"])
    #expect(error?.code == ResponseError.invalidParams)
    #expect(
      error?.message
        == #""skill": topic test.hon does not offer the counter skill; it offers: listening, reading, kana"#)
  }
}

/// `biki/generate`'s `answer` is the number typed: 36.5 for a decimal; a fraction and a time of
/// day have only their `answerDisplay` (docs/protocol.md).
@Suite struct AnswerShapeWireTests {
  static let pack = """
    { "format": 1, "id": "shapes", "title": "Shapes", "version": "1.0.0", "topics": [
      { "id": "fever", "title": "Fever", "description": "d", "category": "everyday", "skills": ["reading"],
        "variables": { "t": { "range": { "min": 365, "max": 365 } } },
        "question": { "parts": [{ "number": "t", "counter": "度", "decimals": 1 }], "answer": { "value": "t", "decimals": 1, "postfix": "度" } } },
      { "id": "third", "title": "Third", "description": "d", "category": "everyday", "skills": ["reading"],
        "variables": { "n": { "range": { "min": 1, "max": 1 } } },
        "question": { "parts": [{ "number": "n", "denominator": "3" }], "answer": { "value": "n", "denominator": "3" } } },
      { "id": "train", "title": "Train", "description": "d", "category": "everyday", "skills": ["reading"],
        "variables": { "t": { "range": { "min": 965, "max": 965 } } },
        "question": { "parts": [{ "clock": "t" }], "answer": { "value": "t", "style": "clock" } } }
    ] }
    """

  static func generated(_ topic: String) -> JSON? {
    var endpoint = ServerFixtures.endpoint(
      ServerFixtures.dependencies(files: ServerFixtures.Files(["/packs/shapes.json": pack])))
    return endpoint.call("biki/generate", ["topicId": .string("shapes." + topic), "seed": 0])["questions"]?.arrayValue?
      .first
  }

  @Test func aDecimalIsSentAsANumberAndAFractionOrATimeByItsWrittenFormOnly() {
    let fever = Self.generated("fever")
    #expect(fever?["answer"] == .double(36.5), "\(String(describing: fever))")
    #expect(fever?["answerDisplay"] == "36.5度")
    let third = Self.generated("third")
    #expect(third?["answer"] == nil)
    #expect(third?["answerDisplay"] == "3分の1")
    let train = Self.generated("train")
    #expect(train?["answer"] == nil)
    #expect(train?["answerDisplay"] == "16:05")
  }
}
