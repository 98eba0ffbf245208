import BikiTestSupport
import Foundation
import Testing

/// Plugins built against every released header (.ci/abi/<major.minor>) keep loading and serving
/// in this host, as docs/plugin-abi.md's policy promises: the C sample, the plugin that needs
/// 1.1 (against headers that have 1.1), and a Swift plugin that knows only the header. Each is
/// built here as its author would build it, then run through `biki-pack lint`, `biki quiz` and
/// `biki serve`. A released header added to .ci/abi is tested without a change here.
@Suite struct CompatibilityFixtureTests {
  static let fixtures = PluginFixtures.repository.appendingPathComponent("Tests/BikiPluginsTests/Fixtures/abi").path

  /// One plugin of the set: its library's file name, a topic, and for each question the quiz
  /// shows in kanji (the reading skill) the answer a reader types. `answers` is empty for a
  /// topic whose questions the test only skips.
  struct Fixture: Sendable {
    var library: String
    var topic: String
    var answers: [String: String]
    /// What the server may show for the topic's questions.
    var displays: Set<String> { Set(answers.values.map { $0 + unit }) }
    var unit = ""
  }

  static let hon = Dictionary(
    uniqueKeysWithValues: ["一", "二", "三", "四", "五", "六", "七", "八", "九"].enumerated().map {
      ($1 + "本", String($0 + 1))
    })

  /// The released version a header directory holds ("1.0").
  static func version(_ header: String) -> String { URL(fileURLWithPath: header).lastPathComponent }

  /// Builds the set against `header` into a directory of its own; what it holds.
  static func build(against header: String) throws -> (directory: String, fixtures: [Fixture]) {
    let directory = NSTemporaryDirectory() + "biki-compat-\(version(header))-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory + "/module", withIntermediateDirectories: true)
    var built: [Fixture] = []

    try PluginFixtures.compile([
      "-std=c99", "-O1", "-shared", "-fPIC", "-I", header,
      PluginFixtures.repository.appendingPathComponent("Plugins/calendar-c/calendar.c").path,
      "-o", directory + "/libbiki-calendar.so",
    ])
    built.append(Fixture(library: "libbiki-calendar.so", topic: "calendar.eras", answers: [:]))

    if version(header) != "1.0" {
      try PluginFixtures.compile([
        "-std=c99", "-O1", "-shared", "-fPIC", "-I", header, fixtures + "/needs_minor.c", "-o",
        directory + "/libfever.so",
      ])
      built.append(
        Fixture(
          library: "libfever.so", topic: "fever.temperature", answers: ["三十九・一度": "39.1", "三十五・九度": "35.9"],
          unit: "度"))
    }

    // The Swift plugin sees the header through a module map, as a package of its own would.
    try """
    module BikiPluginABI {
      header "\(header)/biki_plugin.h"
      export *
    }
    """.write(toFile: directory + "/module/module.modulemap", atomically: true, encoding: .utf8)
    let swiftc = Process()
    swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    swiftc.arguments = [
      "swiftc", "-emit-library", "-parse-as-library", "-module-name", "SwiftHon", "-I", directory + "/module",
      fixtures + "/swift_plugin.swift", "-o", directory + "/libswift-hon.so",
      "-module-cache-path", directory + "/module-cache",
    ]
    let said = Pipe()
    swiftc.standardError = said
    try swiftc.run()
    let message = String(decoding: said.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    swiftc.waitUntilExit()
    guard swiftc.terminationStatus == 0 else { throw PluginFixtures.CompileError(message: message) }
    built.append(Fixture(library: "libswift-hon.so", topic: "swift-hon.hon", answers: hon, unit: "本"))
    return (directory, built)
  }

  /// A plugin built for a minor version this host does not speak yet (1.2 where it speaks 1.1)
  /// is refused by lint, the quiz and the server alike, each naming both versions and what to
  /// do, and everything else still serves.
  @Test func aPluginThatNeedsANewerHostIsRefusedEverywhereNamingBoth() throws {
    let include = PluginFixtures.repository.appendingPathComponent("Sources/BikiPluginABI/include").path
    let header = try String(contentsOfFile: include + "/biki_plugin.h", encoding: .utf8)
    let spoken = try #require(
      header.firstMatch(of: /#define BIKI_PLUGIN_ABI_MINOR (\d+)u/).flatMap { Int($0.1) })
    let directory = NSTemporaryDirectory() + "biki-newer-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try PluginFixtures.compile([
      "-std=c99", "-O1", "-shared", "-fPIC", "-I", include, "-DNEEDS_MINOR=\(spoken + 1)",
      Self.fixtures + "/needs_minor.c", "-o", directory + "/libfever.so",
    ])
    let told =
      "it needs plugin ABI 1.\(spoken + 1), and this Biki speaks 1.\(spoken): update Biki, or use a build of the plugin for 1.\(spoken)"
    let home = directory + "/home"
    let environment = BikiPackTests.isolated(home)

    let lint = try BikiProcess.run(
      ["lint", directory + "/libfever.so"], program: "biki-pack", environment: environment)
    #expect(lint.status == 1)
    #expect(lint.standardOutput.contains("\(told) [plugin-abi-version]"), "\(lint.standardOutput)")
    #expect(lint.standardOutput.contains("1 failed (load.abi-version)"), "\(lint.standardOutput)")

    let quiz = try BikiProcess.run(
      [], viaShell: "printf 'skip\\n' | \"$0\" quiz fever.temperature --plugins '\(directory)' --mode questions=1",
      environment: environment)
    #expect(quiz.status == 64)
    #expect(quiz.standardError.contains(told), "\(quiz.standardError)")
    #expect(quiz.standardError.contains("no topic 'fever.temperature'"), "\(quiz.standardError)")

    let served = try ServeRun.run(
      ServeRun.initialize
        + ServeRun.request(1, "biki/generate", #"{"topicId":"fever.temperature","seed":1}"#)
        + ServeRun.request(2, "biki/generate", #"{"topicId":"numbers.beginner","seed":1}"#) + ServeRun.shutdownAndExit,
      arguments: ["--plugins", directory], home: home)
    #expect(served.errorCode(1) == -32602)
    #expect(served.result(2) != nil)
    let logged = served.notifications("window/logMessage").compactMap { $0["message"] as? String }
    #expect(logged.contains { $0.contains(told) }, "\(logged)")
  }

  @Test(arguments: PluginFixtures.releasedHeaders)
  func pluginsBuiltAgainstAReleasedHeaderLintQuizAndServe(_ header: String) throws {
    let (directory, fixtures) = try Self.build(against: header)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let home = directory + "/home"
    let environment = BikiPackTests.isolated(home)

    let lint = try BikiProcess.run(
      ["lint"] + fixtures.map { directory + "/" + $0.library }, program: "biki-pack", environment: environment)
    #expect(lint.status == 0, "\(lint.standardOutput)\(lint.standardError)")
    #expect(lint.standardOutput == "\(fixtures.count) files checked: no problems.\n", "\(lint.standardOutput)")

    // The quiz shows a question, then is given its answer (or skips, and shows it).
    for fixture in fixtures {
      let command =
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz \(fixture.topic) --plugins '\(directory)' --skill reading --seed 3 --mode questions=1"
      var quizEnvironment = environment
      quizEnvironment["BIKI_INPUT"] = "skip\n"
      let asked = try BikiProcess.run([], viaShell: command, environment: quizEnvironment)
      #expect(asked.status == 0, "\(fixture.topic): \(asked.standardOutput)\(asked.standardError)")
      let shown = asked.standardOutput.split(separator: "\n").first { $0.hasPrefix("[1/1] ") }.map {
        String($0.dropFirst(6))
      }
      #expect(shown != nil, "\(fixture.topic): \(asked.standardOutput)")
      guard !fixture.answers.isEmpty, let shown else { continue }
      let answer = try #require(fixture.answers[shown], "\(fixture.topic) showed \(shown)")
      quizEnvironment["BIKI_INPUT"] = answer + "\n"
      let answered = try BikiProcess.run([], viaShell: command, environment: quizEnvironment)
      #expect(answered.standardOutput.contains("Correct: 1"), "\(fixture.topic): \(answered.standardOutput)")
    }

    let requests = fixtures.enumerated().flatMap { index, fixture in
      ServeRun.request(
        index + 1, "biki/generate", #"{"topicId":"\#(fixture.topic)","seed":1,"count":2}"#)
    }
    let served = try ServeRun.run(
      ServeRun.initialize + requests + ServeRun.shutdownAndExit, arguments: ["--plugins", directory], home: home)
    #expect(served.status == 0)
    for (index, fixture) in fixtures.enumerated() {
      let questions = served.result(index + 1)?["questions"] as? [[String: Any]] ?? []
      let displays = questions.compactMap { $0["display"] as? String }
      #expect(displays.count == 2, "\(fixture.topic): \(served.messages)")
      #expect(
        fixture.answers.isEmpty ? !displays.contains("") : Set(displays).isSubset(of: fixture.displays),
        "\(fixture.topic): \(displays)")
    }
  }
}
