import BikiCore
import BikiPractice
import BikiProtocol
import Testing

@testable import BikiServer

/// `biki/startSession` with `{"kind": "missed"}`: what the last session missed, in rounds.
@Suite struct MissedSessionTests {
  @Test func theLastSessionsMissesComeBackInRoundsUntilRight() throws {
    let history = AnswerHistory.memory()
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(history: history))
    // A first session: the first question missed (wrong, then skipped), the second right.
    let first = endpoint.call(
      "biki/startSession", ["topicId": "test.hon", "seed": 3, "mode": ["kind": "questionLimit", "limit": 2]])
    let missedPrompt = try #require(first["question"]?["prompt"]?.stringValue)
    _ = endpoint.call("biki/answer", ["sessionId": "s1", "answer": "0"])
    _ = endpoint.call("biki/skip", ["sessionId": "s1"])
    _ = endpoint.call("biki/endSession", ["sessionId": "s1"])

    let again = endpoint.call("biki/startSession", ["mode": ["kind": "missed"]])
    #expect(again["question"]?["prompt"]?.stringValue == missedPrompt, "\(again)")
    #expect(again["topicId"] == "missed")
    let skipped = endpoint.call("biki/skip", ["sessionId": "s2"])
    // Round 2 asks it again; right at the first try ends the session.
    let expected = try #require(skipped["question"]?["prompt"]?.stringValue)
    #expect(expected == missedPrompt)
    let revealed = try #require(skipped["expected"]?["answer"], "\(skipped)")
    let done = endpoint.call("biki/answer", ["sessionId": "s2", "answer": revealed])
    #expect(done["finished"] == true, "\(done)")
    #expect(done["summary"]?["endReason"] == "allRight")
    #expect(done["summary"]?["rounds"] == 2)
  }

  @Test func withNothingMissedTheStartIsRefusedSayingSo() {
    var endpoint = ServerFixtures.endpoint(ServerFixtures.dependencies(history: .memory()))
    let error = endpoint.failure("biki/startSession", ["mode": ["kind": "missed"]])
    #expect(error?.code == ResponseError.requestFailed)
    #expect(error?.message == "no session is recorded yet, so nothing was missed in it")
    let bad = endpoint.failure("biki/startSession", ["mode": ["kind": "missed", "sinceDays": 0]])
    #expect(bad?.code == ResponseError.invalidParams)
  }
}
