/// The kana reading of a phrase, with every accepted alternate.
///
/// A reading is a sequence of segments, each holding one or more alternatives; the first
/// alternative of every segment is the standard form. Keeping the alternatives per segment
/// (a lattice) instead of a list of whole strings lets `8本` carry `はっぽん|はちほん`, and a
/// long number carry its なな/しち choices, without multiplying strings: answers are matched
/// against the lattice directly, and whole strings are only spelled out on request.
package struct Reading: Hashable, Sendable {
  /// Each segment's alternatives, standard first.
  private(set) var parts: [ReadingSegment]

  package init(segments: [[String]]) {
    precondition(!segments.isEmpty && segments.allSatisfy { !$0.isEmpty }, "a reading needs text")
    self.parts = segments.map { ReadingSegment($0) }
  }

  package init(_ text: String) {
    self.parts = [ReadingSegment(text)]
  }

  /// Every alternative as one list (the standard first, duplicates removed).
  package init(alternatives: [String]) {
    precondition(!alternatives.isEmpty, "a reading needs text")
    self.parts = [ReadingSegment(alternatives)]
  }

  /// Segments known to be well formed (built from constants); skips the checks on a hot path.
  init(parts: [ReadingSegment]) {
    self.parts = parts
  }

  /// Each segment's alternatives as plain lists.
  var segments: [[String]] { parts.map(\.alternatives) }

  /// Whether typed kana spells one of the readings once both are normalised alike
  /// (`KanaText.normalized`): a loanword stored as ぱーせんと matches じゅっぱーせんと,
  /// ジュッパーセント and じゅっぱあせんと.
  package func acceptsTyped(_ typed: String) -> Bool {
    if acceptsTyped(typed, longO: "う") { return true }
    // ー after an お-row kana is う in most words, but お where お itself is long: ごー for ごお.
    return typed.unicodeScalars.contains("ー") && acceptsTyped(typed, longO: "お")
  }

  private func acceptsTyped(_ typed: String, longO: Unicode.Scalar) -> Bool {
    let normalized = KanaText.normalized(typed, longO: longO)
    if accepts(normalized) { return true }
    // Only readings with a long-vowel mark differ from their normal form.
    guard parts.contains(where: { $0.alternatives.contains { $0.unicodeScalars.contains("ー") } }) else { return false }
    return Reading(parts: parts.map { ReadingSegment($0.alternatives.map { KanaText.normalized($0) }) }).accepts(
      normalized)
  }

  /// Whether typed kana is accepted only through an alternate marked uncommon (じっぷん, where
  /// the usual reading is じゅっぷん): right, but worth a word, and refused when strict.
  package func isUncommon(typed: String) -> Bool {
    guard parts.contains(where: { $0.uncommon != nil }) else { return false }
    return acceptsTyped(typed) && !Reading(parts: parts.map(\.usual)).acceptsTyped(typed)
  }

  /// The standard reading: the first alternative of every segment.
  package var standard: String {
    var length = 0
    for part in parts { length += part.standard.utf8.count }
    return String(unsafeUninitializedCapacity: length) { buffer in
      var offset = 0
      for part in parts {
        var text = part.standard
        text.withUTF8 { bytes in
          _ = UnsafeMutableBufferPointer(rebasing: buffer[offset..<(offset + bytes.count)]).initialize(from: bytes)
          offset += bytes.count
        }
      }
      return offset
    }
  }

  /// How many distinct whole readings the lattice spells (an upper bound when segments overlap).
  package var variantCount: Int {
    parts.reduce(1) { count, part in
      let (product, overflow) = count.multipliedReportingOverflow(by: part.alternates.count + 1)
      return overflow ? Int.max : product
    }
  }

  /// Whole readings, the standard first, then alternates in order of the earliest segment that
  /// differs; at most `limit` of them.
  package func all(limit: Int = 64) -> [String] {
    guard limit > 0 else { return [] }
    if parts.allSatisfy({ $0.others == nil }) { return [standard] }
    var results: [String] = []
    // Each segment's choice: 0 for its standard, n for its nth alternate.
    var choice = [Int](repeating: 0, count: parts.count)
    while results.count < limit {
      var text = ""
      for index in parts.indices {
        text +=
          choice[index] == 0 ? parts[index].standard : parts[index].others?[choice[index] - 1] ?? parts[index].standard
      }
      // Compared as bytes, as in `unique`: no Unicode normalisation for kana.
      if !results.contains(where: { $0.hasSameBytes(as: text) }) { results.append(text) }
      // An odometer with the last segment turning fastest keeps "standard first" order stable.
      var position = parts.count - 1
      while position >= 0 {
        choice[position] += 1
        if choice[position] <= parts[position].others?.count ?? 0 { break }
        choice[position] = 0
        position -= 1
      }
      if position < 0 { break }
    }
    return results
  }

  /// Whether `kana` (already normalised to hiragana) spells one of the readings.
  package func accepts(_ kana: String) -> Bool {
    // Compared as UTF-8 bytes, as in `unique`: kana are generated, so no normalisation applies.
    Self.withBytes(of: kana) { spells(in: $0, from: 0, toTheEnd: true) }
  }

  /// Whether one of the readings is spelled somewhere in `kana` (composed hiragana):
  /// ぜいこみさんまんえん contains さんまんえん. Every reading counts, not only the first
  /// `all()` lists.
  func isSpelled(within kana: String) -> Bool {
    // A start inside a character never matches: readings begin with a lead byte.
    Self.withBytes(of: kana) { bytes in (0...bytes.count).contains { spells(in: bytes, from: $0, toTheEnd: false) } }
  }

  private static func withBytes(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
    text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
  }

  /// Whether the readings spell `target` from `start`, to its end or to anywhere.
  private func spells(in target: UnsafeBufferPointer<UInt8>, from start: Int, toTheEnd: Bool) -> Bool {
    // The byte offsets each step can reach, as two short lists on the stack (this step's and
    // the next's): a reading has one or two ways through at each step, so visiting just those
    // costs less than scanning a row of flags for every offset. An end is listed once, and
    // every end lies in 0...target.count, so a list never outgrows `width`.
    let width = target.count + 1
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * width) { offsets in
      var (reachable, next) = (0, width)
      var reachableCount = 1
      offsets[reachable] = start
      for part in parts {
        var nextCount = 0
        for listed in 0..<reachableCount {
          let offset = offsets[reachable + listed]
          // The standard, then the alternates, without forming the list of both per offset.
          for index in -1..<(part.others?.count ?? 0) {
            let word = index < 0 ? part.standard : part.others?[index] ?? part.standard
            guard let end = Self.match(word, in: target, at: offset) else { continue }
            if !(0..<nextCount).contains(where: { offsets[next + $0] == end }) {
              offsets[next + nextCount] = end
              nextCount += 1
            }
          }
        }
        if nextCount == 0 { return false }
        swap(&reachable, &next)
        reachableCount = nextCount
      }
      return !toTheEnd || (0..<reachableCount).contains { offsets[reachable + $0] == target.count }
    }
  }

  /// Where `word` ends when `target` spells it from `offset`, or nil.
  private static func match(_ word: String, in target: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
    let length = word.utf8.count
    guard length <= target.count - offset else { return nil }
    let spelled = UnsafeBufferPointer(rebasing: target[offset..<(offset + length)])
    let equal =
      word.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(spelled) } ?? word.utf8.elementsEqual(spelled)
    return equal ? offset + length : nil
  }

  /// This reading followed by another.
  func appending(_ other: Reading) -> Reading {
    Reading(parts: parts + other.parts)
  }

  package static func + (lhs: Reading, rhs: Reading) -> Reading { lhs.appending(rhs) }

  /// Alternatives without repeats, in order. Compared as UTF-8 bytes: readings are generated
  /// kana, and byte equality skips the Unicode normalisation that hashing and `==` perform
  /// for non-ASCII text. The lists are a handful long, so a linear scan beats a set.
  static func unique(_ alternatives: [String]) -> [String] {
    guard alternatives.count > 1 else { return alternatives }
    var result: [String] = []
    result.reserveCapacity(alternatives.count)
    for alternative in alternatives where !result.contains(where: { $0.hasSameBytes(as: alternative) }) {
      result.append(alternative)
    }
    return result
  }
}

/// One segment of a reading: its standard form and any accepted alternates. Most segments
/// have no alternates, so copying one costs a short string and the shared empty array.
struct ReadingSegment: Hashable, Sendable {
  package var standard: String
  /// nil rather than empty when there are none, so copying a segment retains nothing extra.
  fileprivate private(set) var others: [String]?
  /// Those of `others` accepted but less usual today (じっぽん beside じゅっぽん); nil when none.
  fileprivate private(set) var uncommon: [String]?

  package init(_ standard: String) {
    self.standard = standard
    self.others = nil
  }

  /// The alternatives, standard first; duplicates are dropped.
  package init(_ alternatives: [String]) {
    let unique = Reading.unique(alternatives)
    self.standard = unique[0]
    self.others = unique.count > 1 ? Array(unique.dropFirst()) : nil
  }

  /// The alternatives, standard first, with those of them that are `uncommon`.
  package init(_ alternatives: [String], uncommon: Set<String>) {
    self.init(alternatives)
    let marked = alternates.filter { uncommon.contains($0) }
    self.uncommon = marked.isEmpty ? nil : marked
  }

  /// The segment without its uncommon alternates.
  var usual: ReadingSegment {
    guard let uncommon else { return self }
    return ReadingSegment(distinct: alternatives.filter { alternative in !uncommon.contains(alternative) })
  }

  /// Alternatives already known to be distinct (built from constants); skips the dedupe.
  init(distinct alternatives: [String]) {
    self.standard = alternatives[0]
    self.others = alternatives.count > 1 ? Array(alternatives.dropFirst()) : nil
  }

  /// The accepted forms other than the standard one.
  var alternates: [String] { others ?? [] }

  var alternatives: [String] { others.map { [standard] + $0 } ?? [standard] }
}

extension Reading: CustomStringConvertible {
  /// Whole readings separated by `|`, the standard first, as `biki read` prints them.
  package var description: String { all().joined(separator: "|") }
}
