import Testing

/// `biki quiz --speak`, installed and run by bare name, in a real terminal: a question played
/// again with an empty line, no answer counted.
@Suite struct TerminalListeningTests {
  @Test(.needs(RealClientTests.hasTmux && SpeechTests.openJTalkUsable, SpeechTests.needsOpenJTalk))
  func anEmptyLinePlaysTheQuestionAgain() throws {
    let result = try RealClientTests().runInstalled("timeout 120 Tests/clients/quiz_listening.sh")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("quiz listening: all checks passed"))
  }
}
