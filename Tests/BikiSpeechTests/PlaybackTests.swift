import BikiTestSupport
import Foundation
import Testing

@testable import BikiSpeech

/// Whether sound was heard, told by the player itself: real programs started as a player is,
/// each standing for one way a machine without sound (SSH, a container, WSL) answers.
@Suite struct PlaybackTests {
  /// A shell script at a fresh path that does `body`.
  func program(_ body: String) throws -> String {
    let path = NSTemporaryDirectory() + "biki-player-" + UUID().uuidString
    try ExecutableCopy.script(body, at: path)
    return path
  }

  static let cases: [(body: String, told: String?)] = [
    // aplay with no sound card, word for word.
    (
      "echo 'ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default' >&2\necho 'aplay: main:831: audio open error: No such file or directory' >&2\nexit 1",
      "cannot play sound here: it says \"aplay: main:831: audio open error: No such file or directory\""
    ),
    // paplay with no PulseAudio server.
    (
      "echo 'Connection failure: Connection refused' >&2\nexit 1",
      "cannot play sound here: it says \"Connection failure: Connection refused\""
    ),
    // espeak-ng with no device: it says so, and ends with status 0.
    (
      "echo 'error: No such file or directory' >&2\nexit 0",
      "cannot play sound here: it says \"error: No such file or directory\""
    ),
    ("exit 3", "cannot play sound here: it ended with status 3"),
    ("kill -9 $$", "cannot play sound here: it was ended by signal 9"),
    // Played to its end, or still playing when the watch ends.
    ("exit 0", nil),
    ("sleep 3", nil),
  ]

  @Test(arguments: cases)
  func aPlayerThatFailsIsToldInItsOwnWords(body: String, told: String?) throws {
    let player = try program(body)
    defer { unlink(player) }
    let started = Date()
    let failure = SpeechSystem.live.start(player, ["/dev/null"], 1)
    let name = player.split(separator: "/").last.map(String.init) ?? player
    #expect(failure?.description == told.map { "\(name) \($0)" })
    #expect(failure.map(\.cannotPlay) ?? true)
    // Never held longer than the watch, even by a player that plays on.
    #expect(Date().timeIntervalSince(started) < 2)
  }

  /// A player that cannot be started at all.
  @Test func aPlayerThatCannotRunSaysSo() {
    let failure = SpeechSystem.live.start("/nonexistent/player", [], 1)
    #expect(failure?.description.hasPrefix("cannot run /nonexistent/player") == true)
  }

  /// The silence `checkPlayback` plays is a WAV file players take: 50 ms at 16 kHz, 16-bit mono.
  @Test func theSilenceTriedIsAWAVFile() throws {
    let wav = Speaker.silence
    #expect(wav.count == 44 + 1600)
    #expect(Array(wav[0..<4]) == Array("RIFF".utf8) && Array(wav[8..<16]) == Array("WAVEfmt ".utf8))
    #expect(wav[24] == 0x80 && wav[25] == 0x3E)  // 16,000 Hz
    #expect(wav[44...].allSatisfy { $0 == 0 })
  }
}
