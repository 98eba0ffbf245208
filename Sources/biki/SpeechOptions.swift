import BikiCLI
import BikiSpeech

/// `--rate` and `--pitch`, as `biki say` and `biki quiz --speak` take them.
enum SpeechOptions {
  static let options: [ParsedArguments.Option] = [.value("--rate", "<rate>"), .value("--pitch", "<semitones>")]

  static let help = """
      --rate <rate>           How fast to speak, from 0.5 (twice as slow) to 2 (twice as fast);
                              default BIKI_SPEECH_RATE, else 1, the voice's own speed.
      --pitch <semitones>     How much higher (or, below 0, lower) to speak, from -12 to 12
                              semitones; default BIKI_SPEECH_PITCH, else 0.
    """

  /// The style asked for, else the one kept in `environment`; a message saying what is wrong
  /// when a value is out of range.
  static func style(_ parsed: ParsedArguments, environment: [String: String]) -> Result<SpeechStyle, Failure> {
    let kept: KeptStyle
    switch KeptStyle.read(environment) {
    case .success(let read): kept = read
    case .failure(let problem): return .failure(Failure(message: problem.message))
    }
    let rate = parsed.value("--rate").map { Double($0) ?? .nan }
    let pitch = parsed.value("--pitch").map { Double($0) ?? .nan }
    guard rate.map(SpeechStyle.rates.contains) ?? true else {
      return .failure(Failure(message: "'--rate' takes a number from 0.5 to 2, not '\(parsed.value("--rate") ?? "")'."))
    }
    guard let style = kept.style(rate: rate, pitch: pitch) else {
      return .failure(
        Failure(
          message: "'--pitch' takes a number of semitones from -12 to 12, not '\(parsed.value("--pitch") ?? "")'."))
    }
    return .success(style)
  }

  struct Failure: Error {
    var message: String
  }
}
