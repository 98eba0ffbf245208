import BikiCore
import BikiJapanese
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

  static let hasReader = PythonModules.available("pyopenjtalk")

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
    try Self.check(Data(try Self.sampledQuestions().utf8), named: "catalogue")
  }

  /// Numbers as signs, news, receipts and scoreboards write them, by category, from the
  /// references of docs/readings.md ("Numbers in the wild"): category, then the text.
  static let wildTable: [(category: String, text: String)] = {
    let path = repository.appendingPathComponent("Tests/clients/wild_numbers.tsv").path
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: "\t", maxSplits: 1)
      return fields.count == 2 && !line.hasPrefix("#") ? (String(fields[0]), String(fields[1])) : nil
    }
  }()

  /// At least 90% of each category of the table is read; what is not is refused with a reason,
  /// never guessed (every refusal says why).
  @Test func nineInTenOfEachCategoryOfTheWildTableAreRead() throws {
    #expect(Self.wildTable.count > 250)
    var read: [String: (read: Int, rows: Int)] = [:]
    var refused: [String] = []
    for row in Self.wildTable {
      var tally = read[row.category, default: (0, 0)]
      tally.rows += 1
      do {
        _ = try PhraseReader().read(row.text)
        tally.read += 1
      } catch {
        refused.append("\(row.category): \(error)")
        #expect(error.description.contains(": "), "\(row.text) is refused without a reason")
      }
      read[row.category] = tally
    }
    for (category, tally) in read.sorted(by: { $0.key < $1.key }) {
      #expect(
        tally.read * 10 >= tally.rows * 9,
        "\(category): \(tally.read) of \(tally.rows) read\n\(refused.joined(separator: "\n"))")
    }
  }

  /// Every reading of the wild table agrees with the independent reader, or is adjudicated.
  @Test(.needs(hasReader, "needs pyopenjtalk-plus: python3 -m pip install pyopenjtalk-plus"))
  func theWildTableAgreesWithAnIndependentReader() throws {
    var lines: [String] = []
    for (index, row) in Self.wildTable.enumerated() {
      guard let reading = try? PhraseReader().read(row.text) else { continue }
      lines.append(
        ["wild." + row.category, String(index + 1), row.text, reading.standard, reading.all().joined(separator: "|")]
          .joined(separator: "\t"))
    }
    try Self.check(Data((lines.joined(separator: "\n") + "\n").utf8), named: "wild")
  }

  /// Runs reading_catalogue.py on `questions`: no new disagreement.
  static func check(_ questions: Data, named name: String) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("biki-\(name)-\(getpid()).tsv")
    try questions.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let questions = file
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", repository.appendingPathComponent("Tests/clients/reading_catalogue.py").path, questions.path,
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

}
