/// Normalisation of typed kana, so any accepted spelling of a reading compares equal.
package enum KanaText {
  /// Katakana to hiragana, full-width and spaces removed, and a long-vowel mark written as
  /// the vowel it lengthens (キュー → きゅう, ケー → けい): learners type readings every way.
  /// `longO` is the vowel ー spells after an お-row kana: う as in こーひー, or お where the
  /// word lengthens お itself (a digit said ごー in a phone number is ごお).
  package static func normalized(_ text: String, longO: Unicode.Scalar = "う") -> String {
    // One pass, each scalar joining the output as it stands: a sound mark joins the kana before
    // it even when that kana came from ー or from katakana, so normalising twice changes nothing.
    var scalars: [Unicode.Scalar] = []
    scalars.reserveCapacity(text.unicodeScalars.count)
    for original in text.unicodeScalars {
      var scalar = original
      // Spaces and ・ are dropped, so a mark typed after one still joins its kana.
      if [0x20, 0x3000, 0x09, 0x0A, 0x0D, 0x30FB, 0x00B7].contains(scalar.value) { continue }
      if (0xFF66...0xFF9D).contains(scalar.value),
        let full = Unicode.Scalar(halfWidthKatakana[Int(scalar.value - 0xFF66)])
      {
        scalar = full
      }
      let mark: UInt32? =
        switch scalar.value {
        case 0xFF9E, 0x3099, 0x309B: 1  // voiced: か → が
        case 0xFF9F, 0x309A, 0x309C: 2  // semi-voiced: は → ぱ
        default: nil
        }
      if let mark, let previous = scalars.last, let joined = voiced(previous, by: mark) {
        scalars[scalars.count - 1] = joined
        continue
      }
      // Katakana ァ…ヶ becomes hiragana before the rules below, so エ after え is lengthened as え
      // after え is, and a second pass finds nothing left to change.
      if (0x30A1...0x30F6).contains(scalar.value), let hiragana = Unicode.Scalar(scalar.value - 0x60) {
        scalar = hiragana
      }
      switch scalar.value {
      case 0x30FC:  // ー: the vowel it lengthens
        if let previous = scalars.last, let vowel = lengthening(previous) {
          scalars.append(vowel == "う" && oRow.contains(previous) ? longO : vowel)
        }
      case 0x3048 where scalars.last.map(lengthensWithI) ?? false:
        // え lengthening an え-row kana is spelled い (ぺえじ, ぺいじ and ページ are one word),
        // as ー after one is: a long e is written either way.
        scalars.append("い")
      default:
        scalars.append(scalar)
      }
    }
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars)
    return result
  }

  /// Kana followed by a combining sound mark (か + U+3099) joined into the one kana they stand
  /// for (が), as Unicode composition would; everything else left as it is. Text compared
  /// scalar by scalar gets the equivalence String comparison would give it.
  static func composingSoundMarks(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var composed = scalars
    let count = composed.withUnsafeMutableBufferPointer { composeSoundMarks(in: $0) }
    composed.removeLast(composed.count - count)
    return composed
  }

  /// The same, in place: the joined scalars move to the front of `scalars`; returns how many.
  static func composeSoundMarks(in scalars: UnsafeMutableBufferPointer<Unicode.Scalar>) -> Int {
    var count = 0
    for index in scalars.indices {
      let scalar = scalars[index]
      if scalar.value == 0x3099 || scalar.value == 0x309A, count > 0,
        let joined = voiced(scalars[count - 1], by: scalar.value - 0x3098)
      {
        scalars[count - 1] = joined
      } else {
        scalars[count] = scalar
        count += 1
      }
    }
    return count
  }

  /// ｦ ｧ ｨ ｩ ｪ ｫ ｬ ｭ ｮ ｯ ｰ ｱ … ﾝ (U+FF66–U+FF9D) in full width.
  private static let halfWidthKatakana: [UInt32] = Array(
    "ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン".unicodeScalars.map(\.value))

  /// The kana with a sound mark: +1 voices k, s, t, h rows (か → が), +2 makes h p (は → ぱ);
  /// う takes a voiced mark too (ゔ, ヴ). Nil when the kana takes no such mark.
  private static func voiced(_ kana: Unicode.Scalar, by mark: UInt32) -> Unicode.Scalar? {
    let value = kana.value
    for base in [UInt32(0x3040), 0x30A0] {  // hiragana, then katakana, share one layout
      let offset = value &- base
      if mark == 1 && offset == 0x06 { return Unicode.Scalar(base + 0x54) }  // う → ゔ
      let voicing: Set<UInt32> = [
        0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x15, 0x17, 0x19, 0x1B, 0x1D, 0x1F, 0x21, 0x24, 0x26, 0x28,
      ]
      let hRow: Set<UInt32> = [0x2F, 0x32, 0x35, 0x38, 0x3B]
      if (mark == 1 && (voicing.contains(offset) || hRow.contains(offset))) || (mark == 2 && hRow.contains(offset)) {
        return Unicode.Scalar(value + mark)
      }
    }
    return nil
  }

  /// Whether `text` is a reading as Biki stores one: hiragana letters (ぁ…ゖ), and ー for
  /// loanwords. Not katakana, not combining sound marks (U+3099, U+309A: か + ゚ looks like a
  /// kana but matches nothing a learner types), not iteration marks.
  package static func isKana(_ text: String) -> Bool {
    !text.isEmpty && text.unicodeScalars.allSatisfy { (0x3041...0x3096).contains($0.value) || $0.value == 0x30FC }
  }

  /// Whether `text` begins with ー, the long-vowel mark (or its half-width ｰ). The mark
  /// lengthens the kana before it (らーめん, けーき), so a reading cannot begin with one: alone or
  /// first it lengthens nothing, and after a number (じゅういち + ーと) it would lengthen the
  /// number's last kana.
  package static func startsWithLongVowelMark(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first else { return false }
    return first.value == 0x30FC || first.value == 0xFF70
  }

  /// Whether `text` has a combining voiced or semi-voiced sound mark.
  package static func hasCombiningMark(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value == 0x3099 || $0.value == 0x309A }
  }

  /// The vowel a long-vowel mark stands for after `kana`: お- and う-rows lengthen with う,
  /// え-row with い (as in けい, れい), the rest with their own vowel.
  private static func lengthensWithI(_ kana: Unicode.Scalar) -> Bool {
    "えけせてねへめれげぜでべぺぇ".unicodeScalars.contains(kana)
  }

  private static let oRow = Set("おこそとのほもよろをごぞどぼぽぉょ".unicodeScalars)

  private static func lengthening(_ kana: Unicode.Scalar) -> Unicode.Scalar? {
    let rows: [(String, Unicode.Scalar)] = [
      ("あかさたなはまやらわがざだばぱぁゃ", "あ"), ("いきしちにひみりぎじぢびぴぃ", "い"),
      ("うくすつぬふむゆるぐずづぶぷぅゅ", "う"), ("えけせてねへめれげぜでべぺぇ", "い"),
      ("おこそとのほもよろをごぞどぼぽぉょ", "う"),
    ]
    for (row, vowel) in rows where row.unicodeScalars.contains(kana) { return vowel }
    return nil
  }
}
