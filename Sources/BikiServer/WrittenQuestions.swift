import BikiCore
import BikiJSON
import BikiSync

/// A topic's questions as `biki/generate` writes them, kept by their place in the topic's
/// space: a question is a pure function of its topic and place, so one written before is sent
/// again as its bytes instead of being made and written anew. Most topics have a few dozen
/// questions (本 to 10, the months, the hours) and a client asking seed after seed meets each
/// again and again; a topic of millions keeps at most a few thousand, starting over when full.
///
/// A plugin's questions made ahead (seed after seed) are kept here once written too: they are
/// kept already as questions (`MadeQuestions`), so writing them once changes nothing sent.
///
/// Only the default parameters' questions are kept (the entry holding this is rebuilt when its
/// pack or plugin changes), and never a failure: a question that could not be made is made, and
/// fails, again, as it would without this.
final class WrittenQuestions: Sendable {
  /// The most questions kept; past it the store starts over, so memory stays bounded (a
  /// question is a few hundred bytes) whatever a client asks for.
  static let capacity = 4096

  private let kept = Locked<[UInt64: [UInt8]]>([:])

  /// The written questions at these places, nil where none is kept.
  func find(_ places: [UInt64]) -> [[UInt8]?] {
    kept.withLock { kept in places.map { kept[$0] } }
  }

  /// One place's written question, if kept.
  func find(_ place: UInt64) -> [UInt8]? {
    kept.withLock { $0[place] }
  }

  func keep(_ written: [(place: UInt64, bytes: [UInt8])]) {
    guard !written.isEmpty else { return }
    kept.withLock { kept in
      if kept.count + written.count > Self.capacity { kept.removeAll(keepingCapacity: true) }
      for (place, bytes) in written.prefix(Self.capacity) { kept[place] = bytes }
    }
  }

  var count: Int { kept.withLock { $0.count } }
}
