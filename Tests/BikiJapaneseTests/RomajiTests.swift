import Testing

@testable import BikiJapanese

/// Romaji as learners type readings of numbers, in Hepburn (as dictionaries and textbooks spell
/// them: Genki, JMdict's romaji) and as IMEs take them, each with the kana it spells.
@Suite struct RomajiTests {
  static let spelled: [(String, [String])] = [
    ("gohon", ["ごほん"]), ("roppon", ["ろっぽん"]), ("juuyokka", ["じゅうよっか"]), ("kyuu", ["きゅう"]),
    ("happon", ["はっぽん"]), ("juppon", ["じゅっぽん"]), ("jippon", ["じっぽん"]), ("sanbon", ["さんぼん"]),
    ("sambon", ["さんぼん"]), ("sannbon", ["さんぼん"]), ("sanbyaku", ["さんびゃく"]), ("sambyaku", ["さんびゃく"]),
    ("happyaku", ["はっぴゃく"]), ("roppyaku", ["ろっぴゃく"]), ("sanzen", ["さんぜん"]), ("hassen", ["はっせん"]),
    ("ichiman", ["いちまん"]), ("sammai", ["さんまい"]), ("tsuitachi", ["ついたち"]), ("hatsuka", ["はつか"]),
    ("mikka", ["みっか"]), ("yokka", ["よっか"]), ("kokonoka", ["ここのか"]), ("hitori", ["ひとり"]),
    ("futari", ["ふたり"]), ("yonin", ["よにん"]), ("shichinin", ["しちにん"]), ("nananin", ["ななにん"]),
    ("ippiki", ["いっぴき"]), ("sanbiki", ["さんびき"]), ("juuppun", ["じゅうっぷん"]), ("juppun", ["じゅっぷん"]),
    ("ikko", ["いっこ"]), ("hyakuen", ["ひゃくえん"]), ("san'en", ["さんえん"]), ("sannen", ["さんねん"]),
    ("yojikan", ["よじかん"]), ("kuji", ["くじ"]), ("shichigatsu", ["しちがつ"]), ("nijuu", ["にじゅう"]),
    ("reiwa", ["れいわ"]), ("matcha", ["まっちゃ"]), ("konna", ["こんな"]), ("konnnichiha", ["こんにちは"]),
    // Kunrei and IME spellings.
    ("sitinin", ["しちにん"]), ("tuitati", ["ついたち"]), ("huta", ["ふた"]), ("zyuu", ["じゅう"]),
    ("jyuu", ["じゅう"]), ("syaku", ["しゃく"]), ("tyou", ["ちょう"]), ("cyou", ["ちょう"]),
    // Long vowels with macrons: ō is おう or おお (とお for 十).
    ("jū", ["じゅう"]), ("tō", ["とう", "とお"]), ("kyū", ["きゅう"]), ("chō", ["ちょう", "ちょお"]),
    ("Gohon", ["ごほん"]), ("go hon", ["ごほん"]), ("ni-", ["にー"]),
    // Kana and digits among the letters stay.
    ("ごhon", ["ごほん"]), ("5hon", ["5ほん"]),
  ]

  @Test(arguments: spelled)
  func romajiSpellsItsKana(romaji: String, kana: [String]) {
    #expect(Romaji.kana(romaji) == kana)
  }

  /// What no spelling covers is not read at all: no guess at a stray letter.
  @Test(arguments: ["hapqon", "x", "lon", "vu", "k", "gohonk", "five", "go\u{E003}"])
  func whatIsNotRomajiIsNotRead(text: String) {
    #expect(Romaji.kana(text) == nil)
  }

  /// Macrons multiply the forms; past the limit the input is not read.
  @Test func manyMacronsAreBounded() {
    #expect(Romaji.kana("ōōōō")?.count == 16)
    #expect(Romaji.kana("ōōōōō") == nil)
  }
}
