import BikiJSON
import BikiProtocol

/// How a session's listening questions are spoken: `speech` in `biki/startSession`, as the
/// client's `biki say --voice --rate --pitch` will say them, so the audio the server makes ahead
/// is the audio the client plays.
package struct SpeechChoice: Sendable, Hashable {
  /// A voice name (`biki say --voices`) or an .htsvoice file; nil for the default voice.
  package var voice: String?
  /// 0.5 (twice as slow) to 2 (twice as fast); nil for the learner's kept rate
  /// (`BIKI_SPEECH_RATE`), else 1.
  package var rate: Double?
  /// Semitones, −12 to 12; nil for the learner's kept pitch (`BIKI_SPEECH_PITCH`), else 0.
  package var pitch: Double?

  package static let standard = SpeechChoice(voice: nil, rate: nil, pitch: nil)
  static let rates = 0.5...2.0
  static let pitches = -12.0...12.0

  package init(voice: String?, rate: Double?, pitch: Double?) {
    self.voice = voice
    self.rate = rate
    self.pitch = pitch
  }

  /// The `speech` member of `params`, checked: each field problem names the field.
  static func read(_ params: Params, _ key: String) throws(ResponseError) -> SpeechChoice? {
    guard let speech = try params.optionalObject(key) else { return nil }
    let voice = try speech.optionalString("voice")
    if let voice {
      guard !voice.isEmpty, voice.utf8.count <= 4096,
        !voice.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else {
        throw .invalidParams("\"\(key).voice\" must be a voice name or an .htsvoice file (at most 4096 bytes)")
      }
    }
    let rate = try speech.optionalNumber("rate")
    if let rate, !rates.contains(rate) {
      throw .invalidParams("\"\(key).rate\" must be a number from 0.5 to 2, not \(rate)")
    }
    let pitch = try speech.optionalNumber("pitch")
    if let pitch, !pitches.contains(pitch) {
      throw .invalidParams("\"\(key).pitch\" must be a number of semitones from -12 to 12, not \(pitch)")
    }
    return SpeechChoice(voice: voice, rate: rate, pitch: pitch)
  }

  var json: JSON {
    var members: [(String, JSON)] = []
    if let voice { members.append(("voice", .string(voice))) }
    if let rate { members.append(("rate", .double(rate))) }
    if let pitch { members.append(("pitch", .double(pitch))) }
    return .object(pairs: members)
  }
}
