import Foundation
import Testing

/// A plugin in Rust through the C ABI alone (Plugins/floors-rust, no crates), built here with
/// rustc: lint finds nothing, the quiz asks its questions with Biki's readings, and the server
/// serves them. It shows the ABI needs nothing from Swift or C beyond the header's layout.
@Suite(.serialized) struct RustPluginTests {
  static let rustc = ["/usr/bin/rustc", NSHomeDirectory() + "/.cargo/bin/rustc"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static let usable = rustc != nil || ProcessInfo.processInfo.environment["BIKI_REQUIRE_CLIENTS"] == "1"

  /// The plugin, built once into a directory of its own.
  static let built: Result<String, BuildFailure> = {
    guard let rustc else { return .failure(BuildFailure(message: "rustc is not installed")) }
    let directory = NSTemporaryDirectory() + "biki-rust-plugin-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let compile = Process()
    compile.executableURL = URL(fileURLWithPath: rustc)
    compile.arguments = [
      "--edition", "2021", "--crate-type", "cdylib", "-O", "-D", "warnings",
      BikiPackTests.repository.path + "/Plugins/floors-rust/floors.rs", "-o", directory + "/libbiki-floors.so",
    ]
    let errors = Pipe()
    compile.standardError = errors
    compile.environment = ["PATH": "/usr/bin:/bin", "HOME": NSHomeDirectory(), "TMPDIR": directory]
    guard (try? compile.run()) != nil else { return .failure(BuildFailure(message: "cannot run \(rustc)")) }
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    compile.waitUntilExit()
    guard compile.terminationStatus == 0 else { return .failure(BuildFailure(message: said)) }
    return .success(directory)
  }()

  struct BuildFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  func environment(_ directory: String) -> [String: String] {
    [
      "HOME": directory, "XDG_STATE_HOME": directory + "/state", "XDG_DATA_HOME": directory + "/data",
      "PATH": "/usr/bin:/bin",
    ]
  }

  @Test(.needs(usable, "needs rustc: sudo apt-get install rustc"))
  func lintFindsNothingToSay() throws {
    let directory = try Self.built.get()
    let result = try BikiProcess.run(["lint", directory + "/libbiki-floors.so"], program: "biki-pack")
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput == "1 file checked: no problems.\n")
  }

  /// Floors as a floor plan or a lift says them (NHK's handbook; the counter's note in
  /// Counters+Standard): the standard reading first, then others heard.
  static let floors: [String: [String]] = [
    "1階": ["いっかい"], "2階": ["にかい"], "3階": ["さんがい", "さんかい"], "4階": ["よんかい"], "5階": ["ごかい"],
    "6階": ["ろっかい"], "7階": ["ななかい"], "8階": ["はっかい", "はちかい"], "9階": ["きゅうかい"],
    "10階": ["じゅっかい"], "13階": ["じゅうさんがい", "じゅうさんかい"], "20階": ["にじゅっかい"],
  ]

  /// The quiz asks the floor a seed picks; each reading heard for it is taken as right.
  @Test(.needs(usable, "needs rustc: sudo apt-get install rustc"))
  func theQuizTakesEachReadingOfItsFloors() throws {
    let directory = try Self.built.get()
    var tried = 0
    for seed in 0..<40 where tried < 4 {
      var environment = environment(directory)
      let command =
        "printf '%s' \"$BIKI_INPUT\" | \"$0\" quiz floors.floors --plugins '\(directory)' --skill kana --seed \(seed) --mode questions=1"
      environment["BIKI_INPUT"] = "skip\n"
      let asked = try BikiProcess.run([], viaShell: command, environment: environment)
      guard let line = asked.standardOutput.split(separator: "\n").first(where: { $0.hasPrefix("[1/1] ") }),
        let readings = Self.floors[String(line.dropFirst(6))], readings.count > 1
      else { continue }
      for reading in readings {
        environment["BIKI_INPUT"] = reading + "\n"
        let result = try BikiProcess.run([], viaShell: command, environment: environment)
        #expect(result.standardOutput.contains("Correct: 1"), "\(line) \(reading): \(result.standardOutput)")
        tried += 1
      }
    }
    #expect(tried >= 4)
  }

  /// Every floor it serves has the readings a floor plan is read with, the standard first.
  @Test(.needs(usable, "needs rustc: sudo apt-get install rustc"))
  func theServerServesItsFloorsWithBikisReadings() throws {
    let directory = try Self.built.get()
    let run = try ServeRun.run(
      ServeRun.initialize + ServeRun.request(1, "biki/generate", #"{"topicId":"floors.floors","seed":0,"count":20}"#)
        + ServeRun.shutdownAndExit, arguments: ["--plugins", directory], home: directory)
    let questions = run.result(1)?["questions"] as? [[String: Any]] ?? []
    #expect(Set(questions.compactMap { $0["display"] as? String }).count == 20, "\(run.messages)")
    var checked = 0
    for question in questions {
      guard let display = question["display"] as? String, let expected = Self.floors[display] else { continue }
      #expect((question["readings"] as? [String])?.first == expected[0], "\(display)")
      #expect(Set(expected).isSubset(of: Set(question["readings"] as? [String] ?? [])), "\(display)")
      checked += 1
    }
    #expect(checked == Self.floors.count)
  }
}
