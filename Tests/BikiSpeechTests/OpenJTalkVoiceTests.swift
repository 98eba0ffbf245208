import BikiJapanese
import BikiSync
import BikiTestSupport
import Foundation
import Testing

@testable import BikiSpeech

/// Open JTalk itself, with Debian's dictionary and pyopenjtalk's mei voice (installed by
/// .ci/run): what it says is the reading taught, for every sound change of every built-in
/// counter, and the audio is of a spoken length and loudness.
@Suite(.serialized) struct OpenJTalkVoiceTests {
  static let engine: SpeechEngine = SpeechEngine.choose(
    environment: ProcessInfo.processInfo.environment.merging(["BIKI_AUDIO_PLAYER": "/bin/true"]) { $1 }, voice: nil,
    system: .live)

  static let installed: Bool = {
    if case .openJTalk = engine { return true }
    return ProcessInfo.processInfo.environment["BIKI_REQUIRE_CLIENTS"] == "1"
  }()

  static let needs =
    "needs Open JTalk and a voice: sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic && python3 -m pip install pyopenjtalk-plus"

  func maker() throws -> OpenJTalkMaker {
    guard case .openJTalk(let openJTalk, _) = Self.engine else {
      throw SpeechFailure("Open JTalk is not usable here: \(Self.engine.summary)")
    }
    let directory = NSTemporaryDirectory() + "biki-voice-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return try OpenJTalkMaker(engine: openJTalk, directory: directory, system: .live)
  }

  /// Each sound change and special whole form of each built-in counter, as a question shows it
  /// (八本) and reads it (はっぽん): the counts to 10 and 100, where each counter's own changes
  /// are; the hundreds and thousands derived from them (三百本, 八千本) once, for 本, as they
  /// follow one rule for every counter.
  static let soundChanges: [Utterance] = {
    var seen = Set<String>()
    var utterances: [Utterance] = []
    for counter in CounterCatalog.standard.counters {
      let counts = Set(counter.finalForms.keys).union(counter.wholeForms.keys).filter {
        $0 >= 1 && ($0 <= 10 || $0 == 100 || (counter.symbol == "本" && $0 <= 10_000))
      }
      for count in counts.sorted() {
        if let valid = counter.validValues, !valid.contains(count) { continue }
        guard let reading = try? JapaneseNumber.reading(of: UInt128(count), with: counter).standard,
          seen.insert(reading).inserted
        else { continue }
        utterances.append(Utterance(reading: reading, display: JapaneseNumber.kanji(UInt128(count)) + counter.symbol))
      }
    }
    return utterances
  }()

  @Test(.needs(installed, needs))
  func everyCountersSoundChangesAreSaidAsTaught() throws {
    let maker = try maker()
    // Two at a time: each is a process of its own, most of it Open JTalk loading its dictionary.
    let failures = Locked<[String]>([])
    let utterances = Self.soundChanges
    DispatchQueue.concurrentPerform(iterations: 2) { lane in
      for utterance in utterances.enumerated() where utterance.offset % 2 == lane {
        if case .failure(let failure) = maker.make(utterance.element, cancellation: nil) {
          failures.withLock { $0.append(failure.description) }
        }
      }
    }
    let failed = failures.withLock { $0 }
    #expect(Self.soundChanges.count > 250)
    #expect(failed.isEmpty, "\(failed.count) of \(Self.soundChanges.count):\n\(failed.joined(separator: "\n"))")
  }

  /// Readings of every kind a quiz speaks, and the seconds each should last.
  static let table: [(reading: String, display: String, seconds: ClosedRange<Double>)] = [
    ("はっぽん", "八本", 0.4...2.0), ("ろっぴゃくえん", "六百円", 0.6...2.5), ("じゅっぷん", "十分", 0.4...2.0),
    ("はつか", "二十日", 0.4...2.0), ("ついたち", "一日", 0.4...2.0), ("さんびゃく", "三百", 0.4...2.0),
    ("いっぴき", "一匹", 0.4...2.0), ("はち", "八", 0.2...1.5),
    ("せんきゅうひゃくはちじゅうきゅうねん", "千九百八十九年", 1.2...5.0),
    ("ごごよじじゅうごふん", "午後四時十五分", 0.8...4.0),
  ]

  @Test(.needs(installed, needs), arguments: table)
  func theAudioIsSpeechOfItsLength(reading: String, display: String, seconds: ClosedRange<Double>) throws {
    let made = try maker().make(Utterance(reading: reading, display: display), cancellation: nil).get()
    let wav = try #require(WAV(Array(try Data(contentsOf: URL(fileURLWithPath: made)))))
    #expect(seconds.contains(wav.seconds), "\(wav.seconds) s")
    // Speech, not silence or clipping: mei_normal speaks around −20 dBFS.
    #expect((-35.0 ... -8.0).contains(wav.loudness), "\(wav.loudness) dBFS")
  }
}
