import BikiCore
import BikiPluginABI
import Glibc
import BikiSync

/// A plugin library loaded into this process, its descriptor checked.
///
/// - Important: the library is opened with `RTLD_NODELETE` and never closed: a library that
///   holds Swift metadata cannot be safely unloaded, and a plugin is loaded once per process.
public final class PluginLibrary: @unchecked Sendable {
  public let path: String
  public let id: String
  public let name: String
  public let version: String
  public let isThreadSafe: Bool
  /// The plugin's own ABI version.
  public let abiVersion: UInt32
  private let describeFunction: @convention(c) (UnsafePointer<biki_writer_t>?) -> biki_status_t
  private let generateFunction:
    @convention(c) (UnsafePointer<CChar>?, UnsafePointer<biki_parameter_t>?, Int, UInt64, UnsafePointer<biki_writer_t>?) ->
      biki_status_t
  /// Serialises calls into plugins that are not thread-safe, as the ABI promises them.
  private let lock = PluginLock()

  /// The ABI version this host speaks.
  public static let hostABIVersion = UInt32(BIKI_PLUGIN_ABI_VERSION)
  /// Output larger than this is refused: a question is a few hundred bytes.
  public static let maximumOutput = 1 << 20

  /// Opens `path` and checks what its entry returns; every failure names the file and why.
  public init(path: String) throws(PluginError) {
    self.path = path
    dlerror()
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
      let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
      throw PluginError(path: path, kind: .cannotLoad, reason: reason)
    }
    guard let symbol = dlsym(handle, BIKI_PLUGIN_ENTRY_SYMBOL) else {
      throw PluginError(path: path, kind: .missingEntry, reason: "it does not export \(BIKI_PLUGIN_ENTRY_SYMBOL)")
    }
    let entry = unsafeBitCast(symbol, to: (@convention(c) (UInt32) -> UnsafePointer<biki_plugin_descriptor_t>?).self)
    guard let pointer = entry(PluginLibrary.hostABIVersion) else {
      throw PluginError(path: path, kind: .refusedVersion, reason: "its entry refused ABI version \(PluginLibrary.hostABIVersion)")
    }
    // Read the size and version first: a descriptor from another version may be shorter.
    let header = UnsafeRawPointer(pointer)
    let size = header.load(as: UInt32.self)
    let version = header.load(fromByteOffset: 4, as: UInt32.self)
    guard biki_plugin_abi_is_compatible(version, PluginLibrary.hostABIVersion) != 0 else {
      throw PluginError(
        path: path, kind: .incompatibleVersion,
        reason: "it was built for ABI version \(version); this host speaks version\(PluginLibrary.hostABIVersion == 1 ? "" : "s 1 to") \(PluginLibrary.hostABIVersion)")
    }
    guard size >= UInt32(MemoryLayout<biki_plugin_descriptor_t>.size) else {
      throw PluginError(path: path, kind: .badDescriptor, reason: "its descriptor is \(size) bytes, smaller than version \(version)'s \(MemoryLayout<biki_plugin_descriptor_t>.size)")
    }
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
    self.isThreadSafe = descriptor.flags & UInt32(BIKI_PLUGIN_THREAD_SAFE) != 0
    self.describeFunction = describe
    self.generateFunction = generate
  }

  /// The plugin's description, as raw bytes for the validator.
  public func describe() throws(PluginError) -> [UInt8] {
    try call { writer in describeFunction(writer) }
  }

  /// The raw question the plugin writes for (topic, parameters, seed).
  public func generate(topic: String, parameters: [String: Int64], seed: UInt64) throws(PluginError) -> [UInt8] {
    // C copies owned here and freed after the call, as the ABI says Biki owns its arguments.
    let sorted = parameters.sorted { $0.key < $1.key }
    let topicCopy = strdup(topic)!
    let names = sorted.map { strdup($0.key)! }
    defer {
      free(topicCopy)
      names.forEach { free($0) }
    }
    let entries = zip(names, sorted).map { biki_parameter_t(name: UnsafePointer($0), value: $1.value) }
    let buffer = UnsafeMutableBufferPointer<biki_parameter_t>.allocate(capacity: max(entries.count, 1))
    defer { buffer.deallocate() }
    _ = buffer.initialize(from: entries)
    let base = entries.isEmpty ? nil : UnsafePointer(buffer.baseAddress)
    return try call { writer in generateFunction(topicCopy, base, entries.count, seed, writer) }
  }

  private func call(_ body: (UnsafePointer<biki_writer_t>) -> biki_status_t) throws(PluginError) -> [UInt8] {
    let output = OutputBuffer()
    let context = Unmanaged.passUnretained(output).toOpaque()
    var writer = biki_writer_t(context: context) { context, bytes, length in
      let output = Unmanaged<OutputBuffer>.fromOpaque(context!).takeUnretainedValue()
      guard output.bytes.count + length <= PluginLibrary.maximumOutput else {
        output.overflowed = true
        return 1
      }
      if length > 0, let bytes { output.bytes.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length)) }
      return 0
    }
    let status: biki_status_t = isThreadSafe ? withUnsafePointer(to: &writer, body) : lock.withLock { withUnsafePointer(to: &writer, body) }
    if output.overflowed {
      throw PluginError(path: path, kind: .badOutput, reason: "it wrote more than \(PluginLibrary.maximumOutput) bytes")
    }
    guard Int(status) == BIKI_STATUS_OK else {
      let message = String(decoding: output.bytes.prefix(1000), as: UTF8.self)
      throw PluginError(path: path, kind: .callFailed(status), reason: message.isEmpty ? "no message" : message)
    }
    return output.bytes
  }
}

private final class OutputBuffer {
  var bytes: [UInt8] = []
  var overflowed = false
}

private final class PluginLock: Sendable {
  private let mutex = Locked(())

  func withLock<T>(_ body: () -> T) -> T {
    mutex.withLock { _ in body() }
  }
}
