/// How fast and how high Biki speaks: numbers are hardest to catch by ear, and a learner may
/// want them slower, as Count Biki's rate slider let them.
package struct SpeechStyle: Sendable, Hashable {
  /// 1 is the voice's own speed; 0.5 takes twice as long, 2 half as long.
  package var rate: Double
  /// Semitones above (or below) the voice's own pitch.
  package var pitch: Double

  package static let rates = 0.5...2.0
  package static let pitches = -12.0...12.0
  package static let normal = SpeechStyle(unchecked: 1, 0)

  /// Nil unless both are in range (and numbers).
  package init?(rate: Double, pitch: Double) {
    guard Self.rates.contains(rate), Self.pitches.contains(pitch) else { return nil }
    self.rate = rate
    self.pitch = pitch
  }

  private init(unchecked rate: Double, _ pitch: Double) {
    self.rate = rate
    self.pitch = pitch
  }

  /// Open JTalk's options for it: `-r` the speed, `-fm` the pitch in semitones.
  var openJTalkArguments: [String] {
    self == .normal ? [] : ["-r", String(rate), "-fm", String(pitch)]
  }

  /// espeak-ng's: `-s` words a minute (175 its own), `-p` its pitch, 0–99 (50 its own), about
  /// four a semitone.
  var espeakArguments: [String] {
    guard self != .normal else { return [] }
    let pitchLevel = Int(min(max(50 + pitch * 4, 0), 99).rounded())
    return ["-s", String(Int((175 * rate).rounded())), "-p", String(pitchLevel)]
  }
}
