/// The frames between Biki and a plugin worker process, over its stdin and stdout.
///
/// Binary and length-prefixed, because what a plugin writes is checked only after it arrives:
/// it may be anything, invalid UTF-8 included. All integers are little-endian.
///
///     hello    := the worker's first frame, a response of one result: status 0 and no bytes once
///                 the plugin is loaded, or the error that kept it from loading (then the worker exits)
///     request  := u32 length, then: u8 op (1 describe, 2 generate, 3 count, 4 late), and for generate:
///                 string topic, u32 parameter count, (string name, i64 value)*, u32 seed count, u64 seed*
///                 and for count: string topic, u32 parameter count, (string name, i64 value)*
///                 (its one result is the count as a u64, or empty when the plugin has no count)
///                 late asks for the writes made through writers after their calls had returned, not
///                 reported before: its one result is status 0 and no bytes when there were none,
///                 or status -110 (writer after return) and a message naming the calls
///     response := u32 length, then: u32 result count, (i32 status, u32 length, bytes)*
///     string   := u32 length, UTF-8 bytes
///     note     := a response of one result with status -111 and two bytes (the signal's number, and
///                 1 when an allocation had just been refused (ENOMEM), else 0), sent unasked by
///                 a worker crashing during a call; what ends it (the pipe closing) comes next,
///                 once the crash report is written
///
/// describe is answered with one response of two results (identity, description) and count
/// with one of one. generate is answered with one response per seed, in order, each of one
/// result and sent as soon as its question is made: the host times each question on its own,
/// and a crash or hang costs the question being made, never the ones already sent.
enum WorkerProtocol {
  static let describe: UInt8 = 1
  static let generate: UInt8 = 2
  static let count: UInt8 = 3
  static let late: UInt8 = 4
  /// Frames larger than this are refused: a batch of questions, not a flood.
  static let maximumFrame = 64 << 20
  /// The status of a note: the worker is crashing (see `note` above).
  static let crashing: Int32 = -111

  struct Result: Equatable {
    var status: Int32
    var bytes: [UInt8]
  }

  /// A failed call carries its error's kind across the pipe in the status: the plugin's own
  /// status (1…) for a failed call, or one of these negative codes.
  static func status(for kind: PluginError.Kind) -> Int32 {
    switch kind {
    case .callFailed(let status): status > 0 ? status : 4
    case .failedAfterOutput(let status): 1000 + (status > 0 && status < 1000 ? status : 4)
    case .cannotLoad: -101
    case .missingEntry: -102
    case .refusedVersion: -103
    case .incompatibleVersion: -104
    case .badDescriptor: -105
    case .badOutput: -106
    case .initFailed: -108
    case .outputTooLarge: -109
    case .writerAfterReturn: -110
    default: -107
    }
  }

  static func kind(for status: Int32) -> PluginError.Kind {
    switch status {
    case -101: .cannotLoad
    case -102: .missingEntry
    case -103: .refusedVersion
    case -104: .incompatibleVersion
    case -105: .badDescriptor
    case -106: .badOutput
    case -108: .initFailed
    case -109: .outputTooLarge
    case -110: .writerAfterReturn
    case 1001...: .failedAfterOutput(status - 1000)
    case 1...: .callFailed(status)
    default: .workerFailed
    }
  }

  static func describeRequest() -> [UInt8] {
    frame([describe])
  }

  static func lateRequest() -> [UInt8] {
    frame([late])
  }

  static func countRequest(topic: String, parameters: [String: Int64]) -> [UInt8] {
    var body: [UInt8] = [count]
    appendTopic(topic, parameters, to: &body)
    return frame(body)
  }

  private static func appendTopic(_ topic: String, _ parameters: [String: Int64], to body: inout [UInt8]) {
    appendString(topic, to: &body)
    append(UInt32(parameters.count), to: &body)
    for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
      appendString(name, to: &body)
      append(UInt64(bitPattern: value), to: &body)
    }
  }

  static func generateRequest(topic: String, parameters: [String: Int64], seeds: [UInt64]) -> [UInt8] {
    var body: [UInt8] = [generate]
    appendTopic(topic, parameters, to: &body)
    append(UInt32(seeds.count), to: &body)
    for seed in seeds { append(seed, to: &body) }
    return frame(body)
  }

  /// A response of one result, written straight into its frame: a batch sends one per question.
  static func response(_ result: Result) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16 + result.bytes.count)
    append(UInt32(12 + result.bytes.count), to: &bytes)
    append(UInt32(1), to: &bytes)
    append(UInt32(bitPattern: result.status), to: &bytes)
    append(UInt32(result.bytes.count), to: &bytes)
    bytes += result.bytes
    return bytes
  }

  static func response(_ results: [Result]) -> [UInt8] {
    var body: [UInt8] = []
    append(UInt32(results.count), to: &body)
    for result in results {
      append(UInt32(bitPattern: result.status), to: &body)
      append(UInt32(result.bytes.count), to: &body)
      body += result.bytes
    }
    return frame(body)
  }

  static func frame(_ body: [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(body.count + 4)
    append(UInt32(body.count), to: &bytes)
    return bytes + body
  }

  static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  static func appendString(_ text: String, to bytes: inout [UInt8]) {
    append(UInt32(text.utf8.count), to: &bytes)
    bytes += text.utf8
  }

  /// Reads fields from a frame body, failing (nil) rather than trapping on short input. A slice,
  /// so a frame is read where it arrived, without a copy of its own.
  struct Reader {
    let bytes: ArraySlice<UInt8>
    var offset: Int

    init(bytes: ArraySlice<UInt8>) {
      self.bytes = bytes
      offset = bytes.startIndex
    }

    init(bytes: [UInt8]) { self.init(bytes: bytes[...]) }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
      let size = MemoryLayout<T>.size
      guard offset + size <= bytes.endIndex else { return nil }
      var value: T = 0
      for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
      offset += size
      return value
    }

    mutating func data(count: Int) -> [UInt8]? {
      guard count >= 0, offset + count <= bytes.endIndex else { return nil }
      defer { offset += count }
      return Array(bytes[offset..<(offset + count)])
    }

    mutating func string() -> String? {
      guard let length = integer(UInt32.self), let data = data(count: Int(length)) else { return nil }
      return String(validating: data, as: UTF8.self)
    }
  }

  static func parseResponse(_ body: ArraySlice<UInt8>) -> [Result]? {
    var reader = Reader(bytes: body)
    guard let count = reader.integer(UInt32.self) else { return nil }
    var results: [Result] = []
    for _ in 0..<count {
      guard let status = reader.integer(UInt32.self), let length = reader.integer(UInt32.self),
        let bytes = reader.data(count: Int(length))
      else { return nil }
      results.append(Result(status: Int32(bitPattern: status), bytes: bytes))
    }
    return results
  }
}
