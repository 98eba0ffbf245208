import BikiCore
import BikiJapanese
import FuzzDriver

/// Any text as `biki read` and a typed answer see it: reading it as each kind of phrase,
/// parsing it as a numeral and normalising it as kana never trap, and a reading given is kana.
@main enum Target {
  static func main() { runFuzzer(fuzzPhrase) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPhrase(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let text = String(decoding: bytes(data, size), as: UTF8.self)
  let reader = PhraseReader()
  for kind in [nil] + PhraseKind.allCases.map(Optional.some) {
    if let reading = try? reader.read(text, as: kind) {
      precondition(reading.all(limit: 8).allSatisfy(KanaText.isKana), "a reading that is not kana: \(reading)")
    }
  }
  _ = KanjiNumeral.parse(Substring(text))
  let normalized = KanaText.normalized(text)
  precondition(KanaText.normalized(normalized) == normalized, "normalising twice changed \(text)")
  let question = Question(
    topicID: "fuzz", seed: 0, display: "8本", kanjiDisplay: "八本", reading: Reading("はっぽん"),
    answer: Answer(value: 8, prefix: "¥", postfix: "本", acceptedAffixes: ["円"]))
  for skill in Skill.allCases { _ = AnswerChecker.check(text, against: question, skill: skill) }
  return 0
}
