import BikiCore
import BikiFiles
import BikiJSON
import Foundation

/// The summary kept beside a history file (`history.jsonl.summary`), brought up to date from the
/// history's new lines each time it is asked for. The history stays the truth: a summary that is
/// missing, damaged, edited, not consistent in itself, or not of the history's bytes (every one
/// it covers) is made afresh from the history.
struct HistorySummaryFile {
  let historyPath: String
  let practiceDay: PracticeDay
  var summaryPath: String { historyPath + ".summary" }

  /// Lines are read in chunks of this many bytes, so even a first summary of a long history
  /// holds only a chunk and the summary in memory.
  static let chunkSize = 4 << 20

  func current() -> (summary: HistorySummary, warnings: [String]) {
    let (fit, fitWarning) = FitFile(path: historyPath + ".parameters").read()
    var (summary, warnings) = current(parameters: fit?.fit.parameters ?? FSRS.defaultParameters)
    if let fitWarning { warnings.append(fitWarning) }
    return (summary, warnings)
  }

  /// The summary scheduled with `parameters` on the learner's days: one kept with other
  /// parameters, or days that begin at another hour, is made afresh.
  private func current(parameters: [Double]) -> (summary: HistorySummary, warnings: [String]) {
    let descriptor: Int32
    do {
      descriptor = try AnswerHistory.openRegularFile(historyPath, flags: O_RDONLY, create: false)
    } catch {
      if access(historyPath, F_OK) != 0 && errno == ENOENT { return (HistorySummary(), []) }
      return (HistorySummary(), ["cannot read \(historyPath): \(error.reason)"])
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return (HistorySummary(), []) }
    let size = Int(status.st_size)

    // A kept summary is used only if every history byte it covers is the byte it saw: hashing
    // them costs a fraction of parsing them, and an edit anywhere, even early and of the same
    // length, makes the summary afresh.
    var fingerprint = StreamFingerprint()
    var summary = HistorySummary(parameters: parameters, practiceDay: practiceDay)
    var keptIsCurrent = false
    if let kept = stored(), kept.scheduler.parameters == parameters, kept.practiceDay == practiceDay,
      kept.coveredBytes <= size,
      fingerprintOf(descriptor, upTo: kept.coveredBytes, into: &fingerprint) == kept.historyHash
    {
      summary = kept
      keptIsCurrent = true
    } else {
      fingerprint = StreamFingerprint()
    }
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
      pending.withUnsafeBytes { fingerprint.add(UnsafeRawBufferPointer(rebasing: $0[..<lineStart])) }
      pending.removeFirst(lineStart)
    }
    if !pending.isEmpty {
      warnings.append(HistoryFile.torn(historyPath, line: summary.lines + 1, bytes: pending.count))
    }
    if summary.coveredBytes != start || !keptIsCurrent {
      summary.historyHash = fingerprint.value
      store(summary)
    }
    return (summary, warnings)
  }

  /// Feeds the history's first `end` bytes to `fingerprint` and returns its value then.
  private func fingerprintOf(_ descriptor: Int32, upTo end: Int, into fingerprint: inout StreamFingerprint) -> UInt64 {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 8)
    defer { buffer.deallocate() }
    var offset = 0
    while offset < end {
      let got = RegularFile.read(
        descriptor, at: offset,
        into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, end - offset)]))
      guard got > 0 else { break }
      fingerprint.add(UnsafeRawBufferPointer(rebasing: buffer[..<got]))
      offset += got
    }
    return fingerprint.value
  }

  private func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8] {
    RegularFile.read(descriptor, at: offset, count: count)
  }

  private func stored() -> HistorySummary? {
    guard let descriptor = try? AnswerHistory.openRegularFile(summaryPath, flags: O_RDONLY, create: false) else {
      return nil
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_size < 256 << 20 else { return nil }
    return HistorySummary(stored: AnswerHistory.readAll(descriptor, size: Int(status.st_size)))
  }

  /// Writes the summary whole or not at all (a temporary file, then a rename), owner-only, as
  /// the history is. Failing to keep it costs time next time, nothing else.
  private func store(_ summary: HistorySummary) {
    try? WholeFile.replace(summaryPath, with: summary.stored, mode: 0o600)
  }
}
