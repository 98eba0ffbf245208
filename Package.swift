// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Biki",
  products: [
    .executable(name: "biki", targets: ["biki"]),
    .executable(name: "biki-bench", targets: ["biki-bench"]),
    .library(name: "BikiJapanese", targets: ["BikiJapanese"]),
    .library(name: "BikiCore", targets: ["BikiCore"]),
    .library(name: "BikiJSON", targets: ["BikiJSON"]),
    .library(name: "BikiPacks", targets: ["BikiPacks"]),
  ],
  targets: [
    // Integers ⇄ kanji numerals and kana readings; units and counters as data.
    .target(name: "BikiJapanese"),
    // Topics, questions, answer checking, the seeded random source, the quiz session reducer.
    .target(name: "BikiCore", dependencies: ["BikiJapanese"]),
    // Thin executables: parse arguments, wire live dependencies, call the modules.
    // A JSON parser that keeps the source position of every value, for diagnostics.
    .target(name: "BikiJSON"),
    // The JSON pack format: decode with positions, validate into diagnostics, compile to generators.
    .target(name: "BikiPacks", dependencies: ["BikiCore", "BikiJSON", "BikiJapanese"]),
    .executableTarget(name: "biki", dependencies: ["BikiJapanese", "BikiCore"]),
    // Speed and memory figures; run in release (`swift run -c release biki-bench`).
    .executableTarget(name: "biki-bench", dependencies: ["BikiJapanese", "BikiCore"]),

    .testTarget(name: "BikiJapaneseTests", dependencies: ["BikiJapanese"]),
    .testTarget(name: "BikiJSONTests", dependencies: ["BikiJSON"]),
    .testTarget(name: "BikiPacksTests", dependencies: ["BikiPacks"]),
    .testTarget(name: "BikiCoreTests", dependencies: ["BikiCore", "BikiJapanese"]),
    // End-to-end: spawns the built `biki` executable as a user would.
    .testTarget(name: "bikiTests", dependencies: ["biki"]),
  ]
)
