import BikiJSON
import BikiProtocol
import Testing

@testable import BikiServer

/// The "which counter?" skill over the protocol: the open question shows the thing and how
/// many, and nothing that gives the counter away.
@Suite struct WhichCounterSessionTests {
  static let pack = """
    {
      "format": 1, "id": "things", "title": "Things", "version": "1.0.0",
      "objects": [{ "name": "うさぎ", "reading": "うさぎ", "meaning": "rabbit", "counters": ["匹", "羽"] }],
      "topics": [{
        "id": "rabbits", "title": "Rabbits", "category": "counter", "skills": ["counter"],
        "variables": { "thing": { "objects": ["うさぎ"] }, "n": { "range": { "min": 3, "max": 3 } } },
        "question": { "parts": [{ "number": "n", "counter": "thing" }], "answer": { "value": "n" } }
      }]
    }
    """

  @Test func aSessionShowsTheThingAndAcceptsEveryCounterItTakes() {
    var endpoint = ServerFixtures.endpoint(
      ServerFixtures.dependencies(files: ServerFixtures.Files(["/packs/things.json": Self.pack])))
    let started = endpoint.call(
      "biki/startSession", ["topicId": "things.rabbits", "seed": 1, "mode": ["kind": "questionLimit", "limit": 3]])
    let question = started["question"] ?? .null
    #expect(question["skill"] == "counter")
    #expect(question["prompt"] == "うさぎ (うさぎ, rabbit) × 3")
    #expect(question["thing"] == ["name": "うさぎ", "reading": "うさぎ", "meaning": "rabbit", "count": 3])
    #expect(question["postfix"] == nil && question["speech"] == nil)
    #expect(!question.serialized.contains("匹") && !question.serialized.contains("びき"))

    #expect(endpoint.call("biki/answer", ["sessionId": "s1", "answer": "3"])["verdict"] == "incorrect")
    #expect(endpoint.call("biki/answer", ["sessionId": "s1", "answer": "3本"])["verdict"] == "incorrect")
    let right = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "3羽"])
    #expect(right["verdict"] == "correct")
    #expect(right["expected"]?["answer"] == "3匹 or 3羽 (さんびき or さんば)")
    // The reading shown follows the counter the learner chose.
    #expect(right["expected"]?["reading"] == "さんば")
    // And why: what each usual counter of the thing counts.
    #expect(
      right["expected"]?["counterUses"] == [
        "匹 counts small animals: cats, dogs, fish, insects", "羽 counts birds, and by old custom rabbits",
      ])
    #expect(right["standard"] == nil)
    #expect(endpoint.call("biki/answer", ["sessionId": "s1", "answer": "さんびき"])["verdict"] == "correct")
  }

  @Test func aSkillTheTopicDoesNotOfferIsRefused() {
    var endpoint = ServerFixtures.endpoint(
      ServerFixtures.dependencies(files: ServerFixtures.Files(["/packs/things.json": Self.pack])))
    let refused = endpoint.failure("biki/startSession", ["topicId": "things.rabbits", "skill": "kana"])
    #expect(refused?.code == ResponseError.invalidParams)
    #expect(refused?.message.contains("counter") == true)
  }

  /// 10本 answered じっぽん is right, and the standard じゅっぽん is named; romaji is judged as the
  /// kana it spells, and what is not romaji gets a hint.
  @Test func aRightAnswerInAnotherFormNamesTheStandardAndRomajiGetsAHint() {
    let pack = """
      {"format": 1, "id": "ten", "title": "Ten", "version": "1.0.0", "topics": [{
        "id": "hon", "title": "本", "description": "D.", "category": "counter", "skills": ["kana"],
        "variables": { "n": { "range": { "min": 10, "max": 10 } } },
        "question": { "parts": [{ "number": "n", "counter": "hon" }], "answer": { "value": "n", "postfix": "本" } } }]}
      """
    var endpoint = ServerFixtures.endpoint(
      ServerFixtures.dependencies(files: ServerFixtures.Files(["/packs/ten.json": pack])))
    _ = endpoint.call(
      "biki/startSession", ["topicId": "ten.hon", "seed": 1, "mode": ["kind": "questionLimit", "limit": 2]])
    let notRomaji = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "juppqn"])
    #expect(notRomaji["verdict"] == "incorrect")
    // Not read, so not counted.
    #expect(notRomaji["progress"]?["incorrectAttempts"] == 0)
    #expect(
      notRomaji["hint"]
        == "Type the reading in kana or in romaji (gohon, roppon, juuyokka); \"juppqn\" is not romaji Biki reads.")
    let wrong = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "juuhon"])
    #expect(wrong["verdict"] == "incorrect")
    #expect(wrong["hint"] == "You typed じゅうほん.")
    let romaji = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "juppon"])
    #expect(romaji["verdict"] == "correct")
    #expect(romaji["readAs"] == "じゅっぽん")
    let right = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "じっぽん"])
    #expect(right["verdict"] == "correct")
    #expect(right["standard"] == "じゅっぽん")
  }
}
