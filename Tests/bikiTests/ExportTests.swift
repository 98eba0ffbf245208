import Foundation
import Testing

/// `biki export anki`: what a learner missed, as a file Anki's importer reads, each row the
/// question Biki asked.
@Suite struct ExportTests {
  /// A learner who has drilled 8 questions of counters.hon, missing some: `answers` one per line.
  static func practised(_ answers: String) throws -> (home: String, environment: [String: String]) {
    let home = NSTemporaryDirectory() + "biki-export-" + UUID().uuidString
    var environment = BikiPackTests.isolated(home)
    environment["XDG_STATE_HOME"] = home + "/state"
    environment["BIKI_INPUT"] = answers
    let quiz = try BikiProcess.run(
      [], viaShell: "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz counters.hon --skill kana --seed 4 --mode questions=4",
      environment: environment)
    #expect(quiz.status == 0, "\(quiz.standardError)")
    return (home, environment)
  }

  /// The file read back as Anki reads it (Python's csv reader, tab-separated, quoted fields).
  static func rows(_ path: String) throws -> (header: [String], rows: [[String]]) {
    let script = """
      import csv, json, sys
      lines = open(sys.argv[1], encoding="utf-8").read().split("\\n")
      header = [line for line in lines if line.startswith("#")]
      body = [line for line in lines if line and not line.startswith("#")]
      json.dump({"header": header, "rows": list(csv.reader(body, delimiter="\\t"))}, sys.stdout)
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    struct Parsed: Decodable { var header: [String], rows: [[String]] }
    let parsed = try JSONDecoder().decode(Parsed.self, from: data)
    return (parsed.header, parsed.rows)
  }

  @Test func eachRowIsAQuestionMissedAndParsesBackToIt() throws {
    // Wrong then skipped, wrong then skipped, skipped, and the fourth left as the input ends.
    let (home, environment) = try Self.practised("ろくほん\nskip\nx\nskip\nskip\n")
    let output = home + "/missed.txt"
    let export = try BikiProcess.run(["export", "anki", "--output", output], environment: environment)
    #expect(export.status == 0, "\(export.standardError)")
    let (header, rows) = try Self.rows(output)
    #expect(
      header == [
        "#separator:tab", "#html:false", "#guid column:1", "#tags column:6",
        "#columns:id\tFront\tBack\tReading\tAccepted\tTags",
      ])
    #expect(
      export.standardError.hasSuffix(
        "Wrote \(rows.count) notes to \(output); in Anki: File > Import, and map Front and Back.\n"))

    // The questions as the history recorded them when they were asked.
    let history = try String(contentsOfFile: home + "/state/biki/history.jsonl", encoding: .utf8)
    var asked: [String: (question: String, expected: String, missed: Bool, forms: Set<String>)] = [:]
    for line in history.split(separator: "\n") {
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let seed = object["seed"] as? String, let question = object["question"] as? String,
        let expected = object["expected"] as? String, let correct = object["correct"] as? Bool
      else { continue }
      let forms = (object["forms"] as? [[String: String]] ?? []).compactMap { $0["id"] }
      asked[seed] = (question, expected, (asked[seed]?.missed ?? false) || !correct, Set(forms))
    }
    let missed = asked.filter(\.value.missed)
    #expect(missed.contains { !$0.value.forms.isEmpty }, "a question with a sound change was missed")
    #expect(missed.count == 3 && rows.count == missed.count, "\(rows)")
    for row in rows {
      #expect(row.count == 6)
      let id = row[0].split(separator: ":").map(String.init)
      #expect(id.count == 4 && id[0] == "biki" && id[1] == "counters.hon" && id[2] == "kana")
      let recorded = try #require(asked[id[3]], "\(row)")
      #expect(row[1] == recorded.question && row[2] == recorded.expected)
      let accepted = row[4].components(separatedBy: "、")
      #expect(accepted.first == row[3] && recorded.expected.hasPrefix(row[3]), "\(row)")
      let tags = row[5].split(separator: " ").map(String.init)
      #expect(tags.contains("biki::topic::counters.hon") && tags.contains("biki::skill::kana"))
      #expect(Set(tags.filter { $0.hasPrefix("biki::form::") }) == Set(recorded.forms.map { "biki::form::" + $0 }))
    }
    // A later export of the same history is the same file: Anki updates, never duplicates.
    let again = try BikiProcess.run(["export", "anki", "counters.hon", "--output", "-"], environment: environment)
    #expect(again.standardOutput == (try String(contentsOfFile: output, encoding: .utf8)))
  }

  @Test(arguments: [
    (["export"], 64, "Error: Name the format: anki.\n"),
    (["export", "csv", "--output", "x"], 64, "Error: Unknown format 'csv'; Biki exports for anki.\n"),
    (["export", "anki"], 64, "Error: Say where to write the notes: --output <file>.\n"),
    (
      ["export", "anki", "counters.hoon", "--output", "x"], 64,
      "Error: no topic 'counters.hoon'. Did you mean 'counters.hon'?"
    ),
    (["export", "anki", "--output", "/nonexistent/dir/x.txt"], 73, "Error: cannot write /nonexistent/dir/x.txt"),
  ])
  func mistakesAreNamed(arguments: [String], status: Int32, message: String) throws {
    let home = NSTemporaryDirectory() + "biki-export-" + UUID().uuidString
    let result = try BikiProcess.run(arguments, environment: BikiPackTests.isolated(home))
    #expect(result.status == status, "\(result.standardError)")
    #expect(result.standardError.contains(message), "\(result.standardError)")
  }
}
