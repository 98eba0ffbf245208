import BikiCore
import Foundation
import Testing

@testable import BikiPacks

/// Whatever bytes arrive, compiling never crashes, and any topic it accepts generates.
@Suite struct PackFuzzTests {
  @Test func mutatedPacksNeverCrashTheCompiler() throws {
    let original = Array(try PackFixtures.builtIn("numbers"))
    var random = SeededRandom(seed: 2026)
    let alphabet = Array("{}[]\":,0123456789-abcnmx本日 \n\\".utf8) + [0xFF, 0xE6]
    for _ in 0..<300 {
      var bytes = original
      for _ in 0..<Int(random.next() % 4 + 1) {
        let position = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 3 {
        case 0: bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
        case 1: bytes.remove(at: position)
        default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
        }
      }
      let compilation = PackCompiler.compile(bytes, check: .sample(8))
      for topic in compilation.topics {
        let generator = try topic.generator()
        _ = try generator.question(seed: random.next())
      }
    }
  }

  @Test func truncatedPacksNeverCrashTheCompiler() throws {
    let original = Array(try PackFixtures.builtIn("numbers"))
    for length in stride(from: 0, to: original.count, by: 37) {
      let compilation = PackCompiler.compile(Array(original[..<length]), check: .sample(8))
      #expect(compilation.hasErrors)
    }
  }
}
