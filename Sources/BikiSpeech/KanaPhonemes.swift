/// The phonemes Open JTalk says for a kana reading, written as its trace writes them (`h a cl
/// p o N` for はっぽん): what a voice must say for the reading Biki teaches. Vowels are in lower
/// case; Open JTalk writes a devoiced one in upper case (つ in はつか, `ts U`), which is the
/// same sound for this purpose.
package enum KanaPhonemes {
  /// The phonemes of `reading` (hiragana or katakana), or nil when it has anything else: a
  /// reading with other characters cannot be checked, so it is not claimed to be right.
  package static func of(_ reading: String) -> [String]? {
    var phonemes: [String] = []
    let scalars = Array(hiragana(reading).unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      // A kana with a small one after it is one mora: きゃ, ふぁ, てぃ.
      if index + 1 < scalars.count, let pair = digraphs[String(scalar) + String(scalars[index + 1])] {
        phonemes += pair
        index += 2
        continue
      }
      index += 1
      switch scalar {
      case "っ": phonemes.append("cl")
      case "ん": phonemes.append("N")
      case "ー":
        // A long vowel mark lengthens the vowel before it.
        guard let vowel = phonemes.last, vowels.contains(vowel) else { return nil }
        phonemes.append(vowel)
      default:
        guard let mora = morae[scalar] else { return nil }
        phonemes += mora
      }
    }
    return phonemes
  }

  /// Katakana as hiragana (ー kept): Open JTalk says both alike.
  static func hiragana(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          (0x30A1...0x30F6).contains(scalar.value) ? Unicode.Scalar(scalar.value - 0x60) ?? scalar : scalar
        }))
  }

  /// Hiragana as katakana.
  static func katakana(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          (0x3041...0x3096).contains(scalar.value) ? Unicode.Scalar(scalar.value + 0x60) ?? scalar : scalar
        }))
  }

  static let vowels: Set<String> = ["a", "i", "u", "e", "o"]

  static let morae: [Unicode.Scalar: [String]] = {
    var table: [Unicode.Scalar: [String]] = [:]
    let rows: [(String, String, [String])] = [
      ("", "あいうえお", ["a", "i", "u", "e", "o"]),
      ("k", "かきくけこ", ["a", "i", "u", "e", "o"]), ("g", "がぎぐげご", ["a", "i", "u", "e", "o"]),
      ("s", "さすせそ", ["a", "u", "e", "o"]), ("z", "ざずぜぞ", ["a", "u", "e", "o"]),
      ("t", "たてと", ["a", "e", "o"]), ("d", "だでど", ["a", "e", "o"]),
      ("n", "なにぬねの", ["a", "i", "u", "e", "o"]),
      ("h", "はひへほ", ["a", "i", "e", "o"]), ("b", "ばびぶべぼ", ["a", "i", "u", "e", "o"]),
      ("p", "ぱぴぷぺぽ", ["a", "i", "u", "e", "o"]), ("m", "まみむめも", ["a", "i", "u", "e", "o"]),
      ("y", "やゆよ", ["a", "u", "o"]), ("r", "らりるれろ", ["a", "i", "u", "e", "o"]), ("w", "わ", ["a"]),
    ]
    for (consonant, kana, vowels) in rows {
      for (scalar, vowel) in zip(kana.unicodeScalars, vowels) {
        table[scalar] = consonant.isEmpty ? [vowel] : [consonant, vowel]
      }
    }
    let others: [(Unicode.Scalar, [String])] = [
      ("し", ["sh", "i"]), ("じ", ["j", "i"]), ("ち", ["ch", "i"]), ("ぢ", ["j", "i"]), ("つ", ["ts", "u"]),
      ("づ", ["z", "u"]), ("ふ", ["f", "u"]), ("を", ["o"]), ("ゔ", ["v", "u"]),
    ]
    for (scalar, phonemes) in others { table[scalar] = phonemes }
    return table
  }()

  static let digraphs: [String: [String]] = {
    var table: [String: [String]] = [:]
    let palatal: [(String, String)] = [
      ("き", "ky"), ("ぎ", "gy"), ("し", "sh"), ("じ", "j"), ("ち", "ch"), ("ぢ", "j"), ("に", "ny"), ("ひ", "hy"),
      ("び", "by"), ("ぴ", "py"), ("み", "my"), ("り", "ry"),
    ]
    for (kana, consonant) in palatal {
      table[kana + "ゃ"] = [consonant, "a"]
      table[kana + "ゅ"] = [consonant, "u"]
      table[kana + "ょ"] = [consonant, "o"]
    }
    for (kana, consonant) in [("し", "sh"), ("じ", "j"), ("ち", "ch")] { table[kana + "ぇ"] = [consonant, "e"] }
    let foreign: [(String, [String])] = [
      ("ふぁ", ["f", "a"]), ("ふぃ", ["f", "i"]), ("ふぇ", ["f", "e"]), ("ふぉ", ["f", "o"]), ("てぃ", ["t", "i"]),
      ("でぃ", ["d", "i"]), ("とぅ", ["t", "u"]), ("どぅ", ["d", "u"]), ("うぃ", ["w", "i"]), ("うぇ", ["w", "e"]),
      ("うぉ", ["w", "o"]), ("つぁ", ["ts", "a"]), ("ゔぁ", ["v", "a"]),
    ]
    for (kana, phonemes) in foreign { table[kana] = phonemes }
    return table
  }()
}
