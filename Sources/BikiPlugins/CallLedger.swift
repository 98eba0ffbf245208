import BikiPluginABI
import BikiSync
import BikiWorkerSupport

/// Every call a library has made, each with a `biki_call_t` and two writers of its own, at
/// addresses no other call ever gets: a writer kept past its call can only ever reach that call,
/// which has returned, so every write through it is refused and recorded against it. Writers
/// die with their call, from whatever thread and however late they are used.
///
/// A call's record (its `biki_call_t`, its writers and which call it was) stays where it is for
/// as long as the process lives, since a plugin may hold it that long: 96 bytes a call, never
/// reused. What the call wrote is kept apart and freed when it returns. A worker is replaced
/// after `IsolatedPlugin.callsPerWorker` calls, which bounds what its records take.
///
/// - Important: the ledger is never freed either (its records point at it); a library is loaded
///   once per process, and so is its ledger made once.
final class CallLedger: @unchecked Sendable {
  /// What kind of call a record was made for, to name it.
  enum Kind: UInt32 {
    case initialize, describe, generate, count
  }

  enum Channel {
    case output, error
  }

  /// What a call wrote, taken when it returns.
  struct Written {
    var output: [UInt8] = []
    var error: [UInt8] = []
    /// The output writer refused bytes: they would have passed `PluginLibrary.maximumOutput`.
    var outputRefused = false

    /// Appends `bytes` to `channel` unless they would pass the limit; whether they were taken.
    mutating func append(_ bytes: UnsafeRawBufferPointer, to channel: Channel) -> Bool {
      switch channel {
      case .output:
        guard bytes.count <= PluginLibrary.maximumOutput - output.count else {
          outputRefused = true
          return false
        }
        output.append(contentsOf: bytes)
      case .error:
        guard bytes.count <= PluginLibrary.maximumOutput - error.count else { return false }
        error.append(contentsOf: bytes)
      }
      return true
    }
  }

  /// Which call a record was made for; written once, before the plugin sees the record.
  private struct Tail {
    var seed: UInt64
    var topic: UInt32
    var kind: UInt32
    var ledger: UnsafeRawPointer?
  }

  // A record: the call, its output writer, its error writer, its tail. The output writer's
  // context is the record's address, the error writer's that address plus one (records are
  // 16-byte aligned), so a writer copied by the plugin still finds its call.
  private static let outputOffset = MemoryLayout<biki_call_t>.stride
  private static let errorOffset = outputOffset + MemoryLayout<biki_writer_t>.stride
  private static let tailOffset = errorOffset + MemoryLayout<biki_writer_t>.stride
  static let recordSize = (tailOffset + MemoryLayout<Tail>.stride + 15) / 16 * 16
  /// Records are allocated in chunks of up to this many, growing from a few.
  private static let largestChunk = 1024
  /// Topic names kept to name calls; a plugin asked about more topics than this names the rest
  /// "another topic".
  private static let namedTopics = 4096

  /// Late writes through the writers of one call, or of calls alike (the same question asked
  /// again): what the record's tail says of it.
  private struct Late {
    var kind: UInt32
    var topic: UInt32
    var seed: UInt64
    var outputWrites = 0
    var errorWrites = 0
  }

  private struct State {
    /// Calls running now, by record address, with what they have written so far.
    var running: [UInt: Written] = [:]
    var chunk: UnsafeMutableRawPointer?
    var chunkFree = 0
    var records = 0
    var topics: [String] = []
    var topicIndex: [String: UInt32] = [:]
    /// Late writes not reported yet, by call, in the order first seen (at most `reportedCalls`).
    var late: [Late] = []
    /// Late writes not reported yet, in all (through calls beyond those in `late` too).
    var lateWrites = 0
    /// Late writes since the ledger began, reported or not.
    var lateWritesEver = 0
  }

  /// Calls (alike ones together) whose late writes are kept apart to be named; writes through
  /// the rest are counted.
  static let reportedCalls = 64
  /// Writers named one by one in a report; writes through the rest are counted.
  static let reportedWriters = 4

  private let state = Locked(State())
  private var unmanaged: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

  init() {
    // Never released: records reach the ledger through it for as long as the process lives.
    _ = Unmanaged.passRetained(self)
  }

  /// Makes a call with a fresh record; what it wrote, once it has returned and its writers are
  /// dead.
  func run(
    _ kind: Kind, topic: String = "", seed: UInt64 = 0, _ body: (UnsafePointer<biki_call_t>) -> biki_status_t
  ) -> (status: biki_status_t, written: Written) {
    let record = open(kind, topic: topic, seed: seed)
    let status = body(UnsafePointer(record.assumingMemoryBound(to: biki_call_t.self)))
    let written = state.withLock { $0.running.removeValue(forKey: UInt(bitPattern: record)) } ?? Written()
    return (status, written)
  }

  /// How many writes came through writers after their calls had returned, since the ledger began.
  var lateWriteCount: Int { state.withLock { $0.lateWritesEver } }

  /// The writes through writers after their calls had returned, not reported before, as one
  /// error naming the calls; nil when there were none. Each is reported once.
  func takeLateWrites(path: String) -> PluginError? {
    let (late, total, topics) = state.withLock { state in
      defer {
        state.late = []
        state.lateWrites = 0
      }
      return (state.late, state.lateWrites, state.topics)
    }
    guard total > 0 else { return nil }
    func writes(_ count: Int) -> String { count == 1 ? "1 write" : "\(count) writes" }
    // By what they name ("the output writer of generate for topic "ok", seed 0"), in the order
    // first met: the same question asked twice has two calls and one name.
    var groups: [(writer: String, writes: Int)] = []
    for entry in late {
      let call = name(Tail(seed: entry.seed, topic: entry.topic, kind: entry.kind, ledger: nil), topics: topics)
      for (count, channel) in [(entry.outputWrites, "output"), (entry.errorWrites, "error")] where count > 0 {
        let writer = "the \(channel) writer of \(call)"
        if let index = groups.firstIndex(where: { $0.writer == writer }) {
          groups[index].writes += count
        } else {
          groups.append((writer, count))
        }
      }
    }
    if groups.count == 1, total == groups[0].writes {
      return PluginError(
        path: path, kind: .writerAfterReturn,
        reason: "it wrote through \(groups[0].writer) after that call had returned (\(writes(total)), refused)")
    }
    let shown = groups.prefix(CallLedger.reportedWriters)
    let rest = total - shown.reduce(0) { $0 + $1.writes }
    return PluginError(
      path: path, kind: .writerAfterReturn,
      reason: "it wrote through writers after their calls had returned, \(writes(total)) in all, every one refused: "
        + shown.map { "\($0.writer) (\(writes($0.writes)))" }.joined(separator: "; ")
        + (rest > 0 ? "; and \(writes(rest)) through others" : ""))
  }

  /// "generate for topic "ok", seed 4", from what the record says of its call.
  private func name(_ tail: Tail, topics: [String]) -> String {
    let topic = tail.topic < topics.count ? "\"\(topics[Int(tail.topic)].prefix(80))\"" : "another topic"
    switch Kind(rawValue: tail.kind) {
    case .initialize?: return "init"
    case .describe?: return "describe"
    case .generate?: return "generate for topic \(topic), seed \(tail.seed)"
    case .count?: return "question_count for topic \(topic)"
    case nil: return "a call"
    }
  }

  /// A fresh record for a call about to run: its writers are live until the call returns.
  private func open(_ kind: Kind, topic: String, seed: UInt64) -> UnsafeMutableRawPointer {
    let ledger = unmanaged
    return state.withLock { state in
      let record: UnsafeMutableRawPointer
      if let chunk = state.chunk, state.chunkFree > 0 {
        record = chunk
      } else {
        let count = min(CallLedger.largestChunk, max(16, state.records))
        record = UnsafeMutableRawPointer.allocate(byteCount: count * CallLedger.recordSize, alignment: 16)
        // Kept for the process's life on purpose, which a leak checker is told.
        biki_keep_for_process_life(record)
        state.chunkFree = count
      }
      state.chunk = record + CallLedger.recordSize
      state.chunkFree -= 1
      state.records += 1
      var topicNumber = UInt32.max
      if kind == .generate || kind == .count {
        if let known = state.topicIndex[topic] {
          topicNumber = known
        } else if state.topics.count < CallLedger.namedTopics {
          topicNumber = UInt32(state.topics.count)
          state.topicIndex[topic] = topicNumber
          state.topics.append(topic)
        }
      }
      let output = record + CallLedger.outputOffset
      let error = record + CallLedger.errorOffset
      let size = UInt32(MemoryLayout<biki_writer_t>.size)
      output.initializeMemory(
        as: biki_writer_t.self, repeating: biki_writer_t(size: size, context: record, write: CallLedger.write), count: 1
      )
      error.initializeMemory(
        as: biki_writer_t.self,
        repeating: biki_writer_t(
          size: size, context: UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: record) | 1),
          write: CallLedger.write),
        count: 1)
      record.initializeMemory(
        as: biki_call_t.self,
        repeating: biki_call_t(
          size: UInt32(MemoryLayout<biki_call_t>.size),
          output: UnsafePointer(output.assumingMemoryBound(to: biki_writer_t.self)),
          error: UnsafePointer(error.assumingMemoryBound(to: biki_writer_t.self))), count: 1)
      (record + CallLedger.tailOffset).initializeMemory(
        as: Tail.self, repeating: Tail(seed: seed, topic: topicNumber, kind: kind.rawValue, ledger: ledger), count: 1)
      state.running[UInt(bitPattern: record)] = Written()
      return record
    }
  }

  /// A write through one of this ledger's writers: taken while its call runs, refused and
  /// recorded once it has returned.
  /// `bytes` is nil when what the plugin passed cannot be read (a negative size, no bytes).
  private func write(record: UInt, channel: Channel, bytes: UnsafeRawBufferPointer?) -> Bool {
    state.withLock { state in
      if state.running[record] != nil {
        guard let bytes else { return false }
        return state.running[record]?.append(bytes, to: channel) ?? false
      }
      state.lateWritesEver += 1
      state.lateWrites += 1
      guard let pointer = UnsafeRawPointer(bitPattern: record) else { return false }
      let tail = (pointer + CallLedger.tailOffset).load(as: Tail.self)
      if let index = state.late.firstIndex(where: {
        $0.kind == tail.kind && $0.topic == tail.topic && $0.seed == tail.seed
      }) {
        if channel == .output { state.late[index].outputWrites += 1 } else { state.late[index].errorWrites += 1 }
      } else if state.late.count < CallLedger.reportedCalls {
        state.late.append(
          Late(
            kind: tail.kind, topic: tail.topic, seed: tail.seed, outputWrites: channel == .output ? 1 : 0,
            errorWrites: channel == .error ? 1 : 0))
      }
      return false
    }
  }

  /// The one function behind every writer: finds the call from the writer's context.
  private static let write: @convention(c) (UnsafePointer<biki_writer_t>?, UnsafePointer<CChar>?, Int) -> Int32 = {
    writer, bytes, length in
    guard let context = writer?.pointee.context else { return 1 }
    let tagged = UInt(bitPattern: context)
    let record = tagged & ~1
    guard let pointer = UnsafeRawPointer(bitPattern: record),
      let ledger = (pointer + CallLedger.tailOffset).load(as: Tail.self).ledger
    else { return 1 }
    // A length past any buffer (a negative size_t), or bytes missing, cannot be read.
    let readable = length >= 0 && (length == 0 || bytes != nil)
    let taken = Unmanaged<CallLedger>.fromOpaque(ledger).takeUnretainedValue().write(
      record: record, channel: tagged & 1 == 0 ? .output : .error,
      bytes: readable ? UnsafeRawBufferPointer(start: bytes, count: length) : nil)
    return taken ? 0 : 1
  }
}
