import BikiCore
import BikiPractice
import Foundation

/// A learner who has practised for years: a history of 1,000,000 answers (about 200 MB). Reading
/// the whole file, as Biki did before the summary, against the summary kept beside it: the first
/// summary of such a file, the steady state after one more answer, and `biki serve` started,
/// initialized and asked for `biki/stats`, with its resident memory.
struct HistoryBench {
  let executable: String
  static let answers = 1_000_000

  func run() throws -> [String] {
    let stateHome = NSTemporaryDirectory() + "biki-bench-history-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: stateHome) }
    let path = stateHome + "/biki/history.jsonl"
    try FileManager.default.createDirectory(atPath: stateHome + "/biki", withIntermediateDirectories: true)
    try write(path)
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    var lines = ["history: \(Self.answers) answers, \(size / 1_000_000) MB"]

    func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
      let start = Date()
      let result = try body()
      return (result, Date().timeIntervalSince(start))
    }
    func check(_ stats: HistoryStats, _ what: String) {
      guard stats.total.answers + stats.total.skipped == Self.answers else {
        FileHandle.standardError.write(
          Data(
            "Error: history.\(what) counted \(stats.total.answers + stats.total.skipped) answers, not \(Self.answers)\n"
              .utf8))
        exit(1)
      }
    }
    let history = AnswerHistory.file(path: path)
    let (first, firstTime) = timed { history.summary() }
    check(first.summary.stats(), "first-summary")
    lines.append(
      "history.first-summary: \(String(format: "%.2f", firstTime)) s  [every line read once, in 4 MB chunks, to make the summary]"
    )

    // Biki before the summary: every line parsed into memory, at initialize and at each stats.
    let ((entries, _), wholeTime) = timed { history.load() }
    let wholeStats = HistoryStats.compute(entries)
    check(wholeStats, "whole-file")
    lines.append(
      "history.whole-file: \(String(format: "%.2f", wholeTime)) s  [the old way: the whole file parsed, \(entries.count) entries held]"
    )

    var serveTimes: [Double] = []
    var resident = 0
    for _ in 0..<3 {
      let start = Date()
      let server = try ServerBench.Server(executable: executable, stateHome: stateHome)
      _ = server.call(ServerBench.request(1, "initialize", #"{"capabilities":{}}"#))
      let reply = server.call(ServerBench.request(2, "biki/stats", nil))
      serveTimes.append(Date().timeIntervalSince(start))
      guard String(decoding: reply, as: UTF8.self).contains(#""answers":"#) else {
        FileHandle.standardError.write(
          Data(
            "Error: history.serve-stats: biki/stats failed: \(String(decoding: reply.prefix(300), as: UTF8.self))\n"
              .utf8))
        exit(1)
      }
      resident = max(resident, server.residentKilobytes)
      server.stop()
    }
    let median = serveTimes.sorted()[1]
    lines.append(
      "history.serve-stats: \(String(format: "%.0f", median * 1000)) ms, \(resident / 1024) MB resident  (target < 200 ms and < 60 MB: \(median < 0.2 && resident < 60 << 10 ? "met" : "NOT met"))  [spawn, initialize, biki/stats; median of 3]"
    )

    try history.append(
      HistoryEntry(
        Session.AnswerRecord(
          topicID: "counters.hon", seed: 1, skill: .kana, prompt: "8本", expected: "はっぽん", given: "はっぽん",
          isCorrect: true, seconds: 1), at: 1))
    let (_, steadyTime) = timed { history.summary() }
    lines.append(
      "history.steady-summary: \(String(format: "%.1f", steadyTime * 1000)) ms  [one answer more: only the new line is read]"
    )
    return lines
  }

  /// 1,000,000 answers over 40 topics and 400 forms each, a quarter of them wrong.
  private func write(_ path: String) throws {
    // A file that cannot be made fails the open below, which says why.
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 22)
    for index in 0..<Self.answers {
      let form = index % 400
      let entry = HistoryEntry(
        Session.AnswerRecord(
          topicID: "topic.t\(index % 40)", seed: UInt64(index), skill: .kana, prompt: "\(form)本",
          expected: "ほん\(form)", given: index % 4 == 0 ? "まちがい" : "ほん\(form)", isCorrect: index % 4 != 0,
          skipped: index % 97 == 0,
          seconds: Double(index % 9) + 0.5), at: 1_790_000_000 + Double(index) * 7.5)
      buffer += HistoryFile.line(.answer(entry))
      if buffer.count >= 1 << 22 {
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
      }
    }
    handle.write(Data(buffer))
    try handle.close()
  }
}
