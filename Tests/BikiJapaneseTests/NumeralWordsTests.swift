import Testing

@testable import BikiJapanese

/// Words with numerals in them, as pack authors and plugins declare them with their readings
/// (place names as the stations and prefectures read them; words as dictionaries give them):
/// taken where the numerals are part of the word, refused where the word hides a number.
@Suite struct NumeralWordsTests {
  static let taken: [(String, String)] = [
    ("東京駅", "とうきょうえき"), ("東京", "とうきょう"), ("京都", "きょうと"), ("千葉駅", "ちばえき"), ("千葉", "ちば"),
    ("百貨店", "ひゃっかてん"), ("四国", "しこく"), ("一緒に", "いっしょに"), ("三重県", "みえけん"), ("八百屋", "やおや"),
    ("万年筆", "まんねんひつ"), ("六本木", "ろっぽんぎ"), ("八王子", "はちおうじ"), ("五反田", "ごたんだ"), ("三日月", "みかづき"),
    ("九州", "きゅうしゅう"), ("四ツ谷", "よつや"), ("二子玉川", "ふたこたまがわ"), ("三鷹", "みたか"), ("一人暮らし", "ひとりぐらし"),
    // Words without numerals, as before.
    ("税込", "ぜいこみ"), ("元年", "がんねん"),
  ]

  @Test(arguments: taken)
  func aNumeralThatIsPartOfTheWordIsTaken(text: String, reading: String) {
    #expect(ShownText.problem(with: ShownText.Word(text: text, reading: reading)) == nil)
  }

  static let refused: [(String, String, ShownText.Problem)] = [
    ("9本", "きゅうほん", .numeralInWord(word: "9本", numeral: "9")),
    ("９本", "きゅうほん", .numeralInWord(word: "９本", numeral: "９")),
    ("玖本", "きゅうほん", .numeralInWord(word: "玖本", numeral: "玖")),
    ("三", "さん", .numeralInWord(word: "三", numeral: "三")),
    ("二十", "にじゅう", .numeralInWord(word: "二十", numeral: "二")),
    // A count that ends the word is a number, whatever its reading: shown where Biki reads it.
    ("三本", "さんぼん", .numeralInWord(word: "三本", numeral: "三")),
    ("十分", "じゅうぶん", .numeralInWord(word: "十分", numeral: "十")),
    // A numeral standing apart from the word is a number.
    ("駅 三", "えきさん", .numeralInWord(word: "駅 三", numeral: "三")),
    // The reading reads a number in the word otherwise than Biki does.
    ("三本松", "さんほんまつ", .numberInWordMisread(word: "三本松", number: "三本", reading: "さんぼん")),
    ("六本木", "ろくほんぎ", .numberInWordMisread(word: "六本木", number: "六本", reading: "ろっぽん")),
  ]

  @Test(arguments: refused)
  func aNumberHiddenInAWordIsRefused(text: String, reading: String, problem: ShownText.Problem) {
    #expect(ShownText.problem(with: ShownText.Word(text: text, reading: reading)) == problem)
  }
}
