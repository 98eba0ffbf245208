import BikiCore
import BikiPacks
import FuzzDriver

/// Any bytes as a pack file: compiling reports diagnostics and never traps, and every topic
/// it accepts generates its first, last and a middle question without trapping.
@main enum Target {
  static func main() { runFuzzer(fuzzPack) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPack(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let compilation = PackCompiler.compile(bytes(data, size), check: .sample(8))
  for topic in compilation.topics {
    guard let generator = try? topic.generator() else { continue }
    for seed in [0, generator.spaceSize / 2, generator.spaceSize &- 1] { _ = try? generator.question(seed: seed) }
    for parameter in topic.topic.parameters {
      for value in [parameter.minimum, parameter.maximum] {
        _ = try? topic.generator(parameters: [parameter.name: value]).question(seed: 1)
      }
    }
  }
  return 0
}
