import BikiCLI
import BikiSpeech

/// `--rate` and `--pitch`, as `biki say` and `biki quiz --speak` take them.
enum SpeechOptions {
  static let options: [ParsedArguments.Option] = [.value("--rate", "<rate>"), .value("--pitch", "<semitones>")]

  static let help = """
      --rate <rate>           How fast to speak, from 0.5 (twice as slow) to 2 (twice as fast);
                              default 1, the voice's own speed.
      --pitch <semitones>     How much higher (or, below 0, lower) to speak, from -12 to 12
                              semitones; default 0.
    """

  /// The style asked for; a message saying what is wrong when a value is out of range.
  static func style(_ parsed: ParsedArguments) -> Result<SpeechStyle, Failure> {
    let rate = parsed.value("--rate").map { Double($0) ?? .nan } ?? 1
    let pitch = parsed.value("--pitch").map { Double($0) ?? .nan } ?? 0
    guard SpeechStyle.rates.contains(rate) else {
      return .failure(Failure(message: "'--rate' takes a number from 0.5 to 2, not '\(parsed.value("--rate") ?? "")'."))
    }
    guard let style = SpeechStyle(rate: rate, pitch: pitch) else {
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
