import BikiCore
import BikiPluginABI
import BikiSync
import Glibc

/// A plugin library loaded into this process, its descriptor checked and its `init` called.
///
/// - Important: the library is opened with `RTLD_NODELETE` and never closed: a library that
///   holds Swift metadata cannot be safely unloaded, and a plugin is loaded once per process.
///   For the same reason the host struct it was given is never freed.
package final class PluginLibrary: @unchecked Sendable {
  package let path: String
  package let id: String
  package let name: String
  package let version: String
  package let isThreadSafe: Bool
  /// The plugin's own ABI version.
  package let abiVersion: UInt32
  /// The size of the plugin's descriptor: larger than this host's when built against a later header.
  package let descriptorSize: UInt32
  private let describeFunction: @convention(c) (UnsafePointer<biki_call_t>?) -> biki_status_t
  private let generateFunction:
    @convention(c) (UnsafePointer<CChar>?, UnsafePointer<biki_parameter_list_t>?, UInt64, UnsafePointer<biki_call_t>?) -> biki_status_t
  private let countFunction:
    (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<biki_parameter_list_t>?, UnsafeMutablePointer<UInt64>?, UnsafePointer<biki_call_t>?) ->
      biki_status_t)?
  private let deinitFunction: (@convention(c) () -> Void)?
  /// Serialises calls into plugins that are not thread-safe, as the ABI promises them.
  private let lock = Locked(())
  /// The writers calls use, reused in turn: a record is closed between its calls, so a plugin
  /// that writes through an old writer is caught (and refused) instead of writing into freed
  /// memory or into another call's output.
  private let records = Locked(CallRecords())
  private let deinitialized = Locked(false)

  /// The ABI version this host speaks.
  package static let hostABIVersion = UInt32(BIKI_PLUGIN_ABI_VERSION)
  /// Output larger than this is refused: a question is a few hundred bytes.
  package static let maximumOutput = 1 << 20
  /// The smallest descriptor v1 accepts: everything through `question_count`.
  package static let minimumDescriptorSize =
    MemoryLayout<biki_plugin_descriptor_t>.offset(of: \.question_count)! + MemoryLayout<UnsafeRawPointer?>.size

  /// Opens `path`, checks what its entry returns and calls its `init`; every failure names the
  /// file and why.
  package init(path: String) throws(PluginError) {
    self.path = path
    dlerror()
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
      let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
      throw PluginError(path: path, kind: .cannotLoad, reason: reason)
    }
    guard let symbol = dlsym(handle, BIKI_PLUGIN_ENTRY_SYMBOL) else {
      throw PluginError(path: path, kind: .missingEntry, reason: "it does not export \(BIKI_PLUGIN_ENTRY_SYMBOL)")
    }
    let host = HostServices.host(version: BikiVersion.current)
    let entry = unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<biki_host_t>?) -> UnsafePointer<biki_plugin_descriptor_t>?).self)
    guard let pointer = entry(host) else {
      throw PluginError(path: path, kind: .refusedVersion, reason: "its entry refused this host (ABI version \(PluginLibrary.hostABIVersion))")
    }
    // Size and version first: what follows is read only as far as `size` covers it.
    let raw = UnsafeRawPointer(pointer)
    let size = raw.load(as: UInt32.self)
    let version = raw.load(fromByteOffset: 4, as: UInt32.self)
    guard biki_plugin_abi_is_compatible(version, PluginLibrary.hostABIVersion) != 0 else {
      throw PluginError(
        path: path, kind: .incompatibleVersion,
        reason: "it was built for ABI version \(version); this host speaks version \(PluginLibrary.hostABIVersion)")
    }
    guard Int(size) >= PluginLibrary.minimumDescriptorSize else {
      throw PluginError(
        path: path, kind: .badDescriptor,
        reason: "its descriptor is \(size) bytes, smaller than the \(PluginLibrary.minimumDescriptorSize) of ABI version 1")
    }
    // Every field this host knows lies within v1's size, which `size` covers; a larger
    // descriptor (a later header) has more after them, which this host does not read.
    let descriptor = pointer.pointee
    guard let describe = descriptor.describe, let generate = descriptor.generate else {
      throw PluginError(path: path, kind: .badDescriptor, reason: "its descriptor leaves describe or generate NULL")
    }
    func text(_ field: UnsafePointer<CChar>?, _ what: String) throws(PluginError) -> String {
      guard let field, let value = String(validatingCString: field), !value.isEmpty else {
        throw PluginError(path: path, kind: .badDescriptor, reason: "its descriptor's \(what) is missing or not UTF-8")
      }
      return value
    }
    let id = try text(descriptor.id, "id")
    guard Identifier.isValid(id) else {
      throw PluginError(path: path, kind: .badDescriptor, reason: "its id \"\(id)\" must be \(Identifier.rule)")
    }
    self.id = id
    self.name = try text(descriptor.name, "name")
    self.version = try text(descriptor.version, "version")
    self.abiVersion = version
    self.descriptorSize = size
    self.isThreadSafe = descriptor.flags & UInt32(BIKI_PLUGIN_THREAD_SAFE) != 0
    self.describeFunction = describe
    self.generateFunction = generate
    self.countFunction = descriptor.question_count
    self.deinitFunction = descriptor.deinit
    if let initialize = descriptor.`init` {
      let call = CallRecord(lateWrites: lateWriteCounter)
      let status = call.run { initialize(host, $0) }
      guard Int(status) == BIKI_STATUS_OK else {
        throw PluginError(path: path, kind: .initFailed, reason: "its init failed (\(PluginError.statusName(status))): \(call.errorMessage)")
      }
      records.withLock { $0.keep(call) }
    }
  }

  /// Counts writes through writers whose call had returned.
  private let lateWriteCounter = LateWrites()

  /// Whether the plugin counts its questions per parameter setting.
  package var countsQuestions: Bool { countFunction != nil }

  /// How many times the plugin wrote through a writer after its call had returned.
  package var lateWrites: Int { lateWriteCounter.count }

  /// The plugin's description, as raw bytes for the validator.
  package func describe() throws(PluginError) -> [UInt8] {
    try call { describeFunction($0) }
  }

  /// The raw question the plugin writes for (topic, parameters, seed).
  package func generate(topic: String, parameters: [String: Int64], seed: UInt64) throws(PluginError) -> [UInt8] {
    try withArguments(topic, parameters) { topic, list throws(PluginError) in
      try call { generateFunction(topic, list, seed, $0) }
    }
  }

  /// How many questions the topic has with these parameters, if the plugin says (nil when it
  /// has no `question_count`).
  package func questionCount(topic: String, parameters: [String: Int64]) throws(PluginError) -> UInt64? {
    guard let countFunction else { return nil }
    var count: UInt64 = 0
    try withArguments(topic, parameters) { topic, list throws(PluginError) in
      _ = try call { countFunction(topic, list, &count, $0) }
    }
    return count
  }

  /// Calls the plugin's `deinit`, once; nothing may be called after it.
  package func shutDown() {
    let first = deinitialized.withLock { done in
      defer { done = true }
      return !done
    }
    if first { deinitFunction?() }
  }

  /// C copies of the topic id and parameters, owned here and freed after the call, as the ABI
  /// says Biki owns its arguments.
  private func withArguments<T>(
    _ topic: String, _ parameters: [String: Int64],
    _ body: (UnsafePointer<CChar>, UnsafePointer<biki_parameter_list_t>) throws(PluginError) -> T
  ) throws(PluginError) -> T {
    guard let topicCopy = strdup(topic) else { throw PluginError(path: path, kind: .workerFailed, reason: "out of memory") }
    let sorted = parameters.sorted { $0.key < $1.key }
    let names = sorted.map { strdup($0.key) }
    // Most topics take no parameters: an empty list allocates no entries.
    let entries = sorted.isEmpty ? nil : UnsafeMutableBufferPointer<biki_parameter_t>.allocate(capacity: sorted.count)
    defer {
      free(topicCopy)
      names.forEach { free($0) }
      entries?.deallocate()
    }
    for (index, (name, parameter)) in zip(names, sorted).enumerated() {
      entries?[index] = biki_parameter_t(size: UInt32(MemoryLayout<biki_parameter_t>.size), name: UnsafePointer(name), value: parameter.value)
    }
    var list = biki_parameter_list_t(
      size: UInt32(MemoryLayout<biki_parameter_list_t>.size), element_size: UInt32(MemoryLayout<biki_parameter_t>.stride),
      count: sorted.count, entries: entries.flatMap { $0.baseAddress.map(UnsafeRawPointer.init) })
    return try withUnsafePointer(to: &list) { list throws(PluginError) in try body(topicCopy, list) }
  }

  private func call(_ body: (UnsafePointer<biki_call_t>) -> biki_status_t) throws(PluginError) -> [UInt8] {
    let lateWrites = lateWriteCounter
    let record = records.withLock { $0.next { CallRecord(lateWrites: lateWrites) } }
    let status = isThreadSafe ? record.run(body) : lock.withLock { _ in record.run(body) }
    defer { records.withLock { $0.release(record) } }
    if record.output.overflowed || Int(status) == BIKI_STATUS_OUTPUT_REFUSED {
      throw PluginError(path: path, kind: .outputTooLarge, reason: "it wrote more than \(PluginLibrary.maximumOutput) bytes")
    }
    guard Int(status) == BIKI_STATUS_OK else {
      // Whatever output came before the failure is discarded, never taken for a message.
      let discarded = record.output.bytes.count
      let kind: PluginError.Kind = discarded > 0 ? .failedAfterOutput(status) : .callFailed(status)
      let note = discarded > 0 ? " (after writing \(discarded) bytes of output, which were discarded)" : ""
      throw PluginError(path: path, kind: kind, reason: record.errorMessage + note)
    }
    return record.output.bytes
  }

}

/// The writers of one call and what they collected. Its structs stay at fixed addresses for as
/// long as the record lives, so a late write finds a closed sink rather than freed memory.
final class CallRecord: @unchecked Sendable {
  let output: Sink
  let error: Sink
  private let writers: UnsafeMutablePointer<biki_writer_t>
  private let call: UnsafeMutablePointer<biki_call_t>

  /// Bytes written through one writer.
  final class Sink {
    var bytes: [UInt8] = []
    var overflowed = false
    var open = true
    let lateWrites: LateWrites
    init(lateWrites: LateWrites) { self.lateWrites = lateWrites }

    func reset() {
      bytes = []
      overflowed = false
      open = true
    }
  }

  init(lateWrites: LateWrites) {
    output = Sink(lateWrites: lateWrites)
    error = Sink(lateWrites: lateWrites)
    writers = .allocate(capacity: 2)
    for (index, sink) in [output, error].enumerated() {
      (writers + index).initialize(
        to: biki_writer_t(size: UInt32(MemoryLayout<biki_writer_t>.size), context: Unmanaged.passUnretained(sink).toOpaque(), write: CallRecord.write))
    }
    call = .allocate(capacity: 1)
    call.initialize(to: biki_call_t(size: UInt32(MemoryLayout<biki_call_t>.size), output: UnsafePointer(writers), error: UnsafePointer(writers + 1)))
  }

  deinit {
    writers.deinitialize(count: 2)
    writers.deallocate()
    call.deinitialize(count: 1)
    call.deallocate()
  }

  /// Whether a call is using the record now.
  var isInUse = false

  /// Makes the call with emptied writers; they close when it returns.
  func run(_ body: (UnsafePointer<biki_call_t>) -> biki_status_t) -> biki_status_t {
    output.reset()
    error.reset()
    defer {
      output.open = false
      error.open = false
    }
    return body(UnsafePointer(call))
  }

  /// The error channel's text, or a placeholder.
  var errorMessage: String {
    let text = String(decoding: error.bytes.prefix(1000), as: UTF8.self)
    return text.isEmpty ? "no message" : text
  }

  private static let write: @convention(c) (UnsafePointer<biki_writer_t>?, UnsafePointer<CChar>?, Int) -> Int32 = { writer, bytes, length in
    guard let context = writer?.pointee.context else { return 1 }
    let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
    guard sink.open else {
      sink.lateWrites.record()
      return 1
    }
    guard sink.bytes.count + length <= PluginLibrary.maximumOutput else {
      sink.overflowed = true
      return 1
    }
    if length > 0, let bytes { sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length)) }
    return 0
  }
}

/// A library's call records, used in turn. A record is handed out only when no call is using
/// it, and the next call takes the one after it: a writer kept past its call finds its record
/// closed for at least the next `count - 1` calls, where the write is caught.
struct CallRecords {
  static let count = 16
  private var records: [CallRecord] = []
  private var next = 0
  private var kept: [CallRecord] = []

  /// A record no call is using; made with `make` while there are fewer than `count`, or (not
  /// kept) when every one is in use, as thread-safe plugins called at once may find them.
  mutating func next(_ make: () -> CallRecord) -> CallRecord {
    // Fill the ring first, so even the first calls never reuse the record just released.
    if records.count < CallRecords.count {
      let record = make()
      record.isInUse = true
      records.append(record)
      return record
    }
    for _ in 0..<records.count {
      let record = records[next]
      next = (next + 1) % records.count
      if !record.isInUse {
        record.isInUse = true
        return record
      }
    }
    let record = make()
    record.isInUse = true
    return record
  }

  func release(_ record: CallRecord) { record.isInUse = false }

  /// A record that must outlive its call without being reused (`init`'s).
  mutating func keep(_ record: CallRecord) { kept.append(record) }
}

final class LateWrites: Sendable {
  private let counter = Locked(0)
  func record() { counter.withLock { $0 += 1 } }
  var count: Int { counter.withLock { $0 } }
}
