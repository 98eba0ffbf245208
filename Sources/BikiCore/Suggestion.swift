/// "Did you mean …?" for mistyped names: keys, options, subcommands, topic ids.
package enum Suggestion {
  /// The closest candidate by edit distance, when it is close enough to be a typo.
  ///
  /// Candidates whose length alone rules them out are skipped before any distance is
  /// computed (the distance is at least the difference in lengths), so a huge word costs
  /// no more than reading it once.
  package static func closest(to word: String, among candidates: [String]) -> String? {
    let length = word.count
    guard length <= maximumWordLength else { return nil }
    let lowered = word.lowercased()
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let candidateLength = candidate.count
      let allowed = min(max(2, candidateLength / 3), max(length, candidateLength) - 1, (best?.distance ?? .max) - 1)
      guard abs(length - candidateLength) <= allowed else { continue }
      let distance = editDistance(lowered, candidate.lowercased())
      // Close enough to be a typo, and sharing something: any one character is one edit from any
      // other. Among equals, a word as long as the one typed is the likelier slip.
      if distance <= allowed {
        best = (candidate, distance)
      } else if let current = best, distance == current.distance, candidateLength == length, current.candidate.count != length {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }

  /// No name Biki suggests is longer; a longer word is not a typo of one.
  static let maximumWordLength = 128

  /// " Did you mean 'x'?" for the closest candidate, or nothing: the hint command-line errors end with.
  package static func didYouMean(_ word: String, among candidates: [String]) -> String {
    closest(to: word, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
  }

  /// Levenshtein distance, in characters.
  package static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    // Levenshtein with adjacent transpositions as one edit (optimal string alignment): "hno"
    // is one slip from "hon", as people type.
    var beforePrevious = Array(0...b.count)
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], beforePrevious[j - 2] + 1) }
      }
      beforePrevious = previous
      previous = current
    }
    return previous[b.count]
  }
}
