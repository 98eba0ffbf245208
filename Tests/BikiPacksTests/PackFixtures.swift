import BikiCore
import BikiJSON
import Foundation
import Testing

@testable import BikiPacks

enum PackFixtures {
  /// The repository's TopicPacks directory.
  static let builtInDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("TopicPacks")

  static func builtIn(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: builtInDirectory.appendingPathComponent(name + ".json")))
  }

  /// The first question `topic` of a compiled pack asks that shows `display`, as a learner meets it.
  static func question(_ topic: String, showing display: String, in compilation: PackCompilation) throws -> Question {
    let generator = try #require(compilation.topics.first { $0.topic.id == topic }, "no topic \(topic)").generator()
    let found = (0..<generator.spaceSize).lazy.compactMap { try? generator.question(seed: $0) }.first {
      $0.display == display
    }
    return try #require(found, "\(topic) never shows \(display)")
  }

  static func compile(_ text: String) -> PackCompilation {
    PackCompiler.compile(Array(text.utf8))
  }

  /// A minimal valid pack around one topic's JSON.
  static func pack(topic: String, counters: String = "[]") -> String {
    """
    {
      "format": 1,
      "id": "test",
      "title": "Test",
      "version": "1.0.0",
      "counters": \(counters),
      "topics": [\(topic)]
    }
    """
  }

  static let validTopic = """
    {
      "id": "hon",
      "title": "本",
      "description": "Counting long things.",
      "category": "counter",
      "skills": ["listening", "reading", "kana"],
      "variables": { "n": { "range": { "min": 1, "max": 100 } } },
      "question": { "parts": [{ "number": "n", "counter": "本" }], "answer": { "value": "n", "postfix": "本" } }
    }
    """
}
