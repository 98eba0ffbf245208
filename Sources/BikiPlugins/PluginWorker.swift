import BikiWorkerSupport
import Glibc

/// The worker side: `biki --plugin-worker PATH` loads one plugin and answers framed requests
/// on stdin until it closes. If the plugin crashes or hangs, only this process is lost.
package enum PluginWorker {
  /// The flag executables check first, before any other argument handling.
  package static let flag = "--plugin-worker"

  /// Runs the worker loop; returns the exit status. The first frame says whether the plugin
  /// loaded: the host times loading apart from questions, and a load failure is answered with
  /// its reason rather than just "it exited".
  package static func run(path: String) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    // Before any thread starts: a plugin's threads share two malloc arenas instead of reserving
    // 64 MiB of address space each, which would count against the cap below.
    biki_worker_limit_arenas(2)
    // The protocol keeps a private copy of stdout; fd 1 then points at stderr (the worker log),
    // so a plugin that prints cannot break the frames its worker sends. Close-on-exec, so a
    // program the plugin runs does not hold it.
    let protocolOutput = fcntl(1, F_DUPFD_CLOEXEC, 3)
    guard protocolOutput >= 0, dup2(2, 1) >= 0 else { return 2 }
    // When the host lets go of this worker (stops it, or ends), the worker's process group ends
    // with it, and with it whatever the plugin started.
    _ = biki_worker_watch_host()
    if limitMemory() {
      // A crash during a call is announced before the worker dies: the host names it a crash
      // however long the crash report takes, and says the plugin ran out of memory only when an
      // allocation had just been refused. The handler fills in the last two bytes.
      let note = WorkerProtocol.response(WorkerProtocol.Result(status: WorkerProtocol.crashing, bytes: [0, 0]))
      _ = note.withUnsafeBufferPointer { biki_worker_watch_crashes(protocolOutput, $0.baseAddress, $0.count) }
    }
    let plugin: PluginLibrary
    do {
      plugin = try inCall { () throws(PluginError) in try PluginLibrary(path: path) }
    } catch {
      _ = writeAll(
        WorkerProtocol.response(
          WorkerProtocol.Result(status: WorkerProtocol.status(for: error.kind), bytes: Array(error.reason.utf8))),
        to: protocolOutput)
      return 0
    }
    defer { plugin.shutDown() }
    guard writeAll(WorkerProtocol.response(WorkerProtocol.Result(status: 0, bytes: [])), to: protocolOutput) else {
      return 0
    }
    // Writes through writers after their calls had returned are refused as they come; each is
    // named when the host asks (`late`), and the log says when they happened.
    var loggedLateWrites = 0
    func logLateWrites() {
      let count = plugin.lateWriteCount
      guard count > loggedLateWrites else { return }
      let writes = count - loggedLateWrites == 1 ? "1 write" : "\(count - loggedLateWrites) writes"
      let line = "biki worker: \(path): \(writes) through writers after their calls had returned, refused\n"
      _ = writeAll(Array(line.utf8), to: 2)
      loggedLateWrites = count
    }
    while let body = readFrame() {
      logLateWrites()
      var reader = WorkerProtocol.Reader(bytes: body)
      switch reader.integer(UInt8.self) {
      case WorkerProtocol.describe?:
        let results = [
          WorkerProtocol.Result(status: 0, bytes: PluginIdentity(plugin).json),
          outcome { () throws(PluginError) in try plugin.describe() },
        ]
        guard writeAll(WorkerProtocol.response(results), to: protocolOutput) else { return 0 }
      case WorkerProtocol.generate?:
        guard let (topic, parameters) = parseTopic(&reader), let seeds = parseSeeds(&reader) else { return 2 }
        // Each question is sent as soon as it is made, so the host keeps it if a later one crashes.
        for seed in seeds {
          let result = outcome { () throws(PluginError) in
            try plugin.generate(topic: topic, parameters: parameters, seed: seed)
          }
          guard writeAll(WorkerProtocol.response(result), to: protocolOutput) else { return 0 }
        }
      case WorkerProtocol.count?:
        guard let (topic, parameters) = parseTopic(&reader) else { return 2 }
        let result = outcome { () throws(PluginError) in
          guard let count = try plugin.questionCount(topic: topic, parameters: parameters) else { return [] }
          var bytes: [UInt8] = []
          WorkerProtocol.append(count, to: &bytes)
          return bytes
        }
        guard writeAll(WorkerProtocol.response(result), to: protocolOutput) else { return 0 }
      case WorkerProtocol.late?:
        let late = plugin.takeLateWrites()
        let result = WorkerProtocol.Result(
          status: late.map { WorkerProtocol.status(for: $0.kind) } ?? 0, bytes: Array((late?.reason ?? "").utf8))
        guard writeAll(WorkerProtocol.response(result), to: protocolOutput) else { return 0 }
      default:
        return 2
      }
    }
    logLateWrites()
    return 0
  }

  /// The memory a plugin may use in its worker: address space beyond what the worker itself
  /// holds once started (the Swift runtime and its libraries: about 73 MiB, see
  /// docs/reliability.md), whether mapped private or shared, touched or not.
  static let memoryLimit = 1 << 30
  /// Room on top of `memoryLimit` for what the worker needs as it runs: frame buffers, the
  /// records of its calls (see `CallLedger`), the thread that watches for the host's end.
  static let workingRoom = 64 << 20

  /// Caps the worker's address space (RLIMIT_AS) at what it holds now plus `memoryLimit` and
  /// `workingRoom`, so a plugin that allocates or maps gigabytes, shared mappings included,
  /// fails in its own process instead of starving the machine. Measured here rather than fixed:
  /// the runtime's size differs between builds and systems, and the plugin's share must not.
  /// Returns whether the cap is set.
  private static func limitMemory() -> Bool {
    // A sanitizer's runtime (ThreadSanitizer, AddressSanitizer) maps terabytes of shadow memory
    // and could not start under the limit; sanitized builds run their workers unlimited.
    guard dlsym(nil, "__tsan_init") == nil, dlsym(nil, "__asan_init") == nil, let held = addressSpaceHeld() else {
      return false
    }
    let (cap, overflow) = held.addingReportingOverflow(memoryLimit + workingRoom)
    guard !overflow else { return false }
    var limit = rlimit(rlim_cur: rlim_t(cap), rlim_max: rlim_t(cap))
    return setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0
  }

  /// This process's address space in bytes (the first field of /proc/self/statm, in pages).
  static func addressSpaceHeld() -> Int? {
    let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0, let pages = Int(String(decoding: buffer[..<count].prefix { $0 != 0x20 }, as: UTF8.self)) else {
      return nil
    }
    let (bytes, overflow) = pages.multipliedReportingOverflow(by: sysconf(Int32(_SC_PAGESIZE)))
    return overflow ? nil : bytes
  }

  /// Runs a call into the plugin, marked as one for the crash handler.
  private static func inCall<T>(_ body: () throws(PluginError) -> T) throws(PluginError) -> T {
    biki_worker_call_begins()
    defer { biki_worker_call_ends() }
    return try body()
  }

  private static func outcome(_ call: () throws(PluginError) -> [UInt8]) -> WorkerProtocol.Result {
    do {
      return WorkerProtocol.Result(status: 0, bytes: try inCall(call))
    } catch {
      return WorkerProtocol.Result(status: WorkerProtocol.status(for: error.kind), bytes: Array(error.reason.utf8))
    }
  }

  private static func parseTopic(_ reader: inout WorkerProtocol.Reader) -> (topic: String, parameters: [String: Int64])?
  {
    guard let topic = reader.string(), let parameterCount = reader.integer(UInt32.self) else { return nil }
    var parameters: [String: Int64] = [:]
    for _ in 0..<parameterCount {
      guard let name = reader.string(), let value = reader.integer(UInt64.self) else { return nil }
      parameters[name] = Int64(bitPattern: value)
    }
    return (topic, parameters)
  }

  private static func parseSeeds(_ reader: inout WorkerProtocol.Reader) -> [UInt64]? {
    guard let seedCount = reader.integer(UInt32.self) else { return nil }
    var seeds: [UInt64] = []
    for _ in 0..<seedCount {
      guard let seed = reader.integer(UInt64.self) else { return nil }
      seeds.append(seed)
    }
    return seeds
  }

  private static func readFrame() -> [UInt8]? {
    guard let header = readExactly(4) else { return nil }
    let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
    guard length <= WorkerProtocol.maximumFrame else { return nil }
    return readExactly(length)
  }

  private static func readExactly(_ count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = bytes.withUnsafeMutableBytes { read(0, $0.baseAddress! + filled, count - filled) }
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { return nil }
      filled += got
    }
    return bytes
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      written += count
    }
    return true
  }
}
