import Testing

@testable import BikiPacks

/// A pack saved with `\r\n` or old Mac `\r` line ends gets its diagnostics on the lines an
/// editor shows, as with `\n`.
@Suite struct LineEndTests {
  @Test(arguments: ["\r\n", "\r"]) func diagnosticsAreOnTheSameLinesWhateverEndsThem(_ end: String) {
    let text = PackFixtures.pack(
      topic: PackFixtures.validTopic.replacingOccurrences(of: "\"counter\": \"本\"", with: "\"counter\": \"犬\"")
    )
    .replacingOccurrences(of: "\"title\": \"本\"", with: "\"titel\": \"本\"")
    let lf = PackFixtures.compile(text).diagnostics
    let other = PackFixtures.compile(text.replacingOccurrences(of: "\n", with: end)).diagnostics
    #expect(lf.count == 3)
    #expect(
      other.map { "\($0.range.start) \($0.range.end) \($0.rule)" }
        == lf.map { "\($0.range.start) \($0.range.end) \($0.rule)" })
    #expect(other.map(\.range.start.utf16Column) == lf.map(\.range.start.utf16Column))
  }
}
