import BikiTestSupport
import Foundation
import Testing

@testable import BikiSpeech

/// Making audio with a stand-in Open JTalk that says each text as the table below does: the
/// first form saying the reading's sounds is kept, and nothing is kept when none does.
@Suite struct OpenJTalkMakerTests {
  /// Phonemes said per text, as Open JTalk's dictionary says them (十分 じゅうぶん, the particle
  /// は in はち).
  static let says: [String: String] = [
    "八本": "h a cl p o N", "十分": "j u u b u N", "じゅっぷん": "j u cl p u N", "八": "y a cl ts u", "はち": "w a ch i",
    "ハチ": "h a ch i", "七十": "sh i ch i j u u",
    "一日": "i ch i n i ch i", "ついたち": "ts u i t a ch i", "九": "ky u u", "きゅう": "ky u u", "キュウ": "ky u u",
  ]

  static let wav: [UInt8] = {
    var bytes = Array("RIFF".utf8) + [36 + 4, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0]
    bytes += [0x80, 0xBB, 0, 0, 0, 0x77, 1, 0, 2, 0, 16, 0] + Array("data".utf8) + [4, 0, 0, 0, 0, 0x10, 0, 0xF0]
    return bytes
  }()

  final class Calls: @unchecked Sendable {
    let lock = NSLock()
    var texts: [String] = []
  }

  func maker(_ calls: Calls) throws -> OpenJTalkMaker {
    let directory = NSTemporaryDirectory() + "biki-speech-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try "voice".write(toFile: directory + "/v.htsvoice", atomically: true, encoding: .utf8)
    let system = SpeechSystem(
      run: { _, arguments, input, _, _ in
        let text = String(decoding: input, as: UTF8.self).trimmingCharacters(in: .newlines)
        calls.lock.withLock { calls.texts.append(text) }
        let phonemes = (Self.says[text] ?? "").split(separator: " ")
        let labels = (["sil"] + phonemes + ["sil"]).map { "0 1 x^x-\($0)+x=x/A:x" }.joined(separator: "\n")
        guard let wav = arguments.firstIndex(of: "-ow").map({ arguments[$0 + 1] }),
          let trace = arguments.firstIndex(of: "-ot").map({ arguments[$0 + 1] })
        else { return .success((2, [])) }
        FileManager.default.createFile(atPath: wav, contents: Data(Self.wav))
        FileManager.default.createFile(atPath: trace, contents: Data("[Output label]\n\(labels)\n\n".utf8))
        return .success((0, []))
      }, start: { _, _, _ in nil }, isFile: { FileManager.default.fileExists(atPath: $0) }, isProgram: { _ in true },
      entries: { _ in [] })
    return try OpenJTalkMaker(
      engine: OpenJTalk(program: "/usr/bin/open_jtalk", dictionary: "/dic", voice: directory + "/v.htsvoice"),
      directory: directory, system: system)
  }

  /// The display first, as Japanese is accented; the reading when the display is read otherwise.
  static let cases: [(String, String, [String])] = [
    ("はっぽん", "八本", ["八本"]),
    ("じゅっぷん", "十分", ["十分", "じゅっぷん"]),
    ("はち", "八", ["八", "はち", "ハチ"]),
    ("ななじゅう", "七十", ["七十", "ななじゅう", "ナナジュウ"]),
    ("ついたち", "一日", ["一日", "ついたち"]),
  ]

  @Test(arguments: cases)
  func theFirstFormSayingTheReadingIsKept(reading: String, display: String, tried: [String]) throws {
    let calls = Calls()
    let maker = try maker(calls)
    let made = maker.make(Utterance(reading: reading, display: display), cancellation: nil)
    #expect(calls.texts == tried)
    if reading == "ななじゅう" {
      #expect(
        made
          == .failure(
            SpeechFailure(
              "Open JTalk does not say ななじゅう (n a n a j u u) from any form: 七十: sh i ch i j u u; ななじゅう: ; ナナジュウ: ")))
    } else {
      #expect(made == .success(maker.path(of: Utterance(reading: reading, display: display))))
      // Made once: asked again, it is the file kept.
      _ = maker.make(Utterance(reading: reading, display: display), cancellation: nil)
      #expect(calls.texts == tried)
    }
  }

  /// A kept file is used only as a regular WAV file of its own: a link planted in its place, or
  /// anything not a WAV, is made afresh.
  @Test func aForgedKeptFileIsMadeAfresh() throws {
    let calls = Calls()
    let maker = try maker(calls)
    let utterance = Utterance(reading: "きゅう", display: "九")
    try "not audio".write(toFile: maker.path(of: utterance), atomically: true, encoding: .utf8)
    #expect(maker.make(utterance, cancellation: nil) == .success(maker.path(of: utterance)))
    #expect(calls.texts == ["九"])
    try FileManager.default.removeItem(atPath: maker.path(of: utterance))
    try FileManager.default.createSymbolicLink(atPath: maker.path(of: utterance), withDestinationPath: "/etc/passwd")
    #expect(maker.make(utterance, cancellation: nil) == .success(maker.path(of: utterance)))
    #expect(calls.texts == ["九", "九"])
    #expect(WAV(Array(try Data(contentsOf: URL(fileURLWithPath: maker.path(of: utterance))))) != nil)
  }
}

/// What Open JTalk is given: each form on one line, whatever the display held.
@Suite struct OpenJTalkFormsTests {
  @Test func lineBreaksAndControlCharactersAreLeftOutOfEachForm() {
    #expect(OpenJTalkMaker.forms(of: Utterance(reading: "はっぽん", display: "\n八本\t")) == ["八本", "はっぽん", "ハッポン"])
    #expect(OpenJTalkMaker.forms(of: Utterance(reading: "はっぽん", display: "\n\r")) == ["はっぽん", "ハッポン"])
    #expect(OpenJTalkMaker.excerpt(String(repeating: "は", count: 100)).count == 40)
  }
}

/// What each engine is told of the rate and pitch asked for.
@Suite struct SpeechStyleTests {
  @Test func eachEngineIsToldTheRateAndPitch() throws {
    #expect(SpeechStyle.normal.openJTalkArguments.isEmpty && SpeechStyle.normal.espeakArguments.isEmpty)
    let slow = try #require(SpeechStyle(rate: 0.5, pitch: -3))
    #expect(slow.openJTalkArguments == ["-r", "0.5", "-fm", "-3.0"])
    #expect(slow.espeakArguments == ["-s", "88", "-p", "38"])
    #expect(SpeechStyle(rate: 2.5, pitch: 0) == nil && SpeechStyle(rate: 1, pitch: .nan) == nil)
    // Audio of another style is another file; the voice's own style keeps the name it had.
    let maker = try OpenJTalkMakerTests().maker(OpenJTalkMakerTests.Calls())
    var styled = maker
    styled.style = slow
    let utterance = Utterance(reading: "はち", display: "八")
    #expect(styled.path(of: utterance) != maker.path(of: utterance))
  }
}
