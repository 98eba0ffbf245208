/// "Did you mean …?" for mistyped names: keys, options, subcommands, topic ids.
public enum Suggestion {
  /// The closest candidate by edit distance, when it is close enough to be a typo.
  public static func closest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
    // Close enough to be a typo, and sharing something: any one character is one edit from any other.
    guard let (candidate, distance) = scored, distance <= max(2, candidate.count / 3),
      distance < max(word.count, candidate.count)
    else { return nil }
    return candidate
  }

  /// " Did you mean 'x'?" for the closest candidate, or nothing: the hint command-line errors end with.
  public static func didYouMean(_ word: String, among candidates: [String]) -> String {
    closest(to: word, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
  }

  /// Levenshtein distance, in characters.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
