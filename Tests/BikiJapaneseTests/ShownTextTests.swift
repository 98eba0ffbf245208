import Testing

@testable import BikiJapanese

/// Displays read whole: declared words and what Biki reads, nothing skipped.
@Suite struct ShownTextTests {
  func read(_ display: String, _ words: [ShownText.Word] = []) -> Result<ShownText.Read, ShownText.Problem> {
    ShownText.read(display, words: words) { run in Result { () throws(ReadingError) in try PhraseReader().read(run) } }
  }

  @Test(
    arguments: [
      ("8本", [], ["はっぽん", "はちほん"], "8本"),
      ("令和元年", [], ["れいわがんねん"], "令和元年"),
      ("¥1,500", [], ["せんごひゃくえん"], "¥1,500"),
      ("税込¥286", [ShownText.Word(text: "税込", reading: "ぜいこみ")], ["ぜいこみにひゃくはちじゅうろくえん"], "¥286"),
      ("日曜日", [ShownText.Word(text: "日曜日", reading: "にちようび")], ["にちようび"], nil),
      ("8本 です", [ShownText.Word(text: "です", reading: "です")], ["はっぽんです", "はちほんです"], "8本"),
      (
        "（8本）", [ShownText.Word(text: "（", reading: ""), ShownText.Word(text: "）", reading: "")], ["はっぽん", "はちほん"], "8本"
      ),
    ] as [(String, [ShownText.Word], [String], String?)])
  func readsTheWholeDisplay(_ display: String, _ words: [ShownText.Word], _ readings: [String], _ run: String?) throws {
    let read = try read(display, words).get()
    #expect(read.reading.all() == readings)
    #expect(read.numberRun == run)
  }

  @Test(
    arguments: [
      ("1\u{200D}9本", [], ShownText.Problem.invisible("\u{200D}")),
      ("9本\u{FE0F}", [], .invisible("\u{FE0F}")),
      ("9\u{20E3}本", [], .invisible("\u{20E3}")),
      (
        "9本（1本）", [ShownText.Word(text: "（", reading: ""), ShownText.Word(text: "）", reading: "")],
        .severalNumbers(["9本", "1本"])
      ),
      ("9本", [ShownText.Word(text: "本", reading: "ぽん")], .wordSplitsPhrase(word: "本", phrase: "9本")),
      ("¥286", [ShownText.Word(text: "¥", reading: "")], .silentWord("¥")),
      ("9本", [ShownText.Word(text: "9本", reading: "いっぽん")], .numeralInWord(word: "9本", numeral: "9")),
      ("十九本", [ShownText.Word(text: "十九本", reading: "いっぽん")], .numeralInWord(word: "十九本", numeral: "十")),
      ("日曜日", [ShownText.Word(text: "日曜日", reading: "ニチヨウビ")], .wordReading(word: "日曜日", reading: "ニチヨウビ")),
      ("ートです", [ShownText.Word(text: "ートです", reading: "ーとです")], .wordReading(word: "ートです", reading: "ーとです")),
      ("。", [ShownText.Word(text: "。", reading: "")], .empty),
      // Marks that show a number below zero, declared silent or read as something else: the
      // learner sees minus five and would be taught five.
      ("–5度", [ShownText.Word(text: "–", reading: "")], .silentAtNumber(word: "–")),
      ("‐5度", [ShownText.Word(text: "‐", reading: "")], .silentAtNumber(word: "‐")),
      ("﹣5度", [ShownText.Word(text: "﹣", reading: "")], .silentAtNumber(word: "﹣")),
      ("⁻5度", [ShownText.Word(text: "⁻", reading: "")], .silentAtNumber(word: "⁻")),
      ("▲5度", [ShownText.Word(text: "▲", reading: "")], .silentAtNumber(word: "▲")),
      ("三十八・六度", [ShownText.Word(text: "・", reading: "")], .silentAtNumber(word: "・")),
      ("▲5度", [ShownText.Word(text: "▲", reading: "さんかく")], .signInWord(word: "▲", sign: "▲")),
      ("気温–5度", [ShownText.Word(text: "気温–", reading: "きおん")], .signInWord(word: "気温–", sign: "–")),
      ("△5度", [ShownText.Word(text: "△", reading: "さんかく")], .signInWord(word: "△", sign: "△")),
    ] as [(String, [ShownText.Word], ShownText.Problem)])
  func refusesWhatItCannotReadWhole(_ display: String, _ words: [ShownText.Word], _ problem: ShownText.Problem) {
    #expect(throws: problem) { try read(display, words).get() }
  }

  /// Numerals Biki does not read leave text Biki does not read: never "no number shown".
  @Test(arguments: ["𝟗本", "⑧本", "Ⅷ本", "⁸本", "٨本", "玖本", "9本。", "1234567890123456789012345678901本"])
  func foreignNumeralsAreUnreadable(_ display: String) {
    guard case .failure(.unreadable(let run, _)) = read(display) else {
      Issue.record("\(display) was read")
      return
    }
    #expect(run == display)
  }
}
