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

  /// Each question as the whole answer of a request for it alone (`{"questions":[…]}`): the
  /// most common request of all is then answered with the bytes as kept. A request for more
  /// takes each question's piece from inside its answer.
  private let kept = Locked<[UInt64: [UInt8]]>([:])

  /// The answer of a request for the one question at `place`, if kept.
  func answer(at place: UInt64) -> [UInt8]? {
    kept.withLock { $0[place] }
  }

  /// The written questions at these places, nil where none is kept.
  func pieces(at places: [UInt64]) -> [ArraySlice<UInt8>?] {
    kept.withLock { kept in places.map { kept[$0].map(Self.piece) } }
  }

  /// Keeps written questions; returns the answer of a request for each alone.
  @discardableResult
  func keep(_ written: [(place: UInt64, bytes: [UInt8])]) -> [[UInt8]] {
    let answers = written.map { Self.answer(CollectionOfOne($0.bytes)) }
    guard !written.isEmpty else { return answers }
    kept.withLock { kept in
      if kept.count + written.count > Self.capacity { kept.removeAll(keepingCapacity: true) }
      for (entry, answer) in zip(written, answers).prefix(Self.capacity) { kept[entry.place] = answer }
    }
    return answers
  }

  var count: Int { kept.withLock { $0.count } }

  private static let opening: StaticString = #"{"questions":["#
  private static let closing: StaticString = "]}"

  /// `{"questions": [...]}` around questions already written.
  static func answer<Piece: Collection<UInt8>>(_ pieces: some Collection<Piece>) -> [UInt8] {
    // Sized once: the answer is built for every `biki/generate` not kept whole.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(
      pieces.reduce(opening.utf8CodeUnitCount + closing.utf8CodeUnitCount) { $0 + $1.count + 1 })
    bytes.append(contentsOf: UnsafeBufferPointer(start: opening.utf8Start, count: opening.utf8CodeUnitCount))
    for (position, piece) in pieces.enumerated() {
      if position > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(contentsOf: piece)
    }
    bytes.append(contentsOf: UnsafeBufferPointer(start: closing.utf8Start, count: closing.utf8CodeUnitCount))
    return bytes
  }

  /// The one question inside an answer `answer` wrote for it alone.
  private static func piece(of answer: [UInt8]) -> ArraySlice<UInt8> {
    answer[opening.utf8CodeUnitCount..<(answer.count - closing.utf8CodeUnitCount)]
  }
}
