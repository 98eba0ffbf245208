import BikiJapanese
import BikiSync

/// Biki's own readings of the displays a plugin has shown (`令和5年` → れいわごねん), kept so that
/// a display met again is not read again. Reading a display is a pure function of its text, and
/// a topic shows the same displays over and over; every question's readings are still compared
/// with Biki's, so remembering changes what a check costs, never what it finds.
///
/// Shared by the copies of one plugin's `PluginTopics`, and so by threads: a batch's questions
/// are checked on one thread while the next chunk is made on another.
package final class DisplayReadings: Sendable {
  /// The most displays kept. A topic with more distinct displays starts over when this many are
  /// kept: memory stays bounded whatever a plugin shows.
  static let capacity = 4096
  /// The longest display kept, in UTF-8 bytes; a longer one is read every time. Displays are a
  /// few words, and a plugin that writes long ones cannot fill memory with them.
  static let longestKept = 256

  private let known = Locked<[TextBytes: Result<Reading, ReadingError>]>([:])
  /// The numbers of the runs that show one, kept the same way.
  private let knownNumbers = Locked<[TextBytes: Result<[WrittenNumber], ReadingError>]>([:])

  package init() {}

  /// Biki's reading of `display`, or nil when Biki cannot read it.
  func reading(of display: String) -> Reading? {
    try? result(of: display).get()
  }

  /// Biki's reading of `display`, or why Biki cannot read it.
  func result(of display: String) -> Result<Reading, ReadingError> {
    Self.remembered(display, in: known) { () throws(ReadingError) in try PhraseReader().read(display) }
  }

  /// The numbers Biki reads in `run` (`PhraseReader.numbers(in:)`), or why it cannot.
  func numbers(in run: String) -> Result<[WrittenNumber], ReadingError> {
    Self.remembered(run, in: knownNumbers) { () throws(ReadingError) in try PhraseReader().numbers(in: run) }
  }

  private static func remembered<Value>(
    _ display: String, in store: Locked<[TextBytes: Result<Value, ReadingError>]>,
    _ compute: () throws(ReadingError) -> Value
  ) -> Result<Value, ReadingError> {
    guard display.utf8.count <= Self.longestKept else { return Result(catching: compute) }
    let key = TextBytes(display)
    if let found = store.withLock({ $0[key] }) { return found }
    let result = Result(catching: compute)
    store.withLock { known in
      if known.count >= Self.capacity { known.removeAll(keepingCapacity: true) }
      known[key] = result
    }
    return result
  }

  /// How many displays are kept now.
  var count: Int { known.withLock { $0.count } }
}

/// Text compared and hashed by its UTF-8 bytes, for keys that are not ASCII (displays, counter
/// symbols): `String`'s own `==` and hashing normalise such text first.
struct TextBytes: Hashable, Sendable {
  let text: String

  init(_ text: String) { self.text = text }

  static func == (left: TextBytes, right: TextBytes) -> Bool { left.text.hasSameBytes(as: right.text) }

  func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
