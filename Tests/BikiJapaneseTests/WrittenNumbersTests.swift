import Testing

@testable import BikiJapanese

/// The numbers a text shows, as a plugin's answer is checked against them: texts mixing one-,
/// two-, three- and four-byte characters, so every width of UTF-8 is read scalar by scalar.
@Suite struct WrittenNumbersTests {
  @Test(
    arguments: [
      ("令和元年", [1, 2019]),
      ("平成31年4月", [31, 2019, 4]),
      ("昭和64年", [64, 1989]),
      ("¥1,500", [1500]),
      ("１５００円", [1500]),
      ("三百五十円", [350]),
      ("3万5000円", [35000]),
      ("😀3本", [3]),
      ("é12 and 7", [12, 7]),
      ("1, 2", [1, 2]),
      ("本", []),
      ("", []),
    ] as [(String, [UInt128])])
  func findsTheNumbersAndEraYears(_ text: String, _ expected: [UInt128]) {
    #expect(WrittenNumbers.values(in: text) == expected)
  }
}
