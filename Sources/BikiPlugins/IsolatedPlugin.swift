import BikiSync
import Glibc

/// A plugin running in its own worker process. A crash, abort or hang there costs only the
/// question or call that met it: a batch is answered one question at a time, each within
/// `limits.question` of the one before, the questions already answered are kept, and the rest
/// are asked of a fresh worker. After `quarantineAfter` failures in a row (questions or calls that
/// crashed or hung, workers that could not start) the plugin is quarantined and not called again.
/// So a plugin that crashes on some questions costs those questions; one that crashes on every
/// question is stopped after three, however large the batch.
///
/// - Important: calls are serialised; one worker answers one request at a time.
package final class IsolatedPlugin: Sendable {
  package let path: String
  package let limits: PluginLimits
  package static let quarantineAfter = 3
  /// A worker is replaced by a fresh one (between requests, not as a failure) after this many
  /// calls: each call's record stays in the worker for good (see `CallLedger`, 96 bytes a call),
  /// so this bounds what they take to about 48 MiB of the worker's room.
  static let callsPerWorker = 500_000
  /// This plugin's `callsPerWorker` (smaller in tests).
  let callsPerWorker: Int

  private let spawner: WorkerSpawner
  private let now: @Sendable () -> Double
  /// Everything that changes, behind one lock: one worker answers one request at a time.
  private let state = Locked(State())

  private struct State {
    var worker: WorkerProcess?
    /// What the running worker has sent and was not read yet.
    var frames = WorkerFrames()
    var consecutiveFailures = 0
    var lastError: PluginError?
    /// Why the plugin did not load, as a worker said: it would say so again, so every later
    /// call fails with it and no worker is started for it.
    var loadFailure: PluginError?
    /// The running worker announced that it is crashing: by which signal, and whether just after
    /// an allocation was refused.
    var crash: (signal: Int32, allocationRefused: Bool)?
    /// Calls the running worker has been asked to make.
    var calls = 0
    /// When the running worker last answered.
    var lastAnswer = 0.0
    /// Seconds per question of the last batch asked, on `now`'s clock; nil before any.
    var pace: Double?
  }

  package init(
    path: String, spawner: WorkerSpawner, limits: PluginLimits = .standard,
    callsPerWorker: Int = IsolatedPlugin.callsPerWorker,
    now: @Sendable @escaping () -> Double
  ) {
    self.path = path
    self.spawner = spawner
    self.limits = limits
    self.callsPerWorker = callsPerWorker
    self.now = now
  }

  deinit {
    _ = state.withLock { $0.worker?.stop() }
  }

  /// How long the plugin took per question in its last batch, start-up of a worker included;
  /// nil before it was asked for any. Questions are made ahead only for a quick plugin: a slow
  /// one's readahead would keep its worker from the questions wanted now.
  var pace: Double? { state.withLock { $0.pace } }

  package var isQuarantined: Bool { state.withLock { $0.consecutiveFailures >= IsolatedPlugin.quarantineAfter } }

  /// When the plugin is quarantined, the failure that settled it (the last of the run); nil while
  /// it is in use.
  var quarantine: PluginError? {
    state.withLock { $0.consecutiveFailures >= IsolatedPlugin.quarantineAfter ? $0.lastError : nil }
  }

  /// The writes the plugin made through writers after their calls had returned, not reported
  /// before, as one error naming the calls (`plugin-writer-after-return`); nil when there were
  /// none. First waits until `grace` seconds have passed since the worker last answered, so a
  /// write that comes a little after the last call (from a thread the plugin started, say) is
  /// caught too. Only the running worker is asked: a worker stopped since took its record along.
  package func lateWrites(grace: Double) -> PluginError? {
    state.withLock { state in
      guard let process = state.worker else { return nil }
      let wait = state.lastAnswer + grace - now()
      if wait > 0 {
        var pause = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
      }
      guard process.write(WorkerProtocol.lateRequest()) else {
        _ = fail(died(process, task: "reporting late writes", &state), &state)
        return nil
      }
      guard
        let answers = try? answer(
          from: process, expecting: 1, within: limits.question, task: "reporting late writes", &state),
        case .failure(let error) = result(answers[0])
      else { return nil }
      return error
    }
  }

  /// The plugin's identity (from its descriptor) and description, as raw bytes for the validator.
  /// Describing is part of loading, and has the loading limit.
  package func describe() throws(PluginError) -> (identity: [UInt8], description: [UInt8]) {
    let results = try call(
      WorkerProtocol.describeRequest(), expecting: 2, within: limits.loading, task: "describing itself")
    return (try results[0].get(), try results[1].get())
  }

  /// The plugin's count of the topic's questions for these parameters, nil if it has none.
  package func questionCount(topic: String, parameters: [String: Int64]) throws(PluginError) -> UInt64? {
    let request = WorkerProtocol.countRequest(topic: topic, parameters: parameters)
    let bytes = try call(request, expecting: 1, within: limits.question, task: "counting questions")[0].get()
    var reader = WorkerProtocol.Reader(bytes: bytes)
    return bytes.isEmpty ? nil : reader.integer(UInt64.self)
  }

  /// One result per seed, in order. The seeds go to the worker in one request and come back one
  /// question at a time; a question that crashes or hangs the worker fails alone, and the seeds
  /// after it go to a fresh worker. When no worker can be had (the plugin is quarantined, does
  /// not load, or its worker cannot start), the seeds not yet asked fail with the reason.
  package func generate(topic: String, parameters: [String: Int64], seeds: [UInt64]) -> [Result<[UInt8], PluginError>] {
    state.withLock { state in
      let began = now()
      defer { if !seeds.isEmpty { state.pace = (now() - began) / Double(seeds.count) } }
      var results: [Result<[UInt8], PluginError>] = []
      results.reserveCapacity(seeds.count)
      while results.count < seeds.count {
        let rest = seeds[results.count...]
        let process: WorkerProcess
        do throws(PluginError) {
          process = try worker(&state)
        } catch {
          results += rest.map { seed in
            .failure(
              PluginError(path: path, kind: error.kind, reason: "question \(seed) was not asked: \(error.reason)"))
          }
          break
        }
        state.calls += rest.count
        guard process.write(WorkerProtocol.generateRequest(topic: topic, parameters: parameters, seeds: Array(rest)))
        else {
          // Gone before it was asked anything (it died between calls): no question is to blame,
          // and the failure counts, so this cannot go on for long.
          _ = fail(died(process, task: "between requests", &state), &state)
          continue
        }
        for (offset, seed) in rest.enumerated() {
          let task = "question \(seed)"
          do throws(PluginError) {
            // After the first, the worker is busy with the batch: its answers are worth gathering.
            let answer = try self.answer(
              from: process, expecting: 1, within: limits.question, task: task, gathering: offset > 0, &state)[0]
            state.consecutiveFailures = 0
            results.append(result(answer))
          } catch {
            results.append(.failure(error))
            break
          }
        }
      }
      return results
    }
  }

  /// One request, one response.
  private func call(_ frame: [UInt8], expecting count: Int, within limit: Double, task: String) throws(PluginError)
    -> [Result<[UInt8], PluginError>]
  {
    let outcome: Result<[Result<[UInt8], PluginError>], PluginError> = state.withLock { state in
      Result { () throws(PluginError) in
        let process = try worker(&state)
        state.calls += 1
        guard process.write(frame) else { throw fail(died(process, task: task, &state), &state) }
        let answers = try answer(from: process, expecting: count, within: limit, task: task, &state)
        state.consecutiveFailures = 0
        return answers.map(result)
      }
    }
    return try outcome.get()
  }

  /// The running worker, or a fresh one once it has said its plugin loaded.
  private func worker(_ state: inout State) throws(PluginError) -> WorkerProcess {
    if state.consecutiveFailures >= IsolatedPlugin.quarantineAfter {
      throw PluginError(
        path: path, kind: .quarantined,
        reason:
          "the plugin is quarantined after \(state.consecutiveFailures) failures in a row; last: \(state.lastError?.reason ?? "unknown")"
      )
    }
    if let running = state.worker {
      guard state.calls >= callsPerWorker else { return running }
      // Retired, not failed: a fresh worker starts with no records of old calls.
      _ = running.stop()
      state.worker = nil
    }
    if let loadFailure = state.loadFailure { throw loadFailure }
    let started: WorkerProcess
    switch spawner.spawn(path) {
    case .success(let process): started = process
    case .failure(let error): throw fail(error, &state)
    }
    state.worker = started
    state.frames = WorkerFrames()
    state.crash = nil
    state.calls = 0
    let hello = try answer(from: started, expecting: 1, within: limits.loading, task: "loading", &state)[0]
    if case .failure(let error) = result(hello) {
      // It would refuse the same way every time: kept, and no worker is started for it again.
      _ = started.stop()
      state.worker = nil
      state.loadFailure = error
      throw error
    }
    return started
  }

  /// The worker's next response, of `count` results, within `limit` seconds. A worker that
  /// hangs, dies or speaks nonsense is stopped, and the failure counts towards quarantine.
  private func answer(
    from process: WorkerProcess, expecting count: Int, within limit: Double, task: String, gathering: Bool = false,
    _ state: inout State
  ) throws(PluginError) -> [WorkerProtocol.Result] {
    var deadline = now() + limit
    while true {
      switch state.frames.next(from: process, deadline: deadline, gathering: gathering) {
      case .frame(let body):
        guard let results = WorkerProtocol.parseResponse(body) else {
          throw fail(
            stopWorker(
              PluginError(path: path, kind: .workerFailed, reason: "\(task): the worker's answer is malformed"), &state),
            &state)
        }
        state.lastAnswer = now()
        // The worker is crashing; how it ends comes next, once its crash report is written,
        // which may take longer than the question had left: it has the loading limit for that.
        if results.count == 1, results[0].status == WorkerProtocol.crashing, results[0].bytes.count == 2 {
          state.crash = (Int32(results[0].bytes[0]), results[0].bytes[1] == 1)
          deadline = max(deadline, now() + limits.loading)
          continue
        }
        guard results.count == count else {
          throw fail(
            stopWorker(
              PluginError(
                path: path, kind: .workerFailed,
                reason: "\(task): the worker answered \(results.count) results for \(count)"), &state),
            &state)
        }
        return results
      case .timedOut:
        if state.crash != nil { throw fail(died(process, task: task, &state), &state) }
        let reason = "\(task): the plugin did not answer within \(PluginLimits.seconds(limit)); its worker was stopped"
        throw fail(stopWorker(PluginError(path: path, kind: .timedOut, reason: reason), &state), &state)
      case .closed:
        throw fail(died(process, task: task, &state), &state)
      case .tooLarge(let length):
        throw fail(
          stopWorker(
            PluginError(path: path, kind: .workerFailed, reason: "\(task): the worker sent a \(length)-byte frame"),
            &state), &state)
      }
    }
  }

  private func result(_ answer: WorkerProtocol.Result) -> Result<[UInt8], PluginError> {
    if answer.status == 0 { return .success(answer.bytes) }
    return .failure(
      PluginError(
        path: path, kind: WorkerProtocol.kind(for: answer.status), reason: String(decoding: answer.bytes, as: UTF8.self)
      ))
  }

  /// The worker ended during `task`: how (by the signal it announced, when it did: a worker still
  /// writing its crash report when stopped ends by Biki's SIGKILL), and (only when the worker
  /// said an allocation had just been refused) that the plugin ran out of the memory it may use.
  private func died(_ process: WorkerProcess, task: String, _ state: inout State) -> PluginError {
    let ended = process.stop()
    state.worker = nil
    defer { state.crash = nil }
    guard let crash = state.crash else {
      return PluginError(path: path, kind: .crashed, reason: "\(task): the plugin's worker \(ended)")
    }
    let how = WorkerSpawner.describeExit(crash.signal)
    let memory =
      crash.allocationRefused
      ? " right after an allocation was refused (ENOMEM): a plugin may use at most \(PluginWorker.memoryLimit >> 30) GiB of memory in its worker, and one that asks for more fails like this"
      : ""
    var error = PluginError(path: path, kind: .crashed, reason: "\(task): the plugin's worker \(how)\(memory)")
    error.signal = crash.signal & 0x7F
    error.outOfMemory = crash.allocationRefused
    return error
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
