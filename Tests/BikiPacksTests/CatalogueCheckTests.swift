import BikiCore
import BikiTestSupport
import Foundation
import Testing

@testable import BikiPacks

/// Every built-in topic, sampled, read by an independent reader (pyopenjtalk-plus): each
/// standard reading Biki teaches must agree with it, or differ in a way someone has
/// adjudicated in Tests/clients/reading_adjudications.tsv with the reference that decides it.
/// A new disagreement fails until it is adjudicated or the reading is fixed.
@Suite struct CatalogueCheckTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let hasReader =
    (try? {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["python3", "-c", "import pyopenjtalk"]
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus == 0
    }()) ?? false || ProcessInfo.processInfo.environment["BIKI_REQUIRE_CLIENTS"] == "1"

  /// Questions per topic, spread evenly over its space (all of a smaller space).
  static let perTopic: UInt64 = 60

  /// One line per question: topic, seed, display, standard reading, every reading.
  static func sampledQuestions() throws -> String {
    var lines: [String] = []
    let packs = try FileManager.default.contentsOfDirectory(atPath: PackFixtures.builtInDirectory.path)
      .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.sorted()
    for file in packs {
      let compilation = PackFixtures.compile(
        String(decoding: try PackFixtures.builtIn(String(file.dropLast(5))), as: UTF8.self))
      #expect(!compilation.topics.isEmpty, "\(file) compiles to topics")
      for topic in compilation.topics {
        let generator = try topic.generator()
        let count = min(perTopic, generator.spaceSize)
        for index in 0..<count {
          let seed =
            index.multipliedFullWidth(by: generator.spaceSize).high == 0
            ? index * generator.spaceSize / count : index
          let question = try generator.question(seed: seed)
          lines.append(
            [
              topic.topic.id, String(seed), question.display, question.reading.standard,
              question.reading.all().joined(separator: "|"),
            ]
            .joined(separator: "\t"))
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test(.needs(hasReader, "needs pyopenjtalk-plus: python3 -m pip install pyopenjtalk-plus"))
  func everyStandardReadingAgreesWithAnIndependentReader() throws {
    let questions = FileManager.default.temporaryDirectory.appendingPathComponent("biki-catalogue-\(getpid()).tsv")
    try sampledQuestionsData().write(to: questions)
    defer { try? FileManager.default.removeItem(at: questions) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", Self.repository.appendingPathComponent("Tests/clients/reading_catalogue.py").path, questions.path,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(report)")
    #expect(report.contains(" 0 new disagreements"), "\(report)")
  }

  private func sampledQuestionsData() throws -> Data {
    Data(try Self.sampledQuestions().utf8)
  }
}
