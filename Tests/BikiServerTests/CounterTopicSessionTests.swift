import BikiJSON
import BikiProtocol
import Foundation
import Testing

@testable import BikiServer

/// The built-in counter topics over the protocol: a themed topic's session, and a 1–100 topic
/// that favours its sound changes in the order `biki/generate` and sessions share.
@Suite struct CounterTopicSessionTests {
  static let countersPack: String = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
      .appendingPathComponent("TopicPacks/counters.json")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  static func endpoint() -> Endpoint<BikiServer> {
    ServerFixtures.endpoint(
      ServerFixtures.dependencies(files: ServerFixtures.Files(["/packs/counters.json": countersPack])))
  }

  @Test func aThemedSessionAsksItsCountersAndChecksTheirReadings() {
    var endpoint = Self.endpoint()
    // Seed 2 on the travel theme asks 2泊, then 7泊.
    let started = endpoint.call(
      "biki/startSession",
      ["topicId": "counters.theme-travel", "seed": 2, "skill": "kana", "mode": ["kind": "questionLimit", "limit": 2]])
    #expect(started["question"]?["prompt"] == "2泊", "\(started)")
    #expect(endpoint.call("biki/answer", ["sessionId": "s1", "answer": "にぱく"])["verdict"] == "incorrect")
    #expect(endpoint.call("biki/answer", ["sessionId": "s1", "answer": "ニハク"])["verdict"] == "correct")
    #expect(endpoint.call("biki/answer", ["sessionId": "s1", "answer": "ななはく"])["verdict"] == "correct")
  }

  /// 本 from 1 to 100: numbers ending in 1, 3, 6, 8 or 0 change their reading (いっぽん,
  /// さんぼん, ろっぽん, はっぽん, じゅっぽん); they are half of the numbers and two thirds of
  /// what is asked.
  @Test func aTopicThatFavoursSoundChangesAsksThemMostOften() throws {
    var endpoint = Self.endpoint()
    var changed = 0
    for seed in 0..<20 {
      let questions = endpoint.call(
        "biki/generate", ["topicId": "counters.hon-100", "seed": .integer(Int64(seed)), "count": 15])["questions"]
      let displays = try #require(questions?.arrayValue).compactMap { $0["display"]?.stringValue }
      #expect(displays.count == 15 && Set(displays).count == 15, "no repeats: \(displays)")
      changed +=
        displays.filter { display in
          let number = Int(display.dropLast()) ?? 0
          return [1, 3, 6, 8, 0].contains(number % 10)
        }.count
    }
    #expect((170...230).contains(changed), "\(changed) of 300 questions were sound changes")
  }
}
