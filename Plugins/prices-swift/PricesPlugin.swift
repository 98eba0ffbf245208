// The prices plugin: 税込 prices and amounts written with 万, read with Biki's own reading
// engine. A sample of the plugin ABI in Swift: `@_cdecl` exports the entry, and everything that
// crosses the boundary is a C type.
import BikiCore
import BikiJapanese
import BikiPluginABI

/// The topics, by id: how many questions each has, and how to make one.
private let topics: [(id: String, json: String, count: UInt64, question: @Sendable (UInt64) -> [UInt8])] = [
  (
    "tax-included",
    #"{"id": "tax-included", "title": "税込 prices (¥11–11,000)", "description": "Prices with tax included, as shops show them: ぜいこみせんひゃくえん.", "category": "money", "skills": ["listening", "reading", "kana"], "questionCount": 1000, "parameters": []}"#,
    1000,
    { index in
      // Pre-tax prices ¥10–10,000 by ¥10, plus 10% consumption tax.
      let price = (Int64(index) + 1) * 10 * 110 / 100
      return question(
        display: "税込¥" + NumberFormatting.grouped(price), kanji: "税込" + JapaneseNumber.kanji(UInt128(price)) + "円",
        word: ("税込", "ぜいこみ"), reading: try? JapaneseNumber.reading(of: UInt128(price), with: .yen), value: price,
        answerPrefix: "¥")
    }
  ),
  (
    "man-yen",
    #"{"id": "man-yen", "title": "Amounts in 万 (3万5000円)", "description": "Prices written with 万, as in ads and rent: さんまんごせんえん.", "category": "money", "skills": ["listening", "reading", "kana"], "questionCount": 9990, "parameters": []}"#,
    9990,
    { index in
      // ¥10,000–9,999,000 by ¥1,000, written as 万 and digits: 3万5000円.
      let amount = (Int64(index) + 10) * 1000
      let man = amount / 10_000
      let rest = amount % 10_000
      return question(
        display: "\(man)万" + (rest > 0 ? String(rest) : "") + "円", kanji: JapaneseNumber.kanji(UInt128(amount)) + "円",
        word: nil,
        reading: try? JapaneseNumber.reading(of: UInt128(amount), with: .yen), value: amount, answerPrefix: "¥")
    }
  ),
]

/// One question as the ABI's JSON. It declares the amount it reads (`number`, with 円) and the
/// word it shows before it (`words`: 税込 ぜいこみ), so Biki reads the whole display and checks
/// every reading against its own. Written as bytes into one buffer: appending Strings piece by
/// piece cost more than making the question.
private func question(
  display: String, kanji: String, word: (text: String, reading: String)?, reading: Reading?, value: Int64,
  answerPrefix: String
) -> [UInt8] {
  var json: [UInt8] = []
  json.reserveCapacity(512)
  let prefix = word?.reading ?? ""
  for piece in [
    #"{"display": ""#, display, #"", "kanjiDisplay": ""#, kanji, #"", "spoken": ""#, prefix, reading?.standard ?? "",
    #"", "readings": ["#,
  ] {
    json += piece.utf8
  }
  for (index, each) in (reading?.all() ?? []).enumerated() {
    for piece in [index == 0 ? "\"" : ", \"", prefix, each, "\""] { json += piece.utf8 }
  }
  for piece in [
    #"], "answer": {"value": "#, String(value), #", "prefix": ""#, answerPrefix,
    #"", "postfix": ""}, "number": {"value": "#, String(value), #", "counter": "円"}"#,
  ] {
    json += piece.utf8
  }
  if let word {
    for piece in [#", "words": [{"text": ""#, word.text, #"", "reading": ""#, word.reading, #""}]"#] {
      json += piece.utf8
    }
  }
  json += "}".utf8
  return json
}

/// Writes bytes through one of Biki's writers; false when Biki refuses them.
private func emit(_ bytes: [UInt8], _ writer: UnsafePointer<biki_writer_t>?) -> Bool {
  guard let writer, let write = writer.pointee.write else { return false }
  return bytes.withUnsafeBufferPointer { buffer in
    buffer.withMemoryRebound(to: CChar.self) { write(writer, $0.baseAddress, $0.count) == 0 }
  }
}

private func emit(_ text: String, _ writer: UnsafePointer<biki_writer_t>?) -> Bool { emit(Array(text.utf8), writer) }

private let describe: @convention(c) (UnsafePointer<biki_call_t>?) -> biki_status_t = { call in
  emit(#"{"topics": ["# + topics.map(\.json).joined(separator: ", ") + "]}", call?.pointee.output)
    ? Int32(BIKI_STATUS_OK) : Int32(BIKI_STATUS_OUTPUT_REFUSED)
}

private let generate:
  @convention(c) (UnsafePointer<CChar>?, UnsafePointer<biki_parameter_list_t>?, UInt64, UnsafePointer<biki_call_t>?) ->
    biki_status_t = {
      topicID, parameters, seed, call in
      guard let call else { return Int32(BIKI_STATUS_INTERNAL_ERROR) }
      guard (parameters?.pointee.count ?? 0) == 0 else {
        _ = emit("this plugin's topics take no parameters", call.pointee.error)
        return Int32(BIKI_STATUS_INVALID_PARAMETER)
      }
      guard let topicID, case let id = String(cString: topicID), let topic = topics.first(where: { $0.id == id }) else {
        _ = emit("no such topic", call.pointee.error)
        return Int32(BIKI_STATUS_UNKNOWN_TOPIC)
      }
      return emit(topic.question(seed % topic.count), call.pointee.output)
        ? Int32(BIKI_STATUS_OK) : Int32(BIKI_STATUS_OUTPUT_REFUSED)
    }

/// The descriptor: allocated once and never freed, so its address stays valid for the process.
/// `nonisolated(unsafe)` because a C pointer is not Sendable; it is written once, before any
/// reader can see it (Swift initialises globals exactly once), and only read after that.
nonisolated(unsafe) private let descriptor: UnsafeMutablePointer<biki_plugin_descriptor_t> = {
  // Field by field rather than memberwise: a later header appends fields, which a memberwise
  // initialiser would then require, and the zeroed ones mean "not used" (abi_minor 0: needs 1.0).
  var fields = biki_plugin_descriptor_t()
  fields.size = UInt32(MemoryLayout<biki_plugin_descriptor_t>.size)
  fields.abi_version = UInt32(BIKI_PLUGIN_ABI_VERSION)
  fields.id = UnsafePointer(strdup("prices"))
  fields.name = UnsafePointer(strdup("Prices"))
  fields.version = UnsafePointer(strdup("1.0.0"))
  fields.flags = UInt32(BIKI_PLUGIN_THREAD_SAFE)
  fields.describe = describe
  fields.generate = generate
  let pointer = UnsafeMutablePointer<biki_plugin_descriptor_t>.allocate(capacity: 1)
  pointer.initialize(to: fields)
  return pointer
}()

@_cdecl("biki_plugin_entry")
public func bikiPluginEntry(_ host: UnsafePointer<biki_host_t>?) -> UnsafePointer<biki_plugin_descriptor_t>? {
  // One field, read where it lies: `host.pointee` would read the whole struct as this header
  // has it, past the end of an older host's.
  guard let host,
    biki_plugin_abi_is_compatible(
      UInt32(BIKI_PLUGIN_ABI_VERSION),
      UnsafeRawPointer(host).load(
        fromByteOffset: MemoryLayout<biki_host_t>.offset(of: \.abi_version) ?? 4, as: UInt32.self)) != 0
  else {
    return nil
  }
  return UnsafePointer(descriptor)
}

#if canImport(Glibc)
  import Glibc
#endif
