import Glibc

/// The worker side: `biki --plugin-worker PATH` loads one plugin and answers framed requests
/// on stdin until it closes. If the plugin crashes or hangs, only this process is lost.
public enum PluginWorker {
  /// The flag executables check first, before any other argument handling.
  public static let flag = "--plugin-worker"

  /// Runs the worker loop; returns the exit status. A load failure is answered to the first
  /// request as an error, so the host reports why rather than just "it exited".
  public static func run(path: String) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let library: Result<PluginLibrary, PluginError>
    do {
      library = .success(try PluginLibrary(path: path))
    } catch {
      library = .failure(error)
    }
    while let body = readFrame() {
      var reader = WorkerProtocol.Reader(bytes: body)
      let results: [WorkerProtocol.Result]
      switch (library, reader.integer(UInt8.self)) {
      case (.failure(let error), _):
        results = [WorkerProtocol.Result(status: WorkerProtocol.status(for: error.kind), bytes: Array(error.reason.utf8))]
      case (.success(let plugin), WorkerProtocol.describe?):
        results = [WorkerProtocol.Result(status: 0, bytes: PluginIdentity(plugin).json), outcome { () throws(PluginError) in try plugin.describe() }]
      case (.success(let plugin), WorkerProtocol.generate?):
        guard let request = parseGenerate(&reader) else { return 2 }
        results = request.seeds.map { seed in
          outcome { () throws(PluginError) in try plugin.generate(topic: request.topic, parameters: request.parameters, seed: seed) }
        }
      default:
        return 2
      }
      guard writeAll(WorkerProtocol.response(results)) else { return 0 }
    }
    return 0
  }

  private static func outcome(_ call: () throws(PluginError) -> [UInt8]) -> WorkerProtocol.Result {
    do {
      return WorkerProtocol.Result(status: 0, bytes: try call())
    } catch {
      return WorkerProtocol.Result(status: WorkerProtocol.status(for: error.kind), bytes: Array(error.reason.utf8))
    }
  }

  private static func parseGenerate(_ reader: inout WorkerProtocol.Reader) -> (topic: String, parameters: [String: Int64], seeds: [UInt64])? {
    guard let topic = reader.string(), let parameterCount = reader.integer(UInt32.self) else { return nil }
    var parameters: [String: Int64] = [:]
    for _ in 0..<parameterCount {
      guard let name = reader.string(), let value = reader.integer(UInt64.self) else { return nil }
      parameters[name] = Int64(bitPattern: value)
    }
    guard let seedCount = reader.integer(UInt32.self) else { return nil }
    var seeds: [UInt64] = []
    for _ in 0..<seedCount {
      guard let seed = reader.integer(UInt64.self) else { return nil }
      seeds.append(seed)
    }
    return (topic, parameters, seeds)
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

  private static func writeAll(_ bytes: [UInt8]) -> Bool {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { write(1, $0.baseAddress! + written, bytes.count - written) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      written += count
    }
    return true
  }
}

