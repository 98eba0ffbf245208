// swift-tools-version:6.0
// Coverage-guided fuzz targets for libFuzzer. A package of its own, so `swift build` of Biki
// never needs the fuzzer runtime; Tests/Fuzz/run builds it with -sanitize=fuzzer,address,
// which instruments every module of Biki the targets use.
import PackageDescription

func target(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
  .executableTarget(name: name, dependencies: ["FuzzDriver"] + dependencies)
}

let package = Package(
  name: "BikiFuzz",
  dependencies: [.package(name: "Biki", path: "../..")],
  targets: [
    .target(name: "FuzzDriver"),
    target("fuzz-json", [.product(name: "BikiJSON", package: "Biki")]),
    target("fuzz-pack", [.product(name: "BikiPacks", package: "Biki"), .product(name: "BikiCore", package: "Biki")]),
    target(
      "fuzz-pack-structured",
      [.product(name: "BikiPacks", package: "Biki"), .product(name: "BikiCore", package: "Biki")]),
    target(
      "fuzz-phrase",
      [.product(name: "BikiJapanese", package: "Biki"), .product(name: "BikiCore", package: "Biki")]),
    target("fuzz-protocol", [.product(name: "BikiProtocol", package: "Biki")]),
    target(
      "fuzz-plugin-output",
      [
        .product(name: "BikiPlugins", package: "Biki"), .product(name: "BikiCore", package: "Biki"),
        .product(name: "BikiJapanese", package: "Biki"),
      ]),
  ]
)
