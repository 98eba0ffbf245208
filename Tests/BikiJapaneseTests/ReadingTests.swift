import BikiJapanese
import Testing

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
