import BikiCore
import BikiJapanese
import BikiPlugins
import FuzzDriver

/// Any bytes as a plugin's description or question: validation refuses them with a named
/// error or accepts them, never traps; an accepted question's readings are kana.
@main enum Target {
  static func main() { runFuzzer(fuzzPluginOutput) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPluginOutput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = bytes(data, size)
  if let question = try? PluginTopics.question(
    bytes, topicID: "fuzz.t", seed: 7, path: "/fuzz.so", displayReadings: DisplayReadings())
  {
    precondition(question.reading.all(limit: 8).allSatisfy(KanaText.isKana), "accepted a reading that is not kana")
    for skill in Skill.allCases { _ = AnswerChecker.check("8", against: question, skill: skill) }
  }
  let backend = PluginBackend(
    path: "/fuzz.so",
    describe: { () throws(PluginError) in (PluginIdentity(id: "fuzz", name: "Fuzz", version: "1", abiVersion: 1), bytes)
    },
    generate: { _, _, seeds throws(PluginError) in seeds.map { _ in .success(bytes) } })
  if let topics = try? PluginTopics(backend: backend) {
    for topic in topics.topics {
      _ = try? topics.generator(for: topic).question(seed: 0)
      for parameter in topic.parameters {
        _ = try? topics.generator(for: topic, parameters: [parameter.name: parameter.maximum]).question(seed: 1)
      }
    }
  }
  return 0
}
