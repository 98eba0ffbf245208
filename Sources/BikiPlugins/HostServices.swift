import BikiJapanese
import BikiPluginABI
import Glibc

/// Biki as a plugin sees it: the `biki_host_t` handed to the entry, and the services behind its
/// `get_extension`. The ABI promises a plugin that the host stays valid until the process
/// exits, so each one is allocated for good.
enum HostServices {
  static let name = "Biki"

  /// A host struct for a library being loaded; its `host_data` points at the services.
  static func host(version: String) -> UnsafePointer<biki_host_t> {
    let readings = UnsafeMutablePointer<biki_host_readings_t>.allocate(capacity: 1)
    readings.initialize(
      to: biki_host_readings_t(size: UInt32(MemoryLayout<biki_host_readings_t>.size), read_number: readNumber))
    let host = UnsafeMutablePointer<biki_host_t>.allocate(capacity: 1)
    host.initialize(
      to: biki_host_t(
        size: UInt32(MemoryLayout<biki_host_t>.size), abi_version: UInt32(BIKI_PLUGIN_ABI_VERSION),
        name: UnsafePointer(strdup(name)), version: UnsafePointer(strdup(version)),
        host_data: UnsafeMutableRawPointer(readings),
        get_extension: getExtension, abi_minor: PluginABIVersion.host.minor))
    return UnsafePointer(host)
  }

  private static let getExtension:
    @convention(c) (UnsafePointer<biki_host_t>?, UnsafePointer<CChar>?) -> UnsafeRawPointer? = { host, id in
      guard let host, let id else { return nil }
      switch String(cString: id) {
      case BIKI_HOST_EXT_READINGS: return UnsafeRawPointer(host.pointee.host_data)
      case BIKI_HOST_EXT_ANSWERS: return UnsafeRawPointer(answers)
      default: return nil
      }
    }

  /// `biki.answers.1`: every shape an answer may have. Never freed: the ABI promises it lives
  /// as long as the process.
  /// Written once, before any plugin can read it, and never again.
  nonisolated(unsafe) private static let answers: UnsafePointer<biki_host_answers_t> = {
    let answers = UnsafeMutablePointer<biki_host_answers_t>.allocate(capacity: 1)
    answers.initialize(
      to: biki_host_answers_t(
        size: UInt32(MemoryLayout<biki_host_answers_t>.size),
        shapes: BIKI_ANSWER_SHAPE_DECIMAL | BIKI_ANSWER_SHAPE_FRACTION | BIKI_ANSWER_SHAPE_CLOCK
          | BIKI_ANSWER_SHAPE_CODE))
    return UnsafePointer(answers)
  }()

  /// `biki.readings.1`: every reading of a number with a counter, as a JSON array.
  private static let readNumber:
    @convention(c) (
      UnsafePointer<biki_host_t>?, UInt64, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<biki_call_t>?
    ) -> biki_status_t = {
      _, value, counter, counterReading, call in
      guard let call else { return Int32(BIKI_STATUS_INVALID_PARAMETER) }
      // An empty write first: a writer of Biki's whose call has returned refuses it and records
      // the late use at once, before any reading is made, so lint finds it however long reading
      // would take.
      guard let output = call.pointee.output, let probe = output.pointee.write, probe(output, nil, 0) == 0 else {
        return Int32(BIKI_STATUS_OUTPUT_REFUSED)
      }
      let counterName = counter.flatMap { String(validatingCString: $0) } ?? ""
      let reading = counterReading.flatMap { String(validatingCString: $0) }
      switch HostServices.readings(of: value, counter: counterName, counterReading: reading) {
      case .success(let readings):
        let json = "[" + readings.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        return write(json, to: call.pointee.output) ? Int32(BIKI_STATUS_OK) : Int32(BIKI_STATUS_OUTPUT_REFUSED)
      case .failure(let message):
        _ = write(message.text, to: call.pointee.error)
        return Int32(BIKI_STATUS_INVALID_PARAMETER)
      }
    }

  struct Message: Error { var text: String }

  /// The built-in counters, and where each id and symbol is among them (the first counter with
  /// a symbol wins, as in the catalog), found by the bytes of the name: plugins ask for one per
  /// question.
  private static let knownCounters = CounterCatalog.standard.counters
  private static let knownCounterIndex: [TextBytes: Int] = {
    var index: [TextBytes: Int] = [:]
    for (position, counter) in knownCounters.enumerated() {
      for name in [counter.id] + counter.symbols where index[TextBytes(name)] == nil {
        index[TextBytes(name)] = position
      }
    }
    return index
  }()

  /// What `read_number` answers: Biki's readings of `value` with a counter it knows (by id or
  /// symbol), or with one the plugin names and reads plainly, or of the bare number.
  static func readings(of value: UInt64, counter: String, counterReading: String?) -> Result<[String], Message> {
    number(value, counter: counter, counterReading: counterReading).map { $0.reading.all() }
  }

  /// What Biki makes of a number a question declares: its reading, and the forms it exercises
  /// (none for a counter Biki does not know). One lookup of the counter serves both.
  static func number(_ value: UInt64, counter: String, counterReading: String?) -> Result<
    (reading: Reading, forms: [ReadingForm]), Message
  > {
    do {
      if counter.isEmpty {
        return .success((try JapaneseNumber.reading(of: UInt128(value)), ReadingForms.of(UInt128(value))))
      }
      if let position = knownCounterIndex[TextBytes(counter)] {
        let known = knownCounters[position]
        return .success(
          (try JapaneseNumber.reading(of: UInt128(value), with: known), ReadingForms.of(UInt128(value), counter: known))
        )
      }
      guard let counterReading, KanaText.isKana(counterReading) else {
        return .failure(
          Message(
            text: "Biki does not know the counter \"\(counter)\"; pass its reading in hiragana as counter_reading"))
      }
      let plain = Counter(id: "plugin", symbols: [counter], reading: counterReading, kind: .counter)
      return .success((try JapaneseNumber.reading(of: UInt128(value), with: plain), []))
    } catch {
      return .failure(Message(text: error.description))
    }
  }

  private static func write(_ text: String, to writer: UnsafePointer<biki_writer_t>?) -> Bool {
    guard let writer, let write = writer.pointee.write else { return false }
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { write(writer, $0.baseAddress, $0.count) == 0 }
    }
  }
}
