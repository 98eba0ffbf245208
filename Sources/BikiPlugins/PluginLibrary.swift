import BikiCore
import BikiPluginABI
import BikiSync
import Glibc

/// A plugin library loaded into this process, its descriptor checked and its `init` called.
///
/// - Important: the library is opened with `RTLD_NODELETE` and never closed: a library that
///   holds Swift metadata cannot be safely unloaded, and a plugin is loaded once per process.
///   For the same reason the host struct it was given is never freed.
///
/// Its more than a dozen constants are the descriptor's fields as checked (identity, versions,
/// thread safety, the entry points) and the three guards every call goes through (the lock for
/// a plugin that is not thread-safe, the call ledger, whether it was shut down).
package final class PluginLibrary: @unchecked Sendable {
  package let path: String
  package let id: String
  let name: String
  let version: String
  let isThreadSafe: Bool
  /// The ABI version the plugin needs: its major, and the minor it cannot work without.
  let abiVersion: PluginABIVersion
  /// The size of the plugin's descriptor: larger than this host's when built against a later header.
  let descriptorSize: UInt32
  private let describeFunction: @convention(c) (UnsafePointer<biki_call_t>?) -> biki_status_t
  private let generateFunction:
    @convention(c) (UnsafePointer<CChar>?, UnsafePointer<biki_parameter_list_t>?, UInt64, UnsafePointer<biki_call_t>?)
      -> biki_status_t
  private let countFunction:
    (
      @convention(c) (
        UnsafePointer<CChar>?, UnsafePointer<biki_parameter_list_t>?, UnsafeMutablePointer<UInt64>?,
        UnsafePointer<biki_call_t>?
      ) ->
        biki_status_t
    )?
  private let deinitFunction: (@convention(c) () -> Void)?
  /// Serialises calls into plugins that are not thread-safe, as the ABI promises them.
  private let lock = Locked(())
  /// Every call's record and writers, never reused: a plugin that writes through a writer after
  /// its call returned is refused, and the write is recorded against that call.
  private let ledger = CallLedger()
  private let deinitialized = Locked(false)

  /// Output larger than this is refused: a question is a few hundred bytes.
  static let maximumOutput = 1 << 20
  /// The smallest descriptor v1 accepts: everything through `question_count`.
  static let minimumDescriptorSize =
    MemoryLayout<biki_plugin_descriptor_t>.offset(of: \.question_count)! + MemoryLayout<UnsafeRawPointer?>.size

  /// Opens `path`, checks what its entry returns and calls its `init`; every failure names the
  /// file and why.
  package init(path: String) throws(PluginError) {
    self.path = path
    // dlopen looks a name without a slash up in the system's library directories: a plugin is
    // only ever loaded from the file it names.
    guard path.contains("/") else {
      throw PluginError(
        path: path, kind: .cannotLoad,
        reason: "a plugin is loaded from a path (./\(path)), never looked up among the system's libraries")
    }
    dlerror()
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
      let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
      throw PluginError(path: path, kind: .cannotLoad, reason: reason)
    }
    guard let symbol = dlsym(handle, BIKI_PLUGIN_ENTRY_SYMBOL) else {
      throw PluginError(path: path, kind: .missingEntry, reason: "it does not export \(BIKI_PLUGIN_ENTRY_SYMBOL)")
    }
    let host = HostServices.host(version: BikiVersion.current)
    let entry = unsafeBitCast(
      symbol, to: (@convention(c) (UnsafePointer<biki_host_t>?) -> UnsafePointer<biki_plugin_descriptor_t>?).self)
    let speaks = PluginABIVersion.host
    guard let pointer = entry(host) else {
      throw PluginError(
        path: path, kind: .refusedVersion, reason: "its entry refused this host (plugin ABI \(speaks))")
    }
    // Size and version first: what follows is read only as far as `size` covers it.
    let raw = UnsafeRawPointer(pointer)
    let size = raw.load(as: UInt32.self)
    let major = raw.load(fromByteOffset: 4, as: UInt32.self)
    guard biki_plugin_abi_is_compatible(major, speaks.major) != 0 else {
      throw PluginError(
        path: path, kind: .incompatibleVersion,
        reason:
          "it was built for plugin ABI \(major).x; this Biki speaks \(speaks) and loads \(PluginABIVersion.loaded)")
    }
    guard Int(size) >= PluginLibrary.minimumDescriptorSize else {
      throw PluginError(
        path: path, kind: .badDescriptor,
        reason:
          "its descriptor is \(size) bytes, smaller than the \(PluginLibrary.minimumDescriptorSize) of plugin ABI 1.0")
    }
    // A descriptor built against an older header ends before the fields it lacks, and one
    // built against a later header has fields this host does not read.
    let copy = DescriptorCopy(pointer, size: size)
    let needs = PluginABIVersion(major: major, minor: copy.neededMinor)
    guard needs <= speaks else {
      throw PluginError(
        path: path, kind: .incompatibleVersion,
        reason:
          "it needs plugin ABI \(needs), and this Biki speaks \(speaks): update Biki, or use a build of the plugin for \(speaks)"
      )
    }
    let descriptor = copy.fields
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
    self.abiVersion = needs
    self.descriptorSize = size
    self.isThreadSafe = descriptor.flags & UInt32(BIKI_PLUGIN_THREAD_SAFE) != 0
    self.describeFunction = describe
    self.generateFunction = generate
    self.countFunction = descriptor.question_count
    self.deinitFunction = descriptor.deinit
    if let initialize = descriptor.`init` {
      let (status, written) = ledger.run(.initialize) { initialize(host, $0) }
      guard Int(status) == BIKI_STATUS_OK else {
        throw PluginError(
          path: path, kind: .initFailed,
          reason: "its init failed (\(PluginError.statusName(status))): \(PluginLibrary.message(written))")
      }
    }
  }

  /// Whether the plugin counts its questions per parameter setting.
  var countsQuestions: Bool { countFunction != nil }

  /// How many times the plugin has written through a writer after its call had returned.
  var lateWriteCount: Int { ledger.lateWriteCount }

  /// The writes through writers after their calls had returned that were not reported before,
  /// as one error naming the calls (`plugin-writer-after-return`); nil when there were none.
  func takeLateWrites() -> PluginError? { ledger.takeLateWrites(path: path) }

  /// The plugin's description, as raw bytes for the validator.
  func describe() throws(PluginError) -> [UInt8] {
    try call(.describe) { describeFunction($0) }
  }

  /// The raw question the plugin writes for (topic, parameters, seed).
  package func generate(topic: String, parameters: [String: Int64], seed: UInt64) throws(PluginError) -> [UInt8] {
    try withArguments(topic, parameters) { topicCopy, list throws(PluginError) in
      try call(.generate, topic: topic, seed: seed) { generateFunction(topicCopy, list, seed, $0) }
    }
  }

  /// How many questions the topic has with these parameters, if the plugin says (nil when it
  /// has no `question_count`).
  func questionCount(topic: String, parameters: [String: Int64]) throws(PluginError) -> UInt64? {
    guard let countFunction else { return nil }
    var count: UInt64 = 0
    try withArguments(topic, parameters) { topicCopy, list throws(PluginError) in
      _ = try call(.count, topic: topic) { countFunction(topicCopy, list, &count, $0) }
    }
    return count
  }

  /// Calls the plugin's `deinit`, once; nothing may be called after it.
  func shutDown() {
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
    guard let topicCopy = strdup(topic) else {
      throw PluginError(path: path, kind: .workerFailed, reason: "out of memory")
    }
    let sorted = parameters.sorted { $0.key < $1.key }
    let names = sorted.map { strdup($0.key) }
    // Most topics take no parameters: an empty list allocates no entries.
    let entries = sorted.isEmpty ? nil : UnsafeMutableBufferPointer<biki_parameter_t>.allocate(capacity: sorted.count)
    defer {
      free(topicCopy)
      for name in names { free(name) }
      entries?.deallocate()
    }
    for (index, (name, parameter)) in zip(names, sorted).enumerated() {
      entries?[index] = biki_parameter_t(
        size: UInt32(MemoryLayout<biki_parameter_t>.size), name: UnsafePointer(name), value: parameter.value)
    }
    var list = biki_parameter_list_t(
      size: UInt32(MemoryLayout<biki_parameter_list_t>.size),
      element_size: UInt32(MemoryLayout<biki_parameter_t>.stride),
      count: sorted.count, entries: entries.flatMap { $0.baseAddress.map(UnsafeRawPointer.init) })
    return try withUnsafePointer(to: &list) { list throws(PluginError) in try body(topicCopy, list) }
  }

  /// Makes one call with writers of its own, which die when it returns.
  private func call(
    _ kind: CallLedger.Kind, topic: String = "", seed: UInt64 = 0, _ body: (UnsafePointer<biki_call_t>) -> biki_status_t
  ) throws(PluginError) -> [UInt8] {
    let (status, written) =
      isThreadSafe
      ? ledger.run(kind, topic: topic, seed: seed, body)
      : lock.withLock { _ in ledger.run(kind, topic: topic, seed: seed, body) }
    if written.outputRefused {
      throw PluginError(
        path: path, kind: .outputTooLarge,
        reason: "it wrote more than \(PluginLibrary.maximumOutput) bytes of output; Biki refused the rest")
    }
    if Int(status) == BIKI_STATUS_OUTPUT_REFUSED {
      // The status says a writer refused bytes, yet this call's writers took every byte.
      let output =
        written.output.isEmpty ? "no output" : "\(written.output.count) bytes of output, discarded as the call failed"
      let message = written.error.isEmpty ? "" : "; its message: \(PluginLibrary.message(written))"
      throw PluginError(
        path: path, kind: .callFailed(status),
        reason:
          "it returned BIKI_STATUS_OUTPUT_REFUSED, though Biki refused none of its writes (it wrote \(output))\(message)"
      )
    }
    guard Int(status) == BIKI_STATUS_OK else {
      // Whatever output came before the failure is discarded, never taken for a message.
      let discarded = written.output.count
      let kind: PluginError.Kind = discarded > 0 ? .failedAfterOutput(status) : .callFailed(status)
      let note = discarded > 0 ? " (after writing \(discarded) bytes of output, which were discarded)" : ""
      throw PluginError(path: path, kind: kind, reason: PluginLibrary.message(written) + note)
    }
    return written.output
  }

  /// The error channel's text (its first 1,000 bytes), or a placeholder.
  private static func message(_ written: CallLedger.Written) -> String {
    let text = String(decoding: written.error.prefix(1000), as: UTF8.self)
    return text.isEmpty ? "no message" : text
  }
}
