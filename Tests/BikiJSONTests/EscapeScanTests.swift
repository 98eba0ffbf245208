import Testing

@testable import BikiJSON

/// The string writer scans eight bytes at a time for a byte JSON must escape (a SWAR trick that
/// stops paying, or starts lying, if someone changes its constants). It must agree with the
/// plain rule, byte by byte, wherever the byte to escape falls in the word.
@Suite struct EscapeScanTests {
  /// What JSON requires: `"` and `\` escaped, every byte below 0x20 too; the rest as it is.
  static func reference(_ text: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
      case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
      case UInt8(ascii: "\n"): out += Array(#"\n"#.utf8)
      case UInt8(ascii: "\r"): out += Array(#"\r"#.utf8)
      case UInt8(ascii: "\t"): out += Array(#"\t"#.utf8)
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      default: out.append(byte)
      }
    }
    return out + [UInt8(ascii: "\"")]
  }

  static let specials: [Character] = ["\"", "\\", "\n", "\u{1}", "\u{1F}", " ", "~", "\u{7F}", "本", "é"]

  @Test func everySpecialAtEveryPlaceInTheWordIsEscapedAsThePlainRuleSays() {
    for length in 0..<20 {
      for place in 0..<max(length, 1) {
        for special in Self.specials {
          var characters = Array(repeating: Character("a"), count: length)
          if place < length { characters[place] = special }
          let text = String(characters)
          #expect(JSON.string(text).bytes == Self.reference(text), "\(text.debugDescription)")
        }
      }
    }
  }

  @Test func writtenTextIsEqualToTheValueItWrites() {
    // `JSON.written` compares by value: Biki writes compact JSON, so text and tree agree.
    let value: JSON = ["a": "b\"c", "n": 5, "list": [true, .null, .double(1.5)]]
    #expect(JSON.prewritten(value) == value)
    #expect(JSON.prewritten(value).bytes == value.bytes)
  }
}
