import Testing

@testable import BikiJapanese

/// The numbers a text shows, read by the phrase reader's own tokens: value, shape, unit and
/// sign, as every check of an answer compares them. Texts mix one- to four-byte characters.
@Suite struct ShownNumbersTests {
  let reader = PhraseReader()

  @Test(
    arguments: [
      ("令和元年", ["令和1年"]),
      ("昭和64年", ["昭和64年"]),
      ("¥1,500", ["1500"]),
      ("１５００円", ["1500円"]),
      ("三百五十円", ["350円"]),
      ("3万5000円", ["35000円"]),
      ("266万5000円", ["2665000円"]),
      ("1.2億円", ["120000000円"]),
      ("体温38.6度", ["38.6度"]),
      ("38.6度", ["38.6度"]),
      ("-5度", ["-5度"]),
      ("−1.5度", ["-1.5度"]),
      ("マイナス5度", ["-5度"]),
      ("氷点下5度", ["-5度"]),
      ("3分の1", ["3分の1"]),
      ("1/3", ["1/3"]),
      ("1と2分の1", ["1", "2分の1"]),
      ("16:05", ["16:05"]),
      ("16:05発", ["16:05発"]),
      ("0857", ["0857"]),
      ("090-1234-5678", ["090", "1234", "5678"]),
      ("〒420-0857", ["420", "0857"]),
      ("1-2-3", ["1", "2", "3"]),
      ("1時間30分", ["1時間", "30分"]),
      ("9時半", ["9時"]),
      ("3対1", ["3", "1"]),
      ("1.52", ["1.52"]),
      ("11:06", ["11:06"]),
      ("0.5本", ["0.5本"]),
    ] as [(String, [String])])
  func readsEachNumberWithItsShape(_ text: String, _ expected: [String]) throws {
    guard !expected.isEmpty else {
      #expect(throws: ReadingError.self) { try reader.numbers(in: text) }
      return
    }
    #expect(try reader.numbers(in: text).map(\.description) == expected)
  }

  @Test func shapesAreTheModelsOwn() throws {
    #expect(try reader.numbers(in: "39.1度") == [WrittenNumber(value: 391, shape: .decimal(places: 1), unit: "度")])
    #expect(try reader.numbers(in: "16:05") == [WrittenNumber(value: 965, shape: .clock)])
    #expect(try reader.numbers(in: "0857") == [WrittenNumber(value: 857, shape: .code(width: 4))])
    #expect(
      try reader.numbers(in: "3分の1") == [WrittenNumber(value: 1, shape: .fraction(denominator: 3, slashed: false))])
    #expect(try reader.numbers(in: "令和5年").first?.isSame(value: 2023, shape: .whole) == true)
    #expect(try reader.numbers(in: "令和5年").first?.isSame(value: 5, shape: .whole) == true)
    #expect(try reader.numbers(in: "5年").first?.isSame(value: 2023, shape: .whole) == false)
  }

  /// A number with a leading zero is a code, read digit by digit wherever Biki meets it, as
  /// packs' digit parts teach it: 0857 is never はっぴゃくごじゅうなな.
  @Test(
    arguments: [
      ("0857", "ぜろはちごなな"),
      ("０８５７", "ぜろはちごなな"),
      ("007", "ぜろぜろなな"),
      ("16:05発", "じゅうろくじごふんはつ"),
      ("1/3", "さんぶんのいち"),
    ])
  func readsCodesClocksAndSlashesInPhrases(_ text: String, _ standard: String) throws {
    #expect(try reader.read(text).standard == standard)
  }

  @Test(arguments: ["05月", "0857円", "–5度", "▲5度", "‐5度", "﹣5度", "16:5"])
  func refusesWhatItCannotReadForSure(_ text: String) {
    #expect(throws: ReadingError.self) { try reader.read(text) }
  }

  /// 5 and 2 before a point may be lengthened (ごおてん, にいてん), and a learner types the long
  /// vowel as katakana writes it: ごーてん. ー after お-row kana is still う elsewhere (こーひー).
  @Test func aLengthenedDigitTypedWithALongVowelMarkIsRight() throws {
    let fivePointFive = try JapaneseNumber.decimalReading(whole: 5, fraction: [5], counter: nil)
    #expect(fivePointFive.acceptsTyped("ごおてんご"))
    #expect(fivePointFive.acceptsTyped("ごーてんご"))
    #expect(fivePointFive.acceptsTyped("ゴーテンゴ"))
    #expect(!fivePointFive.acceptsTyped("ごうてんご"))
    let twoPointFive = try JapaneseNumber.decimalReading(whole: 2, fraction: [5], counter: nil)
    #expect(twoPointFive.acceptsTyped("にーてんご"))
    #expect(Reading("こうひい").acceptsTyped("コーヒー"))
  }
}
