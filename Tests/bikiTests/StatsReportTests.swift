import Foundation
import Testing

/// `biki stats --html`: where the page goes when it is not named, and the words for each way
/// it cannot be written.
@Suite struct StatsReportTests {
  func home() throws -> String {
    let home = NSTemporaryDirectory() + "biki-report-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    return home
  }

  @Test func withoutAFileThePageGoesBesideTheHistoryAndItsAddressIsPrinted() throws {
    let home = try home()
    let result = try BikiProcess.run(["stats", "--html"], environment: ["HOME": home], directory: "/")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError == "Wrote the report: file://\(home)/.local/state/biki/report.html\n")
    let page = try String(contentsOfFile: home + "/.local/state/biki/report.html", encoding: .utf8)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(result.standardOutput == "No answers recorded yet (\(home)/.local/state/biki/history.jsonl).\n")
  }

  /// A page named with `=` is written there, a space in its address escaped as a browser reads it.
  @Test func aNamedPageIsWrittenWhereItIsNamed() throws {
    let home = try home()
    let result = try BikiProcess.run(["stats", "--html=\(home)/my page.html"], environment: ["HOME": home])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError == "Wrote the report: file://\(home)/my%20page.html\n")
    #expect(FileManager.default.fileExists(atPath: home + "/my page.html"))
  }

  /// A link where the page goes is replaced, never written through.
  @Test func aLinkAtTheDefaultPlaceIsReplacedNotFollowed() throws {
    let home = try home()
    try FileManager.default.createDirectory(atPath: home + "/.local/state/biki", withIntermediateDirectories: true)
    try "precious".write(toFile: home + "/elsewhere", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: home + "/.local/state/biki/report.html", withDestinationPath: home + "/elsewhere")
    let result = try BikiProcess.run(["stats", "--html"], environment: ["HOME": home])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try String(contentsOfFile: home + "/elsewhere", encoding: .utf8) == "precious")
    let kind = try FileManager.default.attributesOfItem(atPath: home + "/.local/state/biki/report.html")[.type]
    #expect(kind as? FileAttributeType == .typeRegular)
  }

  static let refusals: [([String], [String: String], Int32, String)] = [
    // How earlier Biki named the page: the name would now be taken for a topic.
    (
      ["stats", "--html", "report.html"], [:], 64,
      "Error: 'report.html' is read as a topic; to name the page, write --html=report.html.\n"
    ),
    (["stats", "--html="], [:], 64, "Error: Missing value after '--html='.\n"),
    (
      ["stats", "--html"], ["HOME": ""], 73,
      "Warning: answers are not recorded: neither XDG_STATE_HOME nor HOME is set to an absolute path\n"
        + "Error: there is no state directory for the report (set HOME or XDG_STATE_HOME to an absolute path),"
        + " so name the page: --html=<file>.\n"
    ),
  ]

  @Test(arguments: refusals)
  func whatCannotBeWrittenIsSaid(arguments: [String], environment: [String: String], status: Int32, message: String)
    throws
  {
    var environment = environment
    if environment["HOME"] == nil { environment["HOME"] = try home() }
    let result = try BikiProcess.run(arguments, environment: environment)
    #expect(result.status == status)
    #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
  }
}
