/// Normalisation of typed kana, so any accepted spelling of a reading compares equal.
public enum KanaText {
  /// Katakana to hiragana, full-width and spaces removed, and a long-vowel mark written as
  /// the vowel it lengthens (キュー → きゅう, ケー → けい): learners type readings every way.
  public static func normalized(_ text: String) -> String {
    var scalars: [Unicode.Scalar] = []
    scalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x20, 0x3000, 0x09, 0x0A, 0x0D, 0x30FB, 0x00B7:  // spaces, ・
        continue
      case 0x30A1...0x30F6:  // katakana ァ…ヶ → hiragana
        scalars.append(Unicode.Scalar(scalar.value - 0x60)!)
      case 0x30FC, 0xFF70:  // ー
        if let previous = scalars.last, let vowel = lengthening(previous) {
          scalars.append(vowel)
        }
      default:
        scalars.append(scalar)
      }
    }
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars)
    return result
  }

  /// Whether `text` is a reading as Biki stores one: hiragana letters (ぁ…ゖ), and ー for
  /// loanwords. Not katakana, not combining sound marks (U+3099, U+309A: か + ゚ looks like a
  /// kana but matches nothing a learner types), not iteration marks.
  public static func isKana(_ text: String) -> Bool {
    !text.isEmpty && text.unicodeScalars.allSatisfy { (0x3041...0x3096).contains($0.value) || $0.value == 0x30FC }
  }

  /// Whether `text` has a combining voiced or semi-voiced sound mark.
  public static func hasCombiningMark(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value == 0x3099 || $0.value == 0x309A }
  }

  /// The vowel a long-vowel mark stands for after `kana`: お- and う-rows lengthen with う,
  /// え-row with い (as in けい, れい), the rest with their own vowel.
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
