// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The package root, for linker flags that need absolute paths.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

let package = Package(
  name: "Biki",
  // The public surface: the programs, the plugin ABI (a C header any plugin builds against) and
  // the sample plugins. Every Swift module is internal to this package (`package` access).
  products: [
    .executable(name: "biki", targets: ["biki"]),
    .executable(name: "biki-pack", targets: ["biki-pack"]),
    .executable(name: "biki-bench", targets: ["biki-bench"]),
    .library(name: "BikiPluginABI", targets: ["BikiPluginABI"]),
    // Sample native plugins, built as shared libraries (libbiki-calendar.so, libbiki-prices.so).
    .library(name: "biki-calendar", type: .dynamic, targets: ["BikiCalendarPlugin"]),
    .library(name: "biki-prices", type: .dynamic, targets: ["BikiPricesPlugin"]),
  ],
  targets: [
    // Integers ⇄ kanji numerals and kana readings; units and counters as data.
    .target(name: "BikiJapanese"),
    // A lock for state shared between threads, one that ThreadSanitizer can see.
    .target(name: "BikiSync"),
    // The one way Biki opens a file to read (only a regular file, never blocking on a FIFO, at
    // most a given size) and writes one whole; SHA-256 for keys.
    .target(name: "BikiFiles", dependencies: ["BikiHashSupport"]),
    // SHA-256 on the CPU's own instructions, where it has them (immintrin.h, which Swift cannot use).
    .target(name: "BikiHashSupport"),
    // Topics, questions, answer checking, the seeded random source, the quiz session reducer.
    .target(name: "BikiCore", dependencies: ["BikiJapanese"]),
    // A JSON parser that keeps the source position of every value, for diagnostics, and the
    // `JSON` value Biki writes.
    .target(name: "BikiJSON"),
    // The JSON pack format: decode with positions, compile topics (checking what they mean) into
    // generators, diagnostics for what is wrong.
    .target(name: "BikiPacks", dependencies: ["BikiCore", "BikiJSON", "BikiJapanese", "BikiSync"]),
    // The stable C ABI for native topic plugins, documented in include/biki_plugin.h.
    .target(name: "BikiPluginABI"),
    // The few C calls plugin workers and their host need that Swift cannot make (pipe2, mallopt)
    // or should not (crash signal handlers). Internal: no plugin sees it.
    .target(name: "BikiWorkerSupport"),
    // Loads native plugins with dlopen, checks the ABI, validates their output, adapts them to generators.
    .target(
      name: "BikiPlugins",
      dependencies: ["BikiPluginABI", "BikiWorkerSupport", "BikiCore", "BikiJSON", "BikiJapanese", "BikiSync"]),
    // Plugins/ holds plugin sources; SwiftPM needs explicit paths there.
    .target(name: "BikiCalendarPlugin", dependencies: ["BikiPluginABI"], path: "Plugins/calendar-c"),
    .target(
      name: "BikiPricesPlugin", dependencies: ["BikiPluginABI", "BikiJapanese", "BikiCore"],
      path: "Plugins/prices-swift",
      exclude: ["exports.map"],
      // Export only the entry: the Swift modules linked in stay private to the plugin.
      linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(root)/Plugins/prices-swift/exports.map"])]),
    // Where packs come from: search paths, discovery, topic ids defined twice.
    .target(
      name: "BikiHost", dependencies: ["BikiFiles", "BikiPacks", "BikiCore", "BikiPlugins", "BikiJSON", "BikiSync"]),
    // Reading the client's input only if some is waiting (preadv2, which Swift cannot call).
    .target(name: "BikiInputSupport"),
    // JSON-RPC 2.0 with LSP base framing and lifecycle; knows nothing of quizzes.
    .target(name: "BikiProtocol", dependencies: ["BikiJSON", "BikiSync", "BikiInputSupport"]),
    // Speech: Open JTalk (its audio checked to say the reading taught), espeak-ng, or none.
    .target(name: "BikiSpeech", dependencies: ["BikiFiles", "BikiSync", "BikiSpeechSupport"]),
    // The process groups of running speech programs, killed from a signal handler.
    .target(name: "BikiSpeechSupport"),
    // glibc's malloc tuning for the long-running server (malloc.h, which Swift cannot import).
    .target(name: "BikiHeapSupport"),
    // Practice: the history of answers, stats over it; what quiz and serve both record into.
    .target(name: "BikiPractice", dependencies: ["BikiCore", "BikiJapanese", "BikiFiles", "BikiJSON", "BikiSync"]),
    // The biki/* methods, pack files as a language, the session table.
    .target(
      name: "BikiServer",
      dependencies: [
        "BikiProtocol", "BikiHost", "BikiCore", "BikiPacks", "BikiJSON", "BikiJapanese", "BikiSync", "BikiPractice",
      ]),
    // What the command-line tools share: outcomes, exit statuses, usage errors.
    .target(name: "BikiCLI", dependencies: ["BikiCore", "BikiSync"]),
    // Thin executables: parse arguments, wire live dependencies, call the modules.
    .executableTarget(
      name: "biki-pack", dependencies: ["BikiCLI", "BikiHost", "BikiPacks", "BikiCore", "BikiJSON", "BikiPlugins"]),
    .executableTarget(
      name: "biki",
      dependencies: [
        "BikiCLI", "BikiJapanese", "BikiCore", "BikiHost", "BikiPacks", "BikiPlugins", "BikiProtocol", "BikiServer",
        "BikiJSON", "BikiPractice", "BikiFiles", "BikiSpeech", "BikiSync", "BikiHeapSupport",
      ]),
    // Speed and memory figures; run in release (`swift run -c release biki-bench`).
    .executableTarget(
      name: "biki-bench",
      dependencies: [
        "BikiJapanese", "BikiCore", "BikiHost", "BikiPacks", "BikiPlugins", "BikiPluginABI", "BikiProtocol", "BikiJSON",
        "BikiPractice", "BikiSpeech",
      ]),

    // What tests share: whether they run under a sanitizer.
    .target(name: "BikiTestSupport", dependencies: ["BikiCore", "BikiJapanese"], path: "Tests/BikiTestSupport"),
    .testTarget(name: "BikiJapaneseTests", dependencies: ["BikiJapanese"]),
    .testTarget(name: "BikiJSONTests", dependencies: ["BikiJSON"]),
    .testTarget(name: "BikiFilesTests", dependencies: ["BikiFiles", "BikiTestSupport"]),
    .testTarget(name: "BikiPacksTests", dependencies: ["BikiPacks", "BikiTestSupport"]),
    .testTarget(
      name: "BikiPluginsTests", dependencies: ["BikiPlugins", "BikiCore", "BikiSync", "BikiTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(name: "BikiProtocolTests", dependencies: ["BikiProtocol", "BikiJSON", "BikiSync"]),
    .testTarget(
      name: "BikiServerTests",
      dependencies: ["BikiServer", "BikiPractice", "BikiJapanese", "BikiSync", "BikiTestSupport"]),
    .testTarget(
      name: "BikiPracticeTests", dependencies: ["BikiPractice", "BikiCore", "BikiJapanese", "BikiTestSupport"]),
    .testTarget(name: "BikiHostTests", dependencies: ["BikiHost", "BikiPlugins", "BikiSync", "BikiTestSupport"]),
    .testTarget(name: "BikiSpeechTests", dependencies: ["BikiSpeech", "BikiJapanese", "BikiSync", "BikiTestSupport"]),
    .testTarget(name: "BikiCoreTests", dependencies: ["BikiCore", "BikiJapanese", "BikiTestSupport"]),
    .testTarget(name: "BikiCLITests", dependencies: ["BikiCLI"]),
    // End-to-end: spawns the built `biki` executable as a user would.
    .testTarget(
      name: "bikiTests",
      dependencies: [
        "biki", "biki-pack", "BikiTestSupport", "BikiSync", "BikiHost", "BikiSpeech", "BikiPractice", "BikiCore",
      ],
      exclude: ["Fixtures"]),
  ]
)

// Coverage-guided fuzz targets (Tests/Fuzz), only when Tests/Fuzz/run builds them with libFuzzer
// and AddressSanitizer (BIKI_FUZZ=1): they link libFuzzer's driver, which a plain build lacks.
// In this package, so they reach the modules' `package` declarations.
if ProcessInfo.processInfo.environment["BIKI_FUZZ"] == "1" {
  func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzDriver"] + dependencies, path: "Tests/Fuzz/Sources/" + name)
  }
  package.targets += [
    .target(name: "FuzzDriver", path: "Tests/Fuzz/Sources/FuzzDriver"),
    fuzzTarget("fuzz-json", ["BikiJSON"]),
    fuzzTarget("fuzz-pack", ["BikiPacks", "BikiCore"]),
    fuzzTarget("fuzz-pack-structured", ["BikiPacks", "BikiCore"]),
    fuzzTarget("fuzz-phrase", ["BikiJapanese", "BikiCore"]),
    fuzzTarget("fuzz-protocol", ["BikiProtocol", "BikiJSON"]),
    fuzzTarget("fuzz-server", ["BikiServer", "BikiProtocol", "BikiHost", "BikiPacks", "BikiPractice", "BikiJSON"]),
    fuzzTarget("fuzz-plugin-output", ["BikiPlugins", "BikiCore", "BikiJapanese"]),
    fuzzTarget("fuzz-request", ["BikiServer", "BikiProtocol", "BikiHost", "BikiPacks", "BikiPractice", "BikiJSON"]),
  ]
  package.products += [
    "fuzz-json", "fuzz-pack", "fuzz-pack-structured", "fuzz-phrase", "fuzz-protocol", "fuzz-server",
    "fuzz-plugin-output", "fuzz-request",
  ].map {
    .executable(name: $0, targets: [$0])
  }
}
