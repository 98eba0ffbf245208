import Foundation
import Testing

/// `biki-pack fmt` as an author runs it on their files.
@Suite struct PackFormatTests {
  func pack(_ args: [String], home: String) throws -> BikiProcess.Result {
    try BikiProcess.run(args, program: "biki-pack", environment: BikiPackTests.isolated(home), directory: home)
  }

  /// A compact pack under the 8 MiB limit that laid out would pass it is left as it is, and
  /// loads as before: fmt never makes a pack Biki loads into one it refuses.
  @Test func fmtNeverGrowsAPackPastWhatBikiLoads() throws {
    let home = NSTemporaryDirectory() + "biki-fmt-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: home) }
    // 1,100,000 one-element arrays: 4.4 MB as written, about 9.9 MB one per line.
    let rows = String(repeating: "[1],", count: 1_100_000) + "[1]"
    let text = #"{"format": 1, "id": "big", "title": "T", "version": "1", "note": [\#(rows)], "topics": []}"#
    try text.write(toFile: home + "/big.json", atomically: true, encoding: .utf8)
    let formatted = try pack(["fmt", "big.json"], home: home)
    #expect(formatted.status == 65, "\(formatted.standardError)")
    #expect(
      formatted.standardError.contains("past the 8 MiB a pack may be, and Biki could no longer load it; left as it is"),
      "\(formatted.standardError)")
    #expect(try String(contentsOfFile: home + "/big.json", encoding: .utf8) == text)
  }

  @Test func fmtLaysOutEveryBuiltInPackKeepingEveryValueAndAgainChangesNothing() throws {
    let home = NSTemporaryDirectory() + "biki-fmt-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home + "/packs", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: home) }
    let names = ["counters.json", "dates.json", "durations.json", "money.json", "numbers.json"]
    for name in names {
      try FileManager.default.copyItem(atPath: BikiPackTests.builtIn + "/" + name, toPath: home + "/packs/" + name)
    }
    // A symbolic link is followed: the file it names is laid out and the link stays a link.
    try FileManager.default.createSymbolicLink(
      atPath: home + "/link.json", withDestinationPath: home + "/packs/money.json")
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: home + "/packs/dates.json")

    let check = try pack(["fmt", "--check", "packs"], home: home)
    #expect(check.status == 1, "\(check.standardOutput)\(check.standardError)")
    #expect(check.standardOutput.contains("packs/counters.json is not formatted\n"))
    let formatted = try pack(["fmt", "link.json", "packs"], home: home)
    #expect(formatted.status == 0, "\(formatted.standardError)")
    #expect(formatted.standardOutput.hasPrefix("Formatted link.json\n"), "\(formatted.standardOutput)")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: home + "/link.json") == home + "/packs/money.json")
    #expect(
      (try FileManager.default.attributesOfItem(atPath: home + "/packs/dates.json")[.posixPermissions] as? Int) == 0o640
    )
    for name in names {
      let before =
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: URL(fileURLWithPath: BikiPackTests.builtIn + "/" + name))) as? NSDictionary
      let after =
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: home + "/packs/" + name)))
        as? NSDictionary
      #expect(before != nil && before == after, "\(name) changed in value")
    }
    let again = try pack(["fmt", "--check", "packs"], home: home)
    #expect(again.status == 0)
    #expect(again.standardOutput == "0 files not formatted, 5 files formatted.\n")
    let lint = try pack(["lint", "packs"], home: home)
    #expect(lint.status == 0, "\(lint.standardOutput)")
  }

  @Test func aFileThatIsNotJSONIsNamedWithItsPlaceAndTheOthersAreStillFormatted() throws {
    let home = NSTemporaryDirectory() + "biki-fmt-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: home) }
    try "{\n  \"format\": 1,\n  \"id\": \n}\n".write(toFile: home + "/broken.json", atomically: true, encoding: .utf8)
    try #"{"format":1,"id":"ok","topics":[]}"#.write(toFile: home + "/ok.json", atomically: true, encoding: .utf8)
    mkfifo(home + "/fifo.json", 0o600)
    let result = try pack(["fmt", "broken.json", "fifo.json", "ok.json", "missing.json"], home: home)
    #expect(
      result.standardError.contains("broken.json:4:1: error: expected a value, found '}' [json-syntax]"),
      "\(result.standardError)")
    #expect(result.standardError.contains("fifo.json: error: cannot read:"), "\(result.standardError)")
    #expect(result.standardError.contains("Error: missing.json: no such file or directory"))
    #expect(result.status == 66)
    #expect(
      try String(contentsOfFile: home + "/ok.json", encoding: .utf8)
        == "{ \"format\": 1, \"id\": \"ok\", \"topics\": [] }\n")
    // Each failure has its exit status, as `biki-pack fmt --help` lists them; the worst wins.
    #expect(try pack(["fmt", "broken.json"], home: home).status == 65)
    #expect(try pack(["fmt", "--check", "ok.json"], home: home).status == 0)
    #expect(try pack(["fmt"], home: home).status == 64)
  }
}
