// A plugin written in Swift against the C header alone, as an author outside this repository
// writes one: `import BikiPluginABI` (a module map over biki_plugin.h) and Glibc, nothing of
// Biki's own Swift. The compatibility tests build it against every released header.
// Topic "swift-hon.hon": 1–9本, read with the host's reading engine (biki.readings.1).
//
//   swiftc -emit-library -parse-as-library -I <module map dir> swift_plugin.swift -o libswift-hon.so
import BikiPluginABI

#if canImport(Glibc)
  import Glibc
#endif

/// A field of a struct the host filled, read where it lies. `pointee` would read the whole
/// struct as this plugin's header lays it out, past the end of an older host's.
private func field<Struct, Value>(_ pointer: UnsafePointer<Struct>, _ key: KeyPath<Struct, Value>) -> Value? {
  guard let offset = MemoryLayout<Struct>.offset(of: key),
    UnsafeRawPointer(pointer).load(as: UInt32.self) >= offset + MemoryLayout<Value>.size
  else { return nil }
  return UnsafeRawPointer(pointer).load(fromByteOffset: offset, as: Value.self)
}

/// Bytes the host writes into a call of this plugin's own.
private final class Collected {
  var bytes: [UInt8] = []
}

private let collect: @convention(c) (UnsafePointer<biki_writer_t>?, UnsafePointer<CChar>?, Int) -> Int32 = {
  writer, bytes, length in
  guard let writer, let context = writer.pointee.context else { return 1 }
  if let bytes, length > 0 {
    bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
      Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().bytes.append(
        contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
  }
  return 0
}

private func emit(_ text: String, _ writer: UnsafePointer<biki_writer_t>?) -> Bool {
  guard let writer, let write = writer.pointee.write else { return false }
  var text = text
  return text.withUTF8 { bytes in
    bytes.withMemoryRebound(to: CChar.self) { write(writer, $0.baseAddress, $0.count) == 0 }
  }
}

/// Written once, in init, before any other call.
nonisolated(unsafe) private var host: UnsafePointer<biki_host_t>?
nonisolated(unsafe) private var readings: UnsafePointer<biki_host_readings_t>?

private let initialize: @convention(c) (UnsafePointer<biki_host_t>?, UnsafePointer<biki_call_t>?) -> biki_status_t = {
  given, call in
  guard let given, let lookUp = field(given, \.get_extension),
    let found = lookUp?(given, BIKI_HOST_EXT_READINGS)?.assumingMemoryBound(to: biki_host_readings_t.self),
    field(found, \.read_number) != nil
  else {
    _ = emit("this plugin needs Biki's reading engine (\(BIKI_HOST_EXT_READINGS))", call?.pointee.error)
    return Int32(BIKI_STATUS_INTERNAL_ERROR)
  }
  host = given
  readings = found
  return Int32(BIKI_STATUS_OK)
}

private let describe: @convention(c) (UnsafePointer<biki_call_t>?) -> biki_status_t = { call in
  emit(
    #"{"topics": [{"id": "hon", "title": "本 in Swift", "category": "counter", "skills": ["kana", "reading"], "questionCount": 9, "parameters": []}]}"#,
    call?.pointee.output) ? Int32(BIKI_STATUS_OK) : Int32(BIKI_STATUS_OUTPUT_REFUSED)
}

private let generate:
  @convention(c) (UnsafePointer<CChar>?, UnsafePointer<biki_parameter_list_t>?, UInt64, UnsafePointer<biki_call_t>?)
    -> biki_status_t = { topic, parameters, seed, call in
      guard let call, let topic, String(cString: topic) == "hon" else {
        _ = emit("no such topic", call?.pointee.error)
        return Int32(BIKI_STATUS_UNKNOWN_TOPIC)
      }
      guard (parameters?.pointee.count ?? 0) == 0 else { return Int32(BIKI_STATUS_INVALID_PARAMETER) }
      guard let host, let readings, let readNumber = field(readings, \.read_number) ?? nil else {
        return Int32(BIKI_STATUS_INTERNAL_ERROR)
      }
      let n = Int(seed % 9) + 1
      let read = Collected()
      let failed = Collected()
      var status = Int32(BIKI_STATUS_INTERNAL_ERROR)
      withExtendedLifetime((read, failed)) {
        var output = biki_writer_t()
        output.size = UInt32(MemoryLayout<biki_writer_t>.size)
        output.context = Unmanaged.passUnretained(read).toOpaque()
        output.write = collect
        var error = output
        error.context = Unmanaged.passUnretained(failed).toOpaque()
        withUnsafePointer(to: output) { output in
          withUnsafePointer(to: error) { error in
            var own = biki_call_t()
            own.size = UInt32(MemoryLayout<biki_call_t>.size)
            own.output = output
            own.error = error
            status = readNumber(host, UInt64(n), "本", nil, &own)
          }
        }
      }
      guard status == Int32(BIKI_STATUS_OK) else {
        _ = emit(String(decoding: failed.bytes, as: UTF8.self), call.pointee.error)
        return Int32(BIKI_STATUS_GENERATION_FAILED)
      }
      // ["はっぽん","はちほん"]: the first is the standard reading.
      let array = String(decoding: read.bytes, as: UTF8.self)
      let spoken = array.split(separator: "\"").dropFirst().first.map(String.init) ?? ""
      let kanji = ["一", "二", "三", "四", "五", "六", "七", "八", "九"][n - 1]
      let json =
        #"{"display": "\#(n)本", "kanjiDisplay": "\#(kanji)本", "spoken": "\#(spoken)", "readings": \#(array), "#
        + #""answer": {"value": \#(n), "postfix": "本"}, "number": {"value": \#(n), "counter": "本"}}"#
      return emit(json, call.pointee.output) ? Int32(BIKI_STATUS_OK) : Int32(BIKI_STATUS_OUTPUT_REFUSED)
    }

/// Field by field rather than memberwise: a later header appends fields, which a memberwise
/// initialiser would then require; zero means "not used" (abi_minor 0: needs only 1.0).
nonisolated(unsafe) private let descriptor: UnsafeMutablePointer<biki_plugin_descriptor_t> = {
  var fields = biki_plugin_descriptor_t()
  fields.size = UInt32(MemoryLayout<biki_plugin_descriptor_t>.size)
  fields.abi_version = UInt32(BIKI_PLUGIN_ABI_VERSION)
  fields.id = UnsafePointer(strdup("swift-hon"))
  fields.name = UnsafePointer(strdup("本 in Swift"))
  fields.version = UnsafePointer(strdup("1.0.0"))
  fields.`init` = initialize
  fields.describe = describe
  fields.generate = generate
  let pointer = UnsafeMutablePointer<biki_plugin_descriptor_t>.allocate(capacity: 1)
  pointer.initialize(to: fields)
  return pointer
}()

@_cdecl("biki_plugin_entry")
public func bikiPluginEntry(_ host: UnsafePointer<biki_host_t>?) -> UnsafePointer<biki_plugin_descriptor_t>? {
  guard let host, let version = field(host, \.abi_version),
    biki_plugin_abi_is_compatible(UInt32(BIKI_PLUGIN_ABI_VERSION), version) != 0
  else { return nil }
  return UnsafePointer(descriptor)
}
