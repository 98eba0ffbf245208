/// "Did you mean …?" for mistyped names: keys, options, subcommands, topic ids.
package enum Suggestion {
  /// The closest candidate by edit distance, when it is close enough to be a typo.
  package static func closest(to word: String, among candidates: [String]) -> String? {
    SuggestionIndex(candidates).closest(to: word)
  }

  /// No name Biki suggests is longer; a longer word is not a typo of one.
  package static let maximumWordLength = 128

  /// " Did you mean 'x'?" for the closest candidate, or nothing: the hint command-line errors end with.
  package static func didYouMean(_ word: String, among candidates: [String]) -> String {
    closest(to: word, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
  }

  /// Edit distance in Unicode scalars, with adjacent transpositions as one edit.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    var rows: [Int] = []
    return SuggestionIndex.distance(a, b, atMost: max(a.count, b.count), rows: &rows)
  }
}

/// Names to suggest from, prepared once (lowercased, split into scalars), so that a mistyped
/// name costs a pass over the few candidates of about its length, each compared only as far as
/// it could still be a typo: a server asked for a stale topic id answers nearly as fast as for
/// a real one.
package struct SuggestionIndex: Sendable {
  private let names: [String]
  private let lowered: [[Unicode.Scalar]]

  package init(_ names: [String]) {
    self.names = names
    self.lowered = names.map { Array($0.lowercased().unicodeScalars) }
  }

  /// The closest name by edit distance, when it is close enough to be a typo: at most a third
  /// of the name's length (and at least 2), and sharing something. Candidates whose length
  /// alone rules them out are skipped before any distance is computed (the distance is at least
  /// the difference in lengths), so a huge word costs no more than reading it once.
  package func closest(to word: String) -> String? {
    let typed = Array(word.lowercased().unicodeScalars)
    let length = typed.count
    guard length <= Suggestion.maximumWordLength else { return nil }
    var best: (index: Int, distance: Int)?
    var rows: [Int] = []
    for (index, candidate) in lowered.enumerated() {
      let candidateLength = candidate.count
      let typo = min(max(2, candidateLength / 3), max(length, candidateLength) - 1)
      let allowed = min(typo, (best?.distance ?? .max) - 1)
      // Among equals, a name as long as the one typed is the likelier slip: such a name is
      // compared as far as the best distance so far, to find a tie.
      let sameLength = candidateLength == length && best.map { lowered[$0.index].count != length } == true
      let limit = sameLength ? max(allowed, best?.distance ?? 0) : allowed
      guard limit >= 0, abs(length - candidateLength) <= limit else { continue }
      let distance = Self.distance(typed, candidate, atMost: limit, rows: &rows)
      if distance <= allowed {
        best = (index, distance)
      } else if sameLength, let current = best, distance == current.distance {
        best = (index, distance)
      }
    }
    return best.map { names[$0.index] }
  }

  /// Levenshtein distance with adjacent transpositions as one edit (optimal string alignment:
  /// "hno" is one slip from "hon", as people type), or `limit + 1` as soon as it must exceed
  /// `limit`. `rows` is scratch space, reused across calls.
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int, rows: inout [Int]) -> Int {
    if a.isEmpty { return min(b.count, limit + 1) }
    if b.isEmpty { return min(a.count, limit + 1) }
    let width = b.count + 1
    if rows.count < 3 * width { rows = [Int](repeating: 0, count: 3 * width) }
    return rows.withUnsafeMutableBufferPointer { buffer -> Int in
      // Three rows in one buffer: two before, one before, and the current one.
      var twoBack = 0
      var previous = width
      var current = 2 * width
      for j in 0...b.count { buffer[previous + j] = j }
      for i in 1...a.count {
        buffer[current] = i
        var rowMinimum = i
        for j in 1...b.count {
          let substitution = buffer[previous + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
          var value = min(buffer[previous + j] + 1, buffer[current + j - 1] + 1, substitution)
          if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
            value = min(value, buffer[twoBack + j - 2] + 1)
          }
          buffer[current + j] = value
          rowMinimum = min(rowMinimum, value)
        }
        // A row's least value never falls in later rows (a transposition reaches back two rows
        // but adds one, and a row is at most one above the row before), so past the limit the
        // distance is too.
        if rowMinimum > limit { return limit + 1 }
        (twoBack, previous, current) = (previous, current, twoBack)
      }
      return min(buffer[previous + b.count], limit + 1)
    }
  }
}
