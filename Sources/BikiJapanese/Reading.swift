/// The kana reading of a phrase, with every accepted alternate.
///
/// A reading is a sequence of segments, each holding one or more alternatives; the first
/// alternative of every segment is the standard form. Keeping the alternatives per segment
/// (a lattice) instead of a list of whole strings lets `8本` carry `はっぽん|はちほん`, and a
/// long number carry its なな/しち choices, without multiplying strings: answers are matched
/// against the lattice directly, and whole strings are only spelled out on request.
public struct Reading: Hashable, Sendable {
  /// Each segment's alternatives, standard first. Never empty, and no segment is empty.
  public private(set) var segments: [[String]]

  public init(segments: [[String]]) {
    precondition(!segments.isEmpty && segments.allSatisfy { !$0.isEmpty }, "a reading needs text")
    self.segments = segments
  }

  public init(_ text: String) {
    self.segments = [[text]]
  }

  /// Every alternative as one list (the standard first, duplicates removed).
  public init(alternatives: [String]) {
    self.segments = [Reading.unique(alternatives)]
  }

  /// The standard reading: the first alternative of every segment.
  public var standard: String {
    var text = ""
    text.reserveCapacity(segments.count * 9)
    for segment in segments { text += segment[0] }
    return text
  }

  /// How many distinct whole readings the lattice spells (an upper bound when segments overlap).
  public var variantCount: Int {
    segments.reduce(1) { count, segment in count.multipliedReportingOverflow(by: segment.count).overflow ? Int.max : count * segment.count }
  }

  /// Whole readings, the standard first, then alternates in order of the earliest segment that
  /// differs; at most `limit` of them.
  public func all(limit: Int = 64) -> [String] {
    var results: [String] = []
    var seen = Set<String>()
    var choice = [Int](repeating: 0, count: segments.count)
    while results.count < limit {
      var text = ""
      for (index, segment) in segments.enumerated() { text += segment[choice[index]] }
      if seen.insert(text).inserted { results.append(text) }
      // Odometer with the last segment turning fastest keeps "standard first" order stable.
      var position = segments.count - 1
      while position >= 0 {
        choice[position] += 1
        if choice[position] < segments[position].count { break }
        choice[position] = 0
        position -= 1
      }
      if position < 0 { break }
    }
    return results
  }

  /// Whether `kana` (already normalised to hiragana) spells one of the readings.
  public func accepts(_ kana: String) -> Bool {
    let target = Array(kana.unicodeScalars)
    // Reachable offsets after each segment; lattices are short, so a set per step is cheap.
    var reachable: Set<Int> = [0]
    for segment in segments {
      var next: Set<Int> = []
      for offset in reachable {
        for alternative in segment where Reading.matches(alternative, in: target, at: offset) {
          next.insert(offset + alternative.unicodeScalars.count)
        }
      }
      if next.isEmpty { return false }
      reachable = next
    }
    return reachable.contains(target.count)
  }

  /// This reading followed by another.
  public func appending(_ other: Reading) -> Reading {
    Reading(segments: segments + other.segments)
  }

  public static func + (lhs: Reading, rhs: Reading) -> Reading { lhs.appending(rhs) }

  private static func matches(_ alternative: String, in target: [Unicode.Scalar], at offset: Int) -> Bool {
    var index = offset
    for scalar in alternative.unicodeScalars {
      guard index < target.count, target[index] == scalar else { return false }
      index += 1
    }
    return true
  }

  static func unique(_ alternatives: [String]) -> [String] {
    var seen = Set<String>()
    return alternatives.filter { seen.insert($0).inserted }
  }
}

extension Reading: CustomStringConvertible {
  /// Whole readings separated by `|`, the standard first, as `biki read` prints them.
  public var description: String { all().joined(separator: "|") }
}
