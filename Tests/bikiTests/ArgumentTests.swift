import Testing

/// Every subcommand reads its arguments the one way BikiCLI does.
@Suite struct ArgumentTests {
  @Test(arguments: [
    (["topics", "--packs"], "Missing value for '--packs <dir>'."),
    (["serve", "--plugins"], "Missing value for '--plugins <dir>'."),
    (["quiz", "--seed"], "Missing value for '--seed <n>'."),
    (["read", "--as"], "Missing value for '--as <kind>'."),
    (["topics", "--pack", "x"], "Unknown option '--pack'. Did you mean '--packs'?"),
    (["stats", "--verbose"], "Unknown option '--verbose'."),
    (["install", "--prefix"], "Missing value for '--prefix <dir>'."),
  ])
  func usageErrorsNameTheOption(arguments: [String], message: String) throws {
    let result = try BikiProcess.run(arguments)
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix("Error: \(message)\n"), "\(result.standardError)")
  }

  @Test func biki_packUsesTheSameReader() throws {
    let result = try BikiProcess.run(["sample", "--count"], program: "biki-pack")
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix("Error: Missing value for '--count <count>'."), "\(result.standardError)")
  }
}
