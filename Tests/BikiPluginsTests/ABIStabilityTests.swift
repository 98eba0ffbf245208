import BikiCore
import BikiPlugins
import BikiTestSupport
import Foundation
import Testing

/// ABI v1 stays stable both ways: plugins built against the frozen v1.0 header and against a
/// later one (a field appended to every sized struct) load and work in this host, and this
/// host's samples load in a host built against the frozen v1.0 header.
@Suite struct ABIStabilityTests {
  static let fixtures = PluginFixtures.repository.appendingPathComponent("Tests/BikiPluginsTests/Fixtures")

  @Test func aPluginBuiltAgainstTheFrozenHeaderLoadsAndWorks() throws {
    let path = try PluginFixtures.build(Self.fixtures.appendingPathComponent("misbehaving.c").path, name: "frozen-v1.0", include: PluginFixtures.frozenHeader)
    let plugin = try PluginTopics(library: try PluginLibrary(path: path))
    let generator = try plugin.generator(for: plugin.topics[0])
    #expect(try (0..<3).map { try generator.question(seed: $0).reading.standard } == ["いち", "に", "さん"])
  }

  @Test func aPluginBuiltAgainstALaterHeaderLoadsAndWorks() throws {
    let path = try PluginFixtures.build(
      Self.fixtures.appendingPathComponent("abi/later_plugin.c").path, name: "later-header", include: PluginFixtures.laterHeader)
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
    let loader = PluginFixtures.directory + "/v1-loader"
    try FileManager.default.createDirectory(atPath: PluginFixtures.directory, withIntermediateDirectories: true)
    let compile = Process()
    compile.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    compile.arguments = [
      "cc", "-std=c99", "-I", PluginFixtures.frozenHeader, Self.fixtures.appendingPathComponent("abi/v1_loader.c").path, "-ldl", "-o",
      loader + "-" + sample,
    ]
    try compile.run()
    compile.waitUntilExit()
    #expect(compile.terminationStatus == 0)
    let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    let run = Process()
    run.executableURL = URL(fileURLWithPath: loader + "-" + sample)
    run.arguments = [buildDirectory + "/" + sample]
    let output = Pipe()
    run.standardOutput = output
    try run.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    run.waitUntilExit()
    #expect(run.terminationStatus == 0, "\(printed)")
    #expect(printed.contains(" 0: {\"display\": "), "\(printed)")
  }
}
