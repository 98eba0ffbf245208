import Testing

@testable import BikiCore

@Suite struct FingerprintTests {
  @Test func bytesInPiecesHaveTheFingerprintOfTheWhole() {
    let whole = Array("八本、はっぽん; 1本 いっぽん".utf8)
    for split in [0, 1, 7, whole.count / 2, whole.count] {
      var pieces = Fingerprint()
      pieces.add(Array(whole[..<split]))
      pieces.add(Array(whole[split...]))
      #expect(pieces.value == Fingerprint.of(whole))
    }
    // FNV-1a's published value for "a".
    #expect(Fingerprint.of(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
    #expect(Fingerprint.of(Array("a".utf8)) != Fingerprint.of(Array("b".utf8)))
  }

  @Test func aStreamFingerprintOfAShortTextTellsEveryByteApart() {
    let base = Array("八本、はっぽん; 1本 いっぽん; 10本 じゅっぽん".utf8)
    var seen: Set<UInt64> = [StreamFingerprint.of(base)]
    // One byte changed anywhere, in a whole word or in the tail, or one byte more or less.
    for index in base.indices {
      var changed = base
      changed[index] ^= 1
      seen.insert(StreamFingerprint.of(changed))
    }
    seen.insert(StreamFingerprint.of(base + [0]))
    seen.insert(StreamFingerprint.of(Array(base.dropLast())))
    #expect(seen.count == base.count + 3)
  }

  @Test func aStreamFingerprintDependsOnTheBytesNotOnHowTheyAreSplit() {
    let whole = Array(String(repeating: "八本、はっぽん; 1本 いっぽん; 10本 じゅっぽん\n", count: 5).utf8)
    let expected = StreamFingerprint.of(whole)
    for sizes in [[1], [7], [31], [32], [33], [64, 1], [5, 90, 2], [whole.count]] {
      var stream = StreamFingerprint()
      var offset = 0
      var turn = 0
      while offset < whole.count {
        let size = min(sizes[turn % sizes.count], whole.count - offset)
        stream.add(Array(whole[offset..<(offset + size)]))
        offset += size
        turn += 1
      }
      #expect(stream.value == expected, "pieces of \(sizes)")
    }
  }

  @Test func aStreamFingerprintTellsEveryByteApart() {
    let base = Array(String(repeating: "八本、はっぽん; 1本 いっぽん\n", count: 3).utf8)
    var seen: Set<UInt64> = [StreamFingerprint.of(base)]
    // One byte changed anywhere (any lane, any block, the tail), two words swapped between
    // lanes, one byte more or less.
    for index in base.indices {
      var changed = base
      changed[index] ^= 1
      seen.insert(StreamFingerprint.of(changed))
    }
    seen.insert(StreamFingerprint.of(Array(base[8..<16] + base[0..<8] + base[16...])))
    seen.insert(StreamFingerprint.of(base + [0]))
    seen.insert(StreamFingerprint.of(Array(base.dropLast())))
    #expect(seen.count == base.count + 4)
  }
}
