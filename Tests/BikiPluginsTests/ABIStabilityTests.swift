import BikiCore
import BikiTestSupport
import Foundation
import Testing

@testable import BikiPlugins

/// ABI 1 stays stable both ways: plugins built against the released 1.0 header and against a
/// later one (1.2 as it could be: a field appended to every sized struct) load and work in this
/// host, and this host's samples load in a host built against the released 1.0 header. A plugin
/// that needs a minor its host lacks is refused, naming both versions. `.ci/abi-check` fails on
/// a changed value (a status code, an id string, a helper), not only on a changed type.
@Suite struct ABIStabilityTests {
  static let fixtures = PluginFixtures.repository.appendingPathComponent("Tests/BikiPluginsTests/Fixtures")

  @Test func aPluginBuiltAgainstTheFrozenHeaderLoadsAndWorks() throws {
    let path = try PluginFixtures.build(
      Self.fixtures.appendingPathComponent("misbehaving.c").path, name: "frozen-v1.0",
      include: PluginFixtures.frozenHeader)
    let plugin = try PluginTopics(library: try PluginLibrary(path: path))
    let generator = try plugin.generator(for: plugin.topics[0])
    #expect(try (0..<3).map { try generator.question(seed: $0).reading.standard } == ["いち", "に", "さん"])
  }

  @Test func aPluginBuiltAgainstALaterHeaderLoadsAndWorks() throws {
    let path = try PluginFixtures.build(
      Self.fixtures.appendingPathComponent("abi/later_plugin.c").path, name: "later-header",
      include: PluginFixtures.laterHeader)
    let library = try PluginLibrary(path: path)
    // Its descriptor is larger than any this host knows; the host reads only what it knows.
    #expect(Int(library.descriptorSize) > PluginLibrary.minimumDescriptorSize)
    let plugin = try PluginTopics(library: library)
    let eight = try plugin.generator(for: plugin.topics[0]).question(seed: 7)
    #expect(eight.display == "8本")
    // Read with the host's engine, through the readings extension.
    #expect(eight.reading.description == "はっぽん|はちほん")
    #expect(AnswerChecker.check("8本", against: eight, skill: .reading).isCorrect)
  }

  @Test(
    .disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.samplesAreInstrumented)),
    arguments: ["libbiki-calendar.so", "libbiki-prices.so"])
  func theSamplesLoadInAHostThatKnowsOnlyVersionOnePointZero(_ sample: String) throws {
    let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    let run = try Self.loadInOnePointZeroHost(buildDirectory + "/" + sample)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains(" 0: {\"display\": "), "\(run.output)")
  }

  /// Runs the minimal host built against the released 1.0 header (v1_loader.c) on `library`:
  /// its exit status, and what it printed on both streams.
  static func loadInOnePointZeroHost(_ library: String) throws -> (status: Int32, output: String) {
    let loader = PluginFixtures.directory + "/v1-loader-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: PluginFixtures.directory, withIntermediateDirectories: true)
    try PluginFixtures.compile([
      "-std=c99", "-I", PluginFixtures.frozenHeader, fixtures.appendingPathComponent("abi/v1_loader.c").path,
      "-ldl", "-o", loader,
    ])
    let run = Process()
    run.executableURL = URL(fileURLWithPath: loader)
    run.arguments = [library]
    let output = Pipe()
    run.standardOutput = output
    run.standardError = output
    try run.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    run.waitUntilExit()
    return (run.terminationStatus, printed)
  }

  // MARK: Minor versions: what a plugin needs, and the host it meets

  static func needsMinor(_ minor: Int) throws -> String {
    try PluginFixtures.build(
      fixtures.appendingPathComponent("abi/needs_minor.c").path, defines: ["NEEDS_MINOR=\(minor)"],
      name: "needs-minor-\(minor)")
  }

  /// A plugin that needs 1.1 (decimal answers) loads here, and its decimals are judged as such.
  @Test func aPluginThatNeedsOnePointOneWorksInThisHost() throws {
    let library = try PluginLibrary(path: try Self.needsMinor(1))
    #expect(library.abiVersion == PluginABIVersion(major: 1, minor: 1))
    let plugin = try PluginTopics(library: library)
    let fever = try plugin.generator(for: plugin.topics[0]).question(seed: 0)
    #expect(fever.display == "39.1度")
    #expect(fever.reading.description == "さんじゅうきゅうてんいちど")
    #expect(AnswerChecker.check("39.1", against: fever, skill: .reading).isCorrect)
    #expect(!AnswerChecker.check("391", against: fever, skill: .reading).isCorrect)
  }

  /// The same plugin in a host that speaks only 1.0, which never reads the descriptor's
  /// `abi_minor`: the plugin's init refuses, and its message names both versions.
  @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, Comment(rawValue: Sanitizers.samplesAreInstrumented)))
  func aPluginThatNeedsOnePointOneIsRefusedByAOnePointZeroHostNamingBoth() throws {
    let run = try Self.loadInOnePointZeroHost(try Self.needsMinor(1))
    #expect(run.status == 1, "\(run.output)")
    #expect(
      run.output == "v1-loader: init failed: this plugin needs Biki's plugin ABI 1.1; this Biki speaks 1.0\n",
      "\(run.output)")
  }

  /// A plugin that needs a minor newer than this host's is refused before its init runs, by
  /// its descriptor, naming both versions.
  @Test func aPluginThatNeedsALaterMinorIsRefusedNamingBoth() throws {
    let path = try Self.needsMinor(Int(PluginABIVersion.host.minor) + 1)
    let later = "1.\(PluginABIVersion.host.minor + 1)"
    #expect {
      try PluginLibrary(path: path)
    } throws: { error in
      guard let error = error as? PluginError else { return false }
      return error.kind == .incompatibleVersion
        && error.reason
          == "it needs plugin ABI \(later), and this Biki speaks \(PluginABIVersion.host): update Biki, or use a build of the plugin for \(PluginABIVersion.host)"
    }
  }

  // MARK: .ci/abi-check: the values of each minor, as well as its types

  /// libabigail, which `.ci/abi-check` needs. `.ci/run` installs it and sets
  /// BIKI_REQUIRE_CLIENTS=1, so there a missing abidw fails instead of skipping.
  static let hasAbigail =
    ProcessInfo.processInfo.environment["BIKI_REQUIRE_CLIENTS"] == "1" || (onPath("abidw") && onPath("abidiff"))

  static func onPath(_ tool: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
    }
  }

  /// Runs `.ci/abi-check` on the headers in `include` (the live header when nil).
  static func abiCheck(include: String?) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = PluginFixtures.repository.appendingPathComponent(".ci/abi-check")
    var environment = ProcessInfo.processInfo.environment
    environment["BIKI_ABI_INCLUDE"] = include
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, printed)
  }

  /// A copy of the live header in a directory of its own, with `original` (which must occur
  /// exactly once) replaced.
  static func changedHeader(_ original: String, _ replacement: String) throws -> String {
    let live = try String(contentsOfFile: PluginFixtures.header + "/biki_plugin.h", encoding: .utf8)
    try #require(live.components(separatedBy: original).count == 2, "the live header should have `\(original)` once")
    let directory = PluginFixtures.directory + "/abi-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try live.replacingOccurrences(of: original, with: replacement)
      .write(toFile: directory + "/biki_plugin.h", atomically: true, encoding: .utf8)
    return directory
  }

  static let frozenValuesHold = "abi: the values of ABI 1.0 hold in .ci/abi/1.0/biki_plugin.h"

  struct ValueChange: Sendable, CustomTestStringConvertible {
    var original: String
    var replacement: String
    /// What `.ci/abi-check` must print about the value, after "abi: ".
    var named: String
    var testDescription: String { named }
  }

  static let valueChanges = [
    ValueChange(
      original: "BIKI_STATUS_OUTPUT_REFUSED = 5,", replacement: "BIKI_STATUS_OUTPUT_REFUSED = 6,",
      named: "BIKI_STATUS_OUTPUT_REFUSED is 6"),
    ValueChange(
      original: #"#define BIKI_HOST_EXT_READINGS "biki.readings.1""#,
      replacement: #"#define BIKI_HOST_EXT_READINGS "biki.readings.2""#,
      named: #"BIKI_HOST_EXT_READINGS is "biki.readings.2""#),
    ValueChange(
      original: "index * list->element_size", replacement: "index * sizeof(biki_parameter_t)",
      named: "biki_parameter_at(list of element_size 40, 2) - entries is 48"),
    ValueChange(
      original: "BIKI_PLUGIN_ABI_VERSION 1u", replacement: "BIKI_PLUGIN_ABI_VERSION 2u",
      named: "BIKI_PLUGIN_ABI_VERSION is 2"),
    ValueChange(
      original: "BIKI_PLUGIN_THREAD_SAFE = 1u << 0", replacement: "BIKI_PLUGIN_THREAD_SAFE = 1u << 1",
      named: "BIKI_PLUGIN_THREAD_SAFE is 2"),
    ValueChange(
      original: #""biki_plugin_entry""#, replacement: #""biki_plugin_entry_v1""#,
      named: #"BIKI_PLUGIN_ENTRY_SYMBOL is "biki_plugin_entry_v1""#),
    ValueChange(
      original: "(pointer)->size >=", replacement: "(pointer)->size >",
      named: "BIKI_HAS_FIELD(parameter of size 24, biki_parameter_t, value): false"),
    ValueChange(
      original: "plugin_version == host_version", replacement: "plugin_version <= host_version",
      named: "biki_plugin_abi_is_compatible(1, 2): true"),
  ]

  /// Each change keeps every type, so abidiff alone passes it: the values check names it.
  @Test(.needs(hasAbigail, "needs libabigail: sudo apt-get install abigail-tools"), arguments: valueChanges)
  func theABICheckerFailsOnAChangedValueAndNamesIt(_ change: ValueChange) throws {
    let directory = try Self.changedHeader(change.original, change.replacement)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try Self.abiCheck(include: directory)
    #expect(result.status == 1, "\(result.output)")
    #expect(result.output.contains("abi: \(change.named) in \(directory)/biki_plugin.h;"), "\(result.output)")
    #expect(
      result.output.contains("abi: the values of ABI 1 changed in \(directory)/biki_plugin.h"), "\(result.output)")
    #expect(result.output.contains("abi: the plugin ABI's types match"), "\(result.output)")
    #expect(result.output.contains(Self.frozenValuesHold), "\(result.output)")
  }

  @Test(.needs(hasAbigail, "needs libabigail: sudo apt-get install abigail-tools"))
  func theABICheckerPassesAnUnchangedCopyOfTheHeader() throws {
    let directory = try Self.changedHeader("#pragma once", "#pragma once")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try Self.abiCheck(include: directory)
    #expect(result.status == 0, "\(result.output)")
    #expect(
      result.output.contains("abi: the values of ABI 1.0 and 1.1 hold in \(directory)/biki_plugin.h"),
      "\(result.output)")
    #expect(result.output.contains(Self.frozenValuesHold), "\(result.output)")
    #expect(result.output.contains("abi: the plugin ABI's types match"), "\(result.output)")
  }

  /// The later header adds fields, which the type baseline reports (an addition is made with
  /// `--release`), but every value of 1.0 and 1.1 holds in it.
  @Test(.needs(hasAbigail, "needs libabigail: sudo apt-get install abigail-tools"))
  func theLaterHeaderKeepsEveryValueOfVersionOne() throws {
    let result = try Self.abiCheck(include: PluginFixtures.laterHeader)
    #expect(
      result.output.contains("abi: the values of ABI 1.0 and 1.1 hold in \(PluginFixtures.laterHeader)/biki_plugin.h"),
      "\(result.output)")
    #expect(result.output.contains(Self.frozenValuesHold), "\(result.output)")
    #expect(!result.output.contains("abi: the values of ABI 1 changed"), "\(result.output)")
    #expect(
      result.status == 1 && result.output.contains("abi: the plugin ABI changed against .ci/abi/1.1/biki_plugin.abi"),
      "only the types differ: \(result.output)")
  }
}
