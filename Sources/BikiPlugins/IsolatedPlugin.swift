import Glibc

/// A plugin running in its own worker process. A crash, abort or hang there fails only the
/// call that met it: the worker is restarted for later calls (after a short backoff) and, after
/// `quarantineAfter` failures in a row, the plugin is quarantined and not called again.
///
/// - Important: calls are serialised; one worker answers one request at a time.
public final class IsolatedPlugin: @unchecked Sendable {
  public let path: String
  public let timeout: Double
  public static let quarantineAfter = 3

  private let spawner: WorkerSpawner
  private let now: @Sendable () -> Double
  private var lock = pthread_mutex_t()
  private var worker: WorkerProcess?
  private var consecutiveFailures = 0
  private var lastFailure: Double = -.infinity
  private var lastError: PluginError?

  public init(path: String, spawner: WorkerSpawner, timeout: Double = 2, now: @Sendable @escaping () -> Double) {
    self.path = path
    self.spawner = spawner
    self.timeout = timeout
    self.now = now
    pthread_mutex_init(&lock, nil)
  }

  deinit {
    _ = worker?.stop()
    pthread_mutex_destroy(&lock)
  }

  public var isQuarantined: Bool { withLock { consecutiveFailures >= IsolatedPlugin.quarantineAfter } }

  /// The plugin's description, as raw bytes for the validator.
  public func describe() throws(PluginError) -> [UInt8] {
    let results = try request(WorkerProtocol.describeRequest(), expecting: 1)
    return try results[0].get()
  }

  /// One result per seed, in order, from a single round trip.
  public func generate(topic: String, parameters: [String: Int64], seeds: [UInt64]) throws(PluginError) -> [Result<[UInt8], PluginError>] {
    try request(WorkerProtocol.generateRequest(topic: topic, parameters: parameters, seeds: seeds), expecting: seeds.count)
  }

  private func request(_ frame: [UInt8], expecting count: Int) throws(PluginError) -> [Result<[UInt8], PluginError>] {
    pthread_mutex_lock(&lock)
    defer { pthread_mutex_unlock(&lock) }
    if consecutiveFailures >= IsolatedPlugin.quarantineAfter {
      throw PluginError(
        path: path, kind: .quarantined,
        reason: "quarantined after \(consecutiveFailures) failures in a row; last: \(lastError?.reason ?? "unknown")")
    }
    let backoff = min(0.05 * Double(1 << max(0, consecutiveFailures - 1)), 2)
    if consecutiveFailures > 0, now() - lastFailure < backoff {
      throw PluginError(path: path, kind: .workerFailed, reason: "restarting after a failure (\(lastError?.reason ?? "")); try again shortly")
    }
    let process: WorkerProcess
    if let running = worker {
      process = running
    } else {
      switch spawner.spawn(path) {
      case .success(let started):
        process = started
        worker = started
      case .failure(let error):
        throw fail(error)
      }
    }
    let deadline = now() + timeout
    guard process.write(frame) else { throw fail(died(process, during: "while sending a request")) }
    guard case .bytes(let header) = process.read(4, deadline) else { throw fail(readFailure(process, deadline: deadline)) }
    let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
    guard length <= WorkerProtocol.maximumFrame else {
      throw fail(stopWorker(PluginError(path: path, kind: .workerFailed, reason: "the worker sent a \(length)-byte frame")))
    }
    guard case .bytes(let body) = process.read(length, deadline) else { throw fail(readFailure(process, deadline: deadline)) }
    guard let results = WorkerProtocol.parseResponse(body), results.count == count else {
      throw fail(stopWorker(PluginError(path: path, kind: .workerFailed, reason: "the worker's answer is malformed")))
    }
    consecutiveFailures = 0
    return results.map { result in
      if result.status == 0 { return .success(result.bytes) }
      return .failure(PluginError(path: path, kind: .callFailed(4), reason: String(decoding: result.bytes, as: UTF8.self)))
    }
  }

  private func readFailure(_ process: WorkerProcess, deadline: Double) -> PluginError {
    if now() >= deadline {
      return stopWorker(PluginError(path: path, kind: .timedOut, reason: "the plugin did not answer within \(timeout) s; its worker was stopped"))
    }
    return died(process, during: "during the call")
  }

  private func died(_ process: WorkerProcess, during: String) -> PluginError {
    let how = process.stop()
    worker = nil
    return PluginError(path: path, kind: .crashed, reason: "the plugin's worker \(how) \(during)")
  }

  private func stopWorker(_ error: PluginError) -> PluginError {
    _ = worker?.stop()
    worker = nil
    return error
  }

  private func fail(_ error: PluginError) -> PluginError {
    consecutiveFailures += 1
    lastFailure = now()
    lastError = error
    return error
  }

  private func withLock<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(&lock)
    defer { pthread_mutex_unlock(&lock) }
    return body()
  }
}
