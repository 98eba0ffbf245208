import BikiTestSupport
import Foundation
import Testing

/// Packs whose parts each pass alone but whose display, read whole, or answer, compared by
/// value and shape, teaches something wrong: one real pack file holding each as a topic beside a
/// good one, through `biki-pack lint`, `biki quiz` and `biki serve`. Each hostile topic is named
/// with its rule and never served; the good topic serves.
@Suite struct NumberModelPackTests {
  struct Hostile: Sendable {
    var id: String
    var variables: String
    var parts: String
    var answer: String
    var rule: String
    var fragment: String
  }

  static let hostile: [Hostile] = [
    Hostile(
      id: "derived-decimal", variables: #"{"t": {"range": {"min": 355, "max": 420}}, "u": {"derive": "t"}}"#,
      parts: #"[{"text": "体温", "reading": "たいおん"}, {"number": "t", "counter": "度", "decimals": 1}]"#,
      answer: #"{"value": "u", "postfix": "度"}"#, rule: "answer-shape",
      fragment: "shows 35.5度 (a decimal with 1 digit after the point) and its answer is 355"),
    Hostile(
      id: "spaced-decimal", variables: #"{"t": {"range": {"min": 355, "max": 420}}}"#,
      parts: #"[{"number": "t", "counter": "度", "decimals": 1}]"#, answer: #"{"value": " t", "postfix": "度"}"#,
      rule: "answer-shape", fragment: #"give the answer the part's "decimals": 1"#),
    Hostile(
      id: "other-denominator",
      variables: #"{"n": {"range": {"min": 1, "max": 4}}, "d": {"range": {"min": 5, "max": 9}}}"#,
      parts: #"[{"number": "n", "denominator": "d"}]"#, answer: #"{"value": "n", "denominator": "d+1"}"#,
      rule: "answer-shape", fragment: "its answer is 6分の1"),
    Hostile(
      id: "number-then-clock",
      variables: #"{"n": {"range": {"min": 1, "max": 1}}, "t": {"range": {"min": 66, "max": 70}}}"#,
      parts: #"[{"number": "n"}, {"clock": "t"}]"#, answer: #"{"value": "t", "style": "clock"}"#,
      rule: "parts-run-together", fragment: #"Biki reads "11:06" じゅういちじろっぷん"#),
    Hostile(
      id: "decimal-then-number",
      variables: #"{"a": {"range": {"min": 15, "max": 15}}, "b": {"range": {"min": 2, "max": 9}}}"#,
      parts: #"[{"number": "a", "decimals": 1}, {"number": "b"}]"#, answer: #"{"value": "a", "decimals": 1}"#,
      rule: "parts-run-together", fragment: #"Biki reads "1.52""#),
    Hostile(
      id: "number-then-minus",
      variables: #"{"a": {"range": {"min": 2, "max": 2}}, "b": {"range": {"min": -9, "max": -5}}}"#,
      parts: #"[{"number": "a"}, {"number": "b"}]"#, answer: #"{"value": "a"}"#,
      rule: "parts-run-together", fragment: #"Biki reads "2-9""#),
    Hostile(
      id: "thirteen-thirty-four",
      variables: #"{"a": {"range": {"min": 13, "max": 13}}, "b": {"range": {"min": 34, "max": 40}}}"#,
      parts: #"[{"number": "a"}, {"number": "b"}]"#, answer: #"{"value": "a"}"#,
      rule: "parts-run-together", fragment: #"Biki reads "1334""#),
    Hostile(
      id: "hyphen-as-no", variables: #"{"n": {"range": {"min": 1, "max": 9}}}"#,
      parts: #"[{"text": "-", "reading": "の"}, {"number": "n"}]"#, answer: #"{"value": "n"}"#,
      rule: "parts-run-together", fragment: #""-1" is not read as its parts say"#),
    Hostile(
      id: "accounting-minus", variables: #"{"n": {"range": {"min": 1, "max": 9}}}"#,
      parts: #"[{"text": "▲", "reading": "さんかく"}, {"number": "n", "counter": "度"}]"#,
      answer: #"{"value": "n", "postfix": "度"}"#, rule: "parts-run-together", fragment: "ends in '▲' U+25B2"),
    Hostile(
      id: "clock-before-midnight", variables: #"{"t": {"range": {"min": 0, "max": 10}}}"#,
      parts: #"[{"number": "t", "counter": "分"}]"#, answer: #"{"value": "t - 5", "style": "clock"}"#,
      rule: "answer-shape", fragment: "0 to 1439 minutes after midnight"),
    Hostile(
      id: "yen-below-zero", variables: #"{"n": {"range": {"min": -10, "max": 10}}}"#,
      parts: #"[{"number": "n", "counter": "円"}]"#, answer: #"{"value": "n", "postfix": "円"}"#,
      rule: "unreadable-value", fragment: "an amount of money is never below zero"),
  ]

  static var packText: String {
    let topics = hostile.map { topic in
      #"{"id": "\#(topic.id)", "title": "T", "description": "D.", "category": "number", "skills": ["listening", "kana"], "variables": \#(topic.variables), "question": {"parts": \#(topic.parts), "answer": \#(topic.answer)}}"#
    }
    let good =
      #"{"id": "good", "title": "T", "description": "D.", "category": "number", "skills": ["listening", "kana"], "variables": {"t": {"range": {"min": 300, "max": 400}}}, "question": {"parts": [{"clock": "t"}, {"text": "発", "reading": "はつ"}], "answer": {"value": "t", "style": "clock"}}}"#
    return #"{"format": 1, "id": "shapes", "title": "T", "version": "1", "topics": ["#
      + (topics + [good]).joined(separator: ",\n") + "]}"
  }

  @Test func eachIsNamedByLintAndNeverServedWhileTheGoodTopicServes() throws {
    let home = NSTemporaryDirectory() + "biki-shapes-" + UUID().uuidString
    let packs = home + "/packs"
    try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    try Self.packText.write(toFile: packs + "/shapes.json", atomically: true, encoding: .utf8)
    let environment = BikiPackTests.isolated(home)

    let lint = try BikiProcess.run(["lint", packs + "/shapes.json"], program: "biki-pack", environment: environment)
    #expect(lint.status == 1)
    let lines = lint.standardOutput.split(separator: "\n")
    for topic in Self.hostile {
      #expect(
        lines.contains { $0.contains("[\(topic.rule)]") && $0.contains(topic.fragment) },
        "\(topic.id): \(lint.standardOutput)")
    }
    #expect(lines.filter { $0.contains(": error: ") }.count == Self.hostile.count, "\(lint.standardOutput)")

    // A quiz of one question in kana on `topic`, typing `typed`.
    func quiz(_ topic: String, typing typed: String) throws -> BikiProcess.Result {
      var input = environment
      input["BIKI_INPUT"] = typed + "\n"
      return try BikiProcess.run(
        [],
        viaShell:
          "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz shapes.\(topic) --packs '\(packs)' --mode questions=1 --skill kana --seed 1",
        environment: input)
    }
    for topic in Self.hostile {
      let refused = try quiz(topic.id, typing: "skip")
      #expect(
        refused.status != 0 && !refused.standardOutput.contains("[1/1]"), "\(topic.id): \(refused.standardOutput)")
    }
    let good = try quiz("good", typing: "じゅうろくじごふんはつ")
    #expect(good.status == 0 && good.standardOutput.contains("[1/1]"), "\(good.standardOutput)\(good.standardError)")

    var requests = ServeRun.initialize
    for (offset, topic) in Self.hostile.enumerated() {
      requests += ServeRun.request(
        offset + 1, "biki/generate", #"{"topicId":"shapes.\#(topic.id)","seed":1,"count":1}"#)
    }
    requests += ServeRun.request(100, "biki/generate", #"{"topicId":"shapes.good","seed":1,"count":3}"#)
    let run = try ServeRun.run(requests + ServeRun.shutdownAndExit, arguments: ["--packs", packs], home: home)
    #expect(run.status == 0)
    for offset in Self.hostile.indices {
      #expect(run.result(offset + 1) == nil && run.errorCode(offset + 1) != nil, "\(Self.hostile[offset].id)")
    }
    let questions = run.result(100)?["questions"] as? [[String: Any]] ?? []
    #expect(questions.count == 3 && questions.allSatisfy { ($0["display"] as? String)?.hasSuffix("発") == true })
  }

  /// `biki read` reads a text as the packs teach it: a leading zero makes a code, said digit by
  /// digit as a digits part says it, and a time inside a phrase is read.
  @Test(
    arguments: [
      ("0857", "ぜろはちごなな"), ("16:05発", "じゅうろくじごふんはつ"), ("三十八・六度", "さんじゅうはちてんろくど"),
      ("1/3", "さんぶんのいち"),
    ])
  func bikiReadAgreesWithThePacks(_ text: String, _ standard: String) throws {
    let home = NSTemporaryDirectory() + "biki-read-" + UUID().uuidString
    let read = try BikiProcess.run(["read", text], environment: BikiPackTests.isolated(home))
    #expect(read.status == 0, "\(read.standardError)")
    let reading = read.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\t").last
    #expect(reading?.split(separator: "|").first.map(String.init) == standard, "\(read.standardOutput)")
  }
}
