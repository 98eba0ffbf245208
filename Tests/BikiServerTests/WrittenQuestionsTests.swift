import BikiJSON
import BikiProtocol
import Testing

@testable import BikiServer

/// A pack topic's questions are written once and sent again as their bytes: the answer is the
/// same whether a question was kept or made, and the store stays bounded.
@Suite struct WrittenQuestionsTests {
  /// Every place of a topic, asked for twice in one request and again in another: the same
  /// questions, the same bytes, whichever were kept.
  @Test func aKeptQuestionIsSentAsItWasWritten() {
    var endpoint = ServerFixtures.endpoint()
    let first = endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 3, "count": 4])
    let again = endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 3, "count": 4])
    #expect(first == again)
    #expect(first["questions"]?.arrayValue?.count == 4)
    // A count reaching past questions kept: the kept ones and the new ones in order.
    let longer = endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 3, "count": 9])
    #expect(longer["questions"]?.arrayValue?.prefix(4).map { $0 } == first["questions"]?.arrayValue?.map { $0 })
    // The same seed with parameters is made afresh, and differs where the parameter says.
    let made = endpoint.call("biki/generate", ["topicId": "test.hon", "seed": 3, "count": 4, "params": ["max": 5]])
    #expect(made["questions"]?.arrayValue?.count == 4)
  }

  @Test func theStoreStartsOverPastItsCapacity() {
    let store = WrittenQuestions()
    store.keep((0..<UInt64(WrittenQuestions.capacity)).map { ($0, [UInt8(truncatingIfNeeded: $0)]) })
    #expect(store.count == WrittenQuestions.capacity)
    #expect(store.pieces(at: [5])[0] == [5])
    #expect(store.answer(at: 5) == Array(#"{"questions":["#.utf8) + [5] + Array("]}".utf8))
    store.keep([(99_999, [1])])
    #expect(store.count == 1)
    #expect(store.pieces(at: [5, 99_999]) == [nil, [1]])
    #expect(store.answer(at: 5) == nil)
  }
}
