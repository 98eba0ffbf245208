import Testing

@testable import BikiSpeech

/// The phonemes Open JTalk's traces write for each reading (taken from its traces of these
/// words): what a voice must say for the reading Biki teaches.
@Suite struct KanaPhonemesTests {
  static let table: [(String, String)] = [
    ("はっぽん", "h a cl p o N"), ("ろっぴゃくえん", "r o cl py a k u e N"), ("じゅっぷん", "j u cl p u N"),
    ("さんびゃく", "s a N by a k u"), ("きゅうじゅうきゅう", "ky u u j u u ky u u"), ("ついたち", "ts u i t a ch i"),
    ("はつか", "h a ts u k a"), ("ヘイセイ", "h e i s e i"), ("ごごよじ", "g o g o y o j i"),
    ("いちまんにせん", "i ch i m a N n i s e N"), ("しぇ", "sh e"), ("ふぁいる", "f a i r u"),
    ("パーセント", "p a a s e N t o"), ("ひゃっぽん", "hy a cl p o N"), ("ぢ", "j i"), ("を", "o"),
  ]

  @Test(arguments: table)
  func aReadingsPhonemes(reading: String, phonemes: String) {
    #expect(KanaPhonemes.of(reading)?.joined(separator: " ") == phonemes)
  }

  /// What is not kana cannot be checked, so it is not claimed to be said right.
  @Test(arguments: ["8本", "八", "ーあ", "abc", "は ち"])
  func anythingButKanaHasNone(text: String) {
    #expect(KanaPhonemes.of(text) == nil)
  }

  @Test func katakanaAndHiraganaTurnIntoEachOther() {
    #expect(KanaPhonemes.katakana("はっぽん") == "ハッポン")
    #expect(KanaPhonemes.hiragana("パーセント") == "ぱーせんと")
  }

  /// A trace's labels name each phoneme between "-" and "+"; pauses are left out.
  @Test func aTraceGivesThePhonemesSaid() {
    let trace = """
      [Text analysis result]
      八本,名詞,…

      [Output label]
      0 1850000 xx^xx-sil+h=a/A:xx
      1850000 2800000 xx^sil-h+a=cl/A:0+1+2
      2800000 3600000 sil^h-a+cl=p/A:0
      3600000 4600000 h^a-cl+p=o/A:1
      4600000 5200000 a^cl-p+o=N/A:0
      5200000 6300000 cl^p-o+N=pau/A:0
      6300000 6900000 p^o-pau+N=sil/A:1
      6300000 6900000 o^pau-N+sil=xx/A:1
      6900000 9950000 o^N-sil+xx=xx/A:xx

      [Global parameter]
      Sampring frequency -> 48000(Hz)
      """
    #expect(OpenJTalk.phonemes(inTrace: trace) == ["h", "a", "cl", "p", "o", "N"])
  }

  /// う after an o is said as a long o (とう is `t o o` in Open JTalk's traces), and a devoiced
  /// vowel is its vowel.
  @Test func theSameSoundsWrittenTwoWays() {
    #expect(OpenJTalkMaker.sameSounds(["i", "cl", "t", "o", "o"], ["i", "cl", "t", "o", "u"]))
    #expect(OpenJTalkMaker.sameSounds(["h", "a", "ts", "U", "k", "a"], ["h", "a", "ts", "u", "k", "a"]))
    #expect(!OpenJTalkMaker.sameSounds(["w", "a", "ch", "i"], ["h", "a", "ch", "i"]))
    // い after an e is the long e: the letter K is ケイ or ケー.
    #expect(OpenJTalkMaker.sameSounds(["k", "e", "i"], ["k", "e", "e"]))
    #expect(!OpenJTalkMaker.sameSounds(["k", "e", "i"], ["k", "a", "i"]))
    #expect(!OpenJTalkMaker.sameSounds(["t", "o"], ["t", "o", "u"]))
  }
}
