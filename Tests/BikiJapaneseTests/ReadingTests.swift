import Testing

@testable import BikiJapanese

@Suite struct ReadingTests {
  @Test func standardIsTheFirstOfEverySegment() {
    let reading = Reading(segments: [["なな", "しち"], ["じゅう"], ["はっぽん", "はちほん"]])
    #expect(reading.standard == "ななじゅうはっぽん")
    #expect(reading.all() == ["ななじゅうはっぽん", "ななじゅうはちほん", "しちじゅうはっぽん", "しちじゅうはちほん"])
    #expect(reading.variantCount == 4)
  }

  @Test func acceptsAnyPathThroughTheLattice() {
    let reading = Reading(segments: [["なな", "しち"], ["じゅう"], ["はっぽん", "はちほん"]])
    #expect(reading.accepts("しちじゅうはちほん"))
    #expect(!reading.accepts("しちじゅう"))
    #expect(!reading.accepts("しちじゅうはっぽんx"))
    #expect(!reading.accepts(""))
  }

  @Test(arguments: [
    ("ぜいこみさんまんごせんえん", true), ("さんまんごせんえんです", true), ("さんまんごせんえん", true),
    ("さんまんごせんえ", false), ("さんまんせんえん", false), ("ぜいこみ", false), ("", false),
  ])
  func findsAReadingWithinWords(_ text: String, _ contains: Bool) throws {
    #expect(try JapaneseNumber.reading(of: 35_000, with: .yen).isSpelled(within: text) == contains)
  }

  @Test func findsEveryAlternateWithinWords() throws {
    // 77,777,777 has 8 readings (七十 and the last 七 are なな or しち; 七百, 七千 and 七万 only
    // なな): the last of them, past the first few all() lists.
    let reading = try JapaneseNumber.reading(of: 77_777_777)
    #expect(reading.isSpelled(within: "ぜんぶでななせんななひゃくしちじゅうななまんななせんななひゃくしちじゅうしちです"))
    #expect(!reading.isSpelled(within: "しちせんしちひゃくしちじゅうしちまんしちせんしちひゃくしちじゅうしち"))
    #expect(!reading.isSpelled(within: "ななせんななひゃくしちじゅうしちまん"))
    let eight = Reading(segments: [["はっぽん", "はちほん"]])
    #expect(eight.isSpelled(within: "えんぴつはちほん"))
  }

  @Test func allStopsAtItsLimit() throws {
    let reading = try JapaneseNumber.reading(of: 77_777_777)
    #expect(reading.all(limit: 3).count == 3)
  }

  @Test func normalisesTypedKana() {
    #expect(KanaText.normalized("ハッポン") == "はっぽん")
    #expect(KanaText.normalized("キューホン") == "きゅうほん")
    #expect(KanaText.normalized("じゅう　ご") == "じゅうご")
    #expect(KanaText.normalized("レー") == "れい")
    #expect(KanaText.isKana("さんぼん"))
    #expect(!KanaText.isKana("3本"))
  }
}
