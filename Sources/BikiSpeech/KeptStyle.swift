/// The rate and pitch a learner keeps in the environment (`BIKI_SPEECH_RATE`,
/// `BIKI_SPEECH_PITCH`, beside `BIKI_VOICE`), for every command and client that leaves them
/// unset: a shell profile is where a terminal learner keeps such a choice, and `biki quiz`,
/// `biki say` and `biki serve` then speak alike.
package struct KeptStyle: Sendable, Hashable {
  package static let rateVariable = "BIKI_SPEECH_RATE"
  package static let pitchVariable = "BIKI_SPEECH_PITCH"

  /// Each nil when its variable is unset or empty.
  package var rate: Double?
  package var pitch: Double?

  package static let none = KeptStyle(rate: nil, pitch: nil)

  package init(rate: Double?, pitch: Double?) {
    self.rate = rate
    self.pitch = pitch
  }

  /// Reads both variables; a message naming the variable when one is not a number in range.
  package static func read(_ environment: [String: String]) -> Result<KeptStyle, Problem> {
    var kept = KeptStyle.none
    if let text = environment[rateVariable], !text.isEmpty {
      guard let rate = Double(text), SpeechStyle.rates.contains(rate) else {
        return .failure(Problem(message: "\(rateVariable) must be a number from 0.5 to 2, not '\(text.prefix(40))'."))
      }
      kept.rate = rate
    }
    if let text = environment[pitchVariable], !text.isEmpty {
      guard let pitch = Double(text), SpeechStyle.pitches.contains(pitch) else {
        return .failure(
          Problem(message: "\(pitchVariable) must be a number of semitones from -12 to 12, not '\(text.prefix(40))'."))
      }
      kept.pitch = pitch
    }
    return .success(kept)
  }

  /// The style to speak with: what was asked, else what is kept, else the voice's own.
  package func style(rate asked: Double?, pitch askedPitch: Double?) -> SpeechStyle? {
    SpeechStyle(rate: asked ?? rate ?? 1, pitch: askedPitch ?? pitch ?? 0)
  }

  package struct Problem: Error, Equatable {
    package var message: String
  }
}
