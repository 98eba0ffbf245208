import Foundation
import Testing

@testable import BikiPlugins

/// What a plugin writes for a question, checked as written: each fault is refused with a
/// message that names it.
@Suite struct PluginOutputTests {
  static let era =
    #"{"display": "令和5年", "kanjiDisplay": "令和五年", "spoken": "れいわごねん", "readings": ["れいわごねん"], "answer": {"value": 2023, "postfix": "年"}}"#

  func check(_ json: String) -> Result<String, PluginError> {
    Result { () throws(PluginError) in
      try PluginTopics.question(
        Array(json.utf8), topicID: "test.eras", seed: 3, path: "/plugins/libtest.so", displayReadings: DisplayReadings()
      ).spoken
    }
  }

  @Test func aTruthfulQuestionIsServed() throws {
    #expect(try check(Self.era).get() == "れいわごねん")
  }

  @Test(arguments: [
    (#""readings": ["れいわごねん", 5]"#, "\"readings\" must be a non-empty array of strings"),
    (#""readings": []"#, "\"readings\" must be a non-empty array of strings"),
    (#""readings": "れいわごねん""#, "\"readings\" must be a non-empty array of strings"),
    (#""readings": ["れいわろくねん"]"#, "\"spoken\" (れいわごねん) is not one of its readings"),
  ])
  func readingsThatAreNotAListOfKanaAreRefused(_ readings: String, _ message: String) {
    let json = Self.era.replacingOccurrences(of: #""readings": ["れいわごねん"]"#, with: readings)
    guard case .failure(let error) = check(json) else {
      Issue.record("accepted \(json)")
      return
    }
    #expect("\(error)".contains(message), "\(error)")
    #expect("\(error)".contains("question 3 of test.eras"), "\(error)")
  }

  /// A counter Biki does not know, declared with its reading: the run that is exactly the
  /// declared number and counter shows that number, and the answer is checked against it.
  @Test func aDeclaredCounterBikiDoesNotKnowShowsItsNumber() throws {
    let building =
      #"{"display": "5号棟", "kanjiDisplay": "五号棟", "spoken": "ごごうとう", "readings": ["ごごうとう"], "answer": {"value": 5, "postfix": "号棟"}, "number": {"value": 5, "counter": "号棟", "counterReading": "ごうとう"}}"#
    #expect(try check(building).get() == "ごごうとう")
    guard
      case .failure(let error) = check(
        building.replacingOccurrences(of: #""value": 5, "postfix""#, with: #""value": 6, "postfix""#))
    else {
      Issue.record("accepted the answer 6 for 5号棟")
      return
    }
    #expect("\(error)".contains(#"the answer 6 is not the number "5号棟" shows (5)"#), "\(error)")
  }

  /// A question count past what Biki counts is named for what it is, not called "not positive".
  @Test(arguments: [("9223372036854775808", "(it is 9223372036854775808)"), ("0", "(it is 0)"), ("-3", "(it is -3)")])
  func aQuestionCountOutOfRangeIsNamed(_ count: String, _ fragment: String) {
    let backend = PluginBackend(
      path: "/plugins/libtest.so",
      describe: { () throws(PluginError) in
        (
          PluginIdentity(id: "test", name: "Test", version: "1", abiVersion: 1),
          Array(
            #"{"topics": [{"id": "eras", "title": "Eras", "category": "dateTime", "skills": ["reading"], "questionCount": \#(count), "parameters": []}]}"#
              .utf8)
        )
      },
      generate: { _, _, seeds throws(PluginError) in seeds.map { _ in .success([]) } })
    #expect {
      try PluginTopics(backend: backend)
    } throws: { error in
      "\(error)".contains("needs a questionCount, a whole number from 1 to 2^63−1 \(fragment)")
    }
  }

  @Test func brokenJSONIsNamedWithItsPlace() {
    guard case .failure(let error) = check(#"{"display": "令和5年", "#) else {
      Issue.record("accepted")
      return
    }
    #expect("\(error)".contains("a question is not valid JSON: 1:21: expected a key"), "\(error)")
  }
}
