import BikiCore
import BikiFiles
import BikiJSON
import Foundation

/// The summary kept beside a history file (`history.jsonl.summary`), brought up to date from the
/// history's new lines each time it is asked for. The history stays the truth: a summary that is
/// missing, damaged, or does not match the history's bytes is made afresh from the history.
struct HistorySummaryFile {
  let historyPath: String
  var summaryPath: String { historyPath + ".summary" }

  /// Lines are read in chunks of this many bytes, so even a first summary of a long history
  /// holds only a chunk and the summary in memory.
  static let chunkSize = 4 << 20

  func current() -> (summary: HistorySummary, warnings: [String]) {
    let descriptor: Int32
    do {
      descriptor = try AnswerHistory.openRegularFile(historyPath, flags: O_RDONLY, create: false)
    } catch {
      if access(historyPath, F_OK) != 0 && errno == ENOENT { return (HistorySummary(), []) }
      return (HistorySummary(), ["\(error)"])
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return (HistorySummary(), []) }
    let size = Int(status.st_size)

    var summary = stored().flatMap { matches($0, descriptor: descriptor, size: size) ? $0 : nil } ?? HistorySummary()
    let start = summary.coveredBytes
    var warnings: [String] = []
    var pending: [UInt8] = []
    var offset = start
    while offset < size {
      let chunk = read(descriptor, at: offset, count: min(Self.chunkSize, size - offset))
      guard !chunk.isEmpty else { break }
      offset += chunk.count
      pending += chunk
      var lineStart = 0
      while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
        summary.lines += 1
        switch HistoryFile.classify(pending[lineStart..<newline]) {
        case .answer(let entry): summary.add(entry)
        case .other: break
        case .damaged: warnings.append(HistoryFile.damaged(historyPath, line: summary.lines))
        }
        summary.coveredBytes += newline + 1 - lineStart
        lineStart = newline + 1
      }
      pending.removeFirst(lineStart)
    }
    if !pending.isEmpty { warnings.append(HistoryFile.torn(historyPath, line: summary.lines + 1, bytes: pending.count)) }
    if summary.coveredBytes != start {
      summary.tailHash = tailHash(descriptor, before: summary.coveredBytes)
      store(summary)
    }
    return (summary, warnings)
  }

  /// Whether a stored summary is of this history: it covers no more than there is, and the
  /// bytes it ends on are the ones it saw.
  private func matches(_ summary: HistorySummary, descriptor: Int32, size: Int) -> Bool {
    summary.coveredBytes <= size && tailHash(descriptor, before: summary.coveredBytes) == summary.tailHash
  }

  private func tailHash(_ descriptor: Int32, before end: Int) -> UInt64 {
    let start = max(0, end - 256)
    return Fingerprint.of(read(descriptor, at: start, count: end - start))
  }

  private func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8] {
    RegularFile.read(descriptor, at: offset, count: count)
  }

  private func stored() -> HistorySummary? {
    guard let descriptor = try? AnswerHistory.openRegularFile(summaryPath, flags: O_RDONLY, create: false) else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_size < 256 << 20 else { return nil }
    let bytes = AnswerHistory.readAll(descriptor, size: Int(status.st_size))
    return (try? JSONParser.value(bytes)).flatMap { HistorySummary(json: $0) }
  }

  /// Writes the summary whole or not at all (a temporary file, then a rename), owner-only, as
  /// the history is. Failing to keep it costs time next time, nothing else.
  private func store(_ summary: HistorySummary) {
    try? WholeFile.replace(summaryPath, with: summary.json.bytes, mode: 0o600)
  }
}
