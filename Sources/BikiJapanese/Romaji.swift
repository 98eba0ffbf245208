/// Romaji typed for kana, as a learner without a Japanese input method types a reading: Hepburn
/// (shi, chi, tsu, fu, ji, sha), Kunrei and the spellings IMEs take (si, ti, tu, hu, zi, sya,
/// jya), ん as n before a consonant or at the end, nn or n', a doubled consonant (tt, tch) as っ,
/// - as ー, and long vowels with macrons (jū, tō) or spelled out (juu, tou). Kana and digits typed
/// among the letters stay as they are.
///
/// Nothing is guessed: a spelling outside these (a lone consonant, x, l, q, v) makes the whole
/// input unreadable. A macron that stands for two spellings (ō for おう and おお, ē for えい
/// and ええ) gives each.
package enum Romaji {
  /// The hiragana `text` spells, one form a way of reading its macrons; nil when some part is
  /// not romaji Biki reads. At most `limit` forms.
  package static func kana(_ text: String, limit: Int = 16) -> [String]? {
    var forms = [""]
    // The marks below stand for lengthening kana; typed, they would be read as kana.
    guard !text.unicodeScalars.contains(where: { lengthening[$0] != nil }) else { return nil }
    // A macron is its vowel, then the kana that lengthens it: jū is ju and う.
    var letters: [Unicode.Scalar] = []
    for scalar in text.lowercased().unicodeScalars where scalar != " " && scalar != "\u{3000}" {
      if let (vowel, length) = macronVowels[scalar] {
        letters += [vowel, length]
      } else {
        letters.append(scalar)
      }
    }
    var index = 0
    func append(_ options: [String]) {
      forms = forms.flatMap { form in options.map { form + $0 } }
    }
    while index < letters.count {
      let letter = letters[index]
      if let long = lengthening[letter] {
        append(long)
        guard forms.count <= limit else { return nil }
        index += 1
        continue
      }
      guard ("a"..."z").contains(letter) || letter == "'" || letter == "-" else {
        // Kana, digits and anything else typed among the letters stay as typed.
        append([String(Character(letter))])
        index += 1
        continue
      }
      if letter == "-" {
        append(["ー"])
        index += 1
        continue
      }
      let next = index + 1 < letters.count ? letters[index + 1] : nil
      // Hepburn's m before b, m and p (sambyaku, sammai) is ん.
      if letter == "m", let next, ["b", "m", "p"].contains(next) {
        append(["ん"])
        index += 1
        continue
      }
      if letter == "n" {
        if next == "'" {
          append(["ん"])
          index += 2
          continue
        }
        if next == "n" {
          // nn is ん, as IMEs take it (sannbon); before a vowel the second n starts its
          // syllable, as Hepburn writes こんな konna and さんねん sannen.
          let after = index + 2 < letters.count ? letters[index + 2] : nil
          append(["ん"])
          index += after.map { vowels.contains($0) || $0 == "y" } == true ? 1 : 2
          continue
        }
        if next.map({ !vowels.contains($0) && $0 != "y" }) ?? true {
          append(["ん"])
          index += 1
          continue
        }
      }
      // A doubled consonant (kk, tt, pp, ss) or t before ch is a small っ.
      if index + 1 < letters.count, !vowels.contains(letter), letter != "n", letter != "'",
        letters[index + 1] == letter || (letter == "t" && letters[index + 1] == "c")
      {
        append(["っ"])
        index += 1
        continue
      }
      guard let (kana, length) = syllable(at: index, in: letters) else { return nil }
      append([kana])
      index += length
    }
    return forms
  }

  private static let vowels: Set<Unicode.Scalar> = ["a", "i", "u", "e", "o"]

  /// Each long vowel (with a macron or, in Nihon-shiki, a circumflex): its vowel and a mark,
  /// from the private use area, for the kana that lengthens it.
  private static let macronVowels: [Unicode.Scalar: (Unicode.Scalar, Unicode.Scalar)] = [
    "ā": ("a", "\u{E001}"), "â": ("a", "\u{E001}"), "ī": ("i", "\u{E002}"), "î": ("i", "\u{E002}"),
    "ū": ("u", "\u{E003}"), "û": ("u", "\u{E003}"), "ē": ("e", "\u{E004}"), "ê": ("e", "\u{E004}"),
    "ō": ("o", "\u{E005}"), "ô": ("o", "\u{E005}"),
  ]

  /// What each mark lengthens its vowel with: ō is おう (とう) or おお (とお), ē えい or ええ.
  private static let lengthening: [Unicode.Scalar: [String]] = [
    "\u{E001}": ["あ"], "\u{E002}": ["い"], "\u{E003}": ["う"], "\u{E004}": ["い", "え"], "\u{E005}": ["う", "お"],
  ]

  /// The longest spelling at `index` (three letters, then two, then one) and its kana.
  private static func syllable(at index: Int, in letters: [Unicode.Scalar]) -> (String, Int)? {
    for length in [3, 2, 1] where index + length <= letters.count {
      var spelled = ""
      spelled.unicodeScalars.append(contentsOf: letters[index..<index + length])
      if let kana = syllables[spelled] { return (kana, length) }
    }
    return nil
  }

  /// Each spelling and its kana.
  private static let syllables: [String: String] = {
    var table: [String: String] = [
      "a": "あ", "i": "い", "u": "う", "e": "え", "o": "お",
      "shi": "し", "si": "し", "chi": "ち", "ti": "ち", "tsu": "つ", "tu": "つ", "fu": "ふ", "hu": "ふ",
      "ji": "じ", "zi": "じ", "di": "ぢ", "du": "づ", "wa": "わ", "wo": "を", "ya": "や", "yu": "ゆ", "yo": "よ",
      "fa": "ふぁ", "fi": "ふぃ", "fe": "ふぇ", "fo": "ふぉ", "she": "しぇ", "che": "ちぇ", "je": "じぇ",
    ]
    // A consonant and a vowel, and the consonant with ゃ ゅ ょ (kya, sha, sya, jya).
    let rows: [(String, [String])] = [
      ("k", ["か", "き", "く", "け", "こ"]), ("s", ["さ", "し", "す", "せ", "そ"]),
      ("t", ["た", "ち", "つ", "て", "と"]), ("n", ["な", "に", "ぬ", "ね", "の"]),
      ("h", ["は", "ひ", "ふ", "へ", "ほ"]), ("m", ["ま", "み", "む", "め", "も"]),
      ("r", ["ら", "り", "る", "れ", "ろ"]), ("g", ["が", "ぎ", "ぐ", "げ", "ご"]),
      ("z", ["ざ", "じ", "ず", "ぜ", "ぞ"]), ("d", ["だ", "ぢ", "づ", "で", "ど"]),
      ("b", ["ば", "び", "ぶ", "べ", "ぼ"]), ("p", ["ぱ", "ぴ", "ぷ", "ぺ", "ぽ"]),
    ]
    for (consonant, kana) in rows {
      for (vowel, syllable) in zip(["a", "i", "u", "e", "o"], kana) where table[consonant + vowel] == nil {
        table[consonant + vowel] = syllable
      }
      let i = kana[1]
      for (vowel, small) in [("a", "ゃ"), ("u", "ゅ"), ("o", "ょ")] { table[consonant + "y" + vowel] = i + small }
    }
    for (vowel, small) in [("a", "ゃ"), ("u", "ゅ"), ("o", "ょ")] {
      for spelling in ["sh", "ch", "cy", "j", "jy"] {
        table[spelling + vowel] = (spelling.hasPrefix("s") ? "し" : spelling.hasPrefix("c") ? "ち" : "じ") + small
      }
    }
    return table
  }()
}
