import BikiSpeech
import Foundation

/// How soon a listening question is heard: from the prompt to the player started, with its
/// audio made ahead (as `biki quiz --speak` makes the next question's while the learner
/// answers) and made only when asked (the first question). The player is /bin/true, so what
/// is timed is Biki's part.
struct SpeechBench {
  /// Readings of the kind a quiz speaks, each with the text it reads.
  static let utterances: [Utterance] = [
    ("はっぽん", "八本"), ("ろっぴゃくえん", "六百円"), ("じゅっぷん", "十分"), ("はつか", "二十日"), ("さんびゃくにん", "三百人"),
    ("ごごよじ", "午後四時"), ("いっぴき", "一匹"), ("ななまい", "七枚"), ("きゅうさつ", "九冊"), ("ついたち", "一日"),
  ].map { Utterance(reading: $0.0, display: $0.1) }

  func run() -> [String] {
    var environment = ProcessInfo.processInfo.environment
    environment["BIKI_AUDIO_PLAYER"] = "/bin/true"
    let engine = SpeechEngine.choose(environment: environment, voice: nil, system: .live)
    guard case .openJTalk(let openJTalk, _) = engine else { return ["speech: not measured here: \(engine.summary)"] }
    func fail(_ message: String) -> Never {
      FileHandle.standardError.write(Data("Error: speech: \(message), so nothing is measured\n".utf8))
      exit(1)
    }
    let clock = ContinuousClock()
    func milliseconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
    var cold: [Double] = []
    var ahead: [Double] = []
    for round in 0..<2 {
      // A fresh directory each round: nothing is made before it is asked for.
      let directory = NSTemporaryDirectory() + "biki-bench-speech-" + UUID().uuidString
      try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let speaker = Speaker(engine: engine, directory: directory, system: .live)
      for (index, utterance) in Self.utterances.enumerated() where index % 2 == round {
        let start = clock.now
        if let failure = speaker.speak(utterance) { fail("\(utterance.reading): \(failure)") }
        cold.append(milliseconds(start.duration(to: clock.now)))
      }
      for (index, utterance) in Self.utterances.enumerated() where index % 2 != round {
        speaker.prepare(utterance)
        // The learner answers the question before: the audio is made meanwhile.
        Thread.sleep(forTimeInterval: 0.5)
        let start = clock.now
        if let failure = speaker.speak(utterance) { fail("\(utterance.reading): \(failure)") }
        ahead.append(milliseconds(start.duration(to: clock.now)))
      }
    }
    let (made, madeAhead) = (Spread(cold).median, Spread(ahead).median)
    return [
      "speech.ahead: \(String(format: "%.1f", madeAhead)) ms from the prompt to the player, the audio made ahead; \(String(format: "%.1f", made)) ms when made on asking  (target < 100 ms: \(madeAhead < 100 ? "met" : "NOT met"))  [Open JTalk, voice \(openJTalk.voiceName); medians of \(ahead.count)]"
    ]
  }
}
