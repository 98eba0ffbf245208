import Glibc
import BikiSync

/// A plugin running in its own worker process. A crash, abort or hang there fails only the
/// call that met it: the next call starts a new worker and, after `quarantineAfter` failures in
/// a row, the plugin is quarantined and not called again. So a plugin that crashes on some
/// questions costs those questions; one that crashes on every call is stopped after three.
///
/// - Important: calls are serialised; one worker answers one request at a time.
package final class IsolatedPlugin: Sendable {
  package let path: String
  package let timeout: Double
  package static let quarantineAfter = 3

  private let spawner: WorkerSpawner
  private let now: @Sendable () -> Double
  /// Everything that changes, behind one lock: one worker answers one request at a time.
  private let state = Locked(State())

  private struct State {
    var worker: WorkerProcess?
    var consecutiveFailures = 0
    var lastError: PluginError?
  }

  package init(path: String, spawner: WorkerSpawner, timeout: Double = 2, now: @Sendable @escaping () -> Double) {
    self.path = path
    self.spawner = spawner
    self.timeout = timeout
    self.now = now
  }

  deinit {
    _ = state.withLock { $0.worker?.stop() }
  }

  package var isQuarantined: Bool { state.withLock { $0.consecutiveFailures >= IsolatedPlugin.quarantineAfter } }

  /// The plugin's identity (from its descriptor) and description, as raw bytes for the validator.
  package func describe() throws(PluginError) -> (identity: [UInt8], description: [UInt8]) {
    let results = try request(WorkerProtocol.describeRequest(), expecting: 2)
    return (try results[0].get(), try results[1].get())
  }

  /// The plugin's count of the topic's questions for these parameters, nil if it has none.
  package func questionCount(topic: String, parameters: [String: Int64]) throws(PluginError) -> UInt64? {
    let bytes = try request(WorkerProtocol.countRequest(topic: topic, parameters: parameters), expecting: 1)[0].get()
    var reader = WorkerProtocol.Reader(bytes: bytes)
    return bytes.isEmpty ? nil : reader.integer(UInt64.self)
  }

  /// One result per seed, in order, from a single round trip.
  package func generate(topic: String, parameters: [String: Int64], seeds: [UInt64]) throws(PluginError) -> [Result<[UInt8], PluginError>] {
    try request(WorkerProtocol.generateRequest(topic: topic, parameters: parameters, seeds: seeds), expecting: seeds.count)
  }

  private func request(_ frame: [UInt8], expecting count: Int) throws(PluginError) -> [Result<[UInt8], PluginError>] {
    let outcome: Result<[Result<[UInt8], PluginError>], PluginError> = state.withLock { state in
      Result { () throws(PluginError) in try request(frame, expecting: count, state: &state) }
    }
    return try outcome.get()
  }

  private func request(
    _ frame: [UInt8], expecting count: Int, state: inout State
  ) throws(PluginError) -> [Result<[UInt8], PluginError>] {
    if state.consecutiveFailures >= IsolatedPlugin.quarantineAfter {
      throw PluginError(
        path: path, kind: .quarantined,
        reason: "quarantined after \(state.consecutiveFailures) failures in a row; last: \(state.lastError?.reason ?? "unknown")")
    }
    let process: WorkerProcess
    if let running = state.worker {
      process = running
    } else {
      switch spawner.spawn(path) {
      case .success(let started):
        process = started
        state.worker = started
      case .failure(let error):
        throw fail(error, &state)
      }
    }
    let deadline = now() + timeout
    guard process.write(frame) else { throw fail(died(process, during: "while sending a request", &state), &state) }
    guard case .bytes(let header) = process.read(4, deadline) else { throw fail(readFailure(process, deadline: deadline, &state), &state) }
    let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
    guard length <= WorkerProtocol.maximumFrame else {
      throw fail(stopWorker(PluginError(path: path, kind: .workerFailed, reason: "the worker sent a \(length)-byte frame"), &state), &state)
    }
    guard case .bytes(let body) = process.read(length, deadline) else { throw fail(readFailure(process, deadline: deadline, &state), &state) }
    guard let results = WorkerProtocol.parseResponse(body) else {
      throw fail(stopWorker(PluginError(path: path, kind: .workerFailed, reason: "the worker's answer is malformed"), &state), &state)
    }
    state.consecutiveFailures = 0
    if results.count != count {
      // A worker whose plugin failed to load answers every request with that one error.
      if results.count == 1, results[0].status != 0 {
        throw PluginError(path: path, kind: WorkerProtocol.kind(for: results[0].status), reason: String(decoding: results[0].bytes, as: UTF8.self))
      }
      throw fail(stopWorker(PluginError(path: path, kind: .workerFailed, reason: "the worker answered \(results.count) results for \(count)"), &state), &state)
    }
    return results.map { result in
      if result.status == 0 { return .success(result.bytes) }
      return .failure(PluginError(path: path, kind: WorkerProtocol.kind(for: result.status), reason: String(decoding: result.bytes, as: UTF8.self)))
    }
  }

  private func readFailure(_ process: WorkerProcess, deadline: Double, _ state: inout State) -> PluginError {
    if now() >= deadline {
      return stopWorker(PluginError(path: path, kind: .timedOut, reason: "the plugin did not answer within \(timeout) s; its worker was stopped"), &state)
    }
    return died(process, during: "during the call", &state)
  }

  private func died(_ process: WorkerProcess, during: String, _ state: inout State) -> PluginError {
    let how = process.stop()
    state.worker = nil
    // Allocation failures past the worker's memory limit end as one of these signals.
    let memory = ["SIGSEGV", "SIGABRT", "SIGBUS", "SIGILL", "SIGTRAP"].contains { how.contains($0) }
      ? "; a worker may allocate at most \(PluginWorker.memoryLimit >> 30) GiB, and a plugin that asks for more fails like this" : ""
    return PluginError(path: path, kind: .crashed, reason: "the plugin's worker \(how) \(during)\(memory)")
  }

  private func stopWorker(_ error: PluginError, _ state: inout State) -> PluginError {
    _ = state.worker?.stop()
    state.worker = nil
    return error
  }

  private func fail(_ error: PluginError, _ state: inout State) -> PluginError {
    state.consecutiveFailures += 1
    state.lastError = error
    return error
  }
}
