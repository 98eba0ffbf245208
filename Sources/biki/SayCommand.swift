import BikiCLI
import BikiSpeech
import Foundation

/// `biki say <reading> [<display>]`: says a reading as `biki quiz --speak` does, for editors
/// and scripts; `--engine` says which engine that is, `--wav` writes Open JTalk's audio.
enum SayCommand {
  static let usage =
    "biki say <reading> [<display>] [--voice <name>] [--rate <rate>] [--pitch <semitones>] [--wav <file>] | biki say --engine | biki say --voices"

  static let help = """
    OVERVIEW: Say a reading aloud, as 'biki quiz --speak' says questions.

    Speaks with Open JTalk when it, its dictionary, a voice and an audio player are installed
    (sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic alsa-utils, and
    python3 -m pip install pyopenjtalk-plus for the mei voice), else with espeak-ng. Open JTalk
    is given the display first, as Japanese is accented, and its audio is used only when it
    says the reading's sounds; else the reading itself.

    USAGE: \(usage)

    ARGUMENTS:
      <reading>               The reading in kana: はっぽん.
      <display>               The text it reads (default: the reading): 八本.

    OPTIONS:
      --voice <name>          The voice to speak with: a name 'biki say --voices' lists, or an
                              Open JTalk .htsvoice file (or BIKI_VOICE).
    \(SpeechOptions.help)
      --wav <file>            Write Open JTalk's audio to this file instead of playing it.
      --engine                Say which engine speaks, trying a moment of silence on the
                              sound device, and exit: 0 when it can be heard, 69 when not.
      --voices                List the voices installed, where each came from, and how what
                              each says is checked; exit 0, or 69 when there are none.
      -h, --help              Show help information.
    """

  static func run(arguments: [String], environment: BikiEnvironment) -> CommandOutcome {
    let parsed: ParsedArguments
    switch CommandOutcome.parse(
      arguments,
      options: [.value("--voice", "<name>"), .value("--wav", "<file>"), .flag("--engine"), .flag("--voices")]
        + SpeechOptions.options,
      help: help,
      usage: usage, helpCommand: "biki say --help")
    {
    case .success(let found): parsed = found
    case .failure(let failure): return failure.outcome
    }
    // The arguments are checked before an engine is chosen (which may ask python3 for a voice).
    if parsed.isSet("--voices") {
      guard parsed.positionals.isEmpty, parsed.value("--voice") == nil else {
        return usageError("'--voices' takes no reading and no voice.")
      }
      let list = environment.voices
      return CommandOutcome(
        standardOutput: list.lines.map { TerminalText.safe($0) },
        status: list.voices.isEmpty ? ExitStatus.unavailable : ExitStatus.success)
    }
    if parsed.isSet("--engine") {
      guard parsed.positionals.isEmpty else { return usageError("'--engine' takes no reading.") }
      let speaker = environment.speaker(voice: parsed.value("--voice"))
      let engine = speaker.engine
      guard let name = engine.name else {
        return CommandOutcome(standardOutput: [TerminalText.safe(engine.summary)], status: ExitStatus.unavailable)
      }
      // A chosen engine with no sound to play into is as good as none: the editors then show
      // a listening question's reading, and say this line once.
      if let failure = speaker.checkPlayback() {
        // espeak-ng speaks only where Open JTalk could not: why, since that may be the fix.
        let instead = if case .espeak(_, let why) = engine { " (instead of Open JTalk: \(why))" } else { "" }
        return CommandOutcome(
          standardOutput: [TerminalText.safe("\(name) would speak\(instead), but \(failure)")],
          status: ExitStatus.unavailable)
      }
      return CommandOutcome(standardOutput: [TerminalText.safe(engine.summary)])
    }
    guard (1...2).contains(parsed.positionals.count) else {
      return usageError(
        parsed.positionals.isEmpty ? "Missing expected argument '<reading>'." : "Give one reading at a time.")
    }
    let reading = parsed.positionals[0]
    guard KanaPhonemes.of(reading) != nil else {
      return usageError("'\(reading)' is not a reading in kana; give it as はっぽん, and what it reads (八本) after it.")
    }
    let style: SpeechStyle
    switch SpeechOptions.style(parsed, environment: environment.variables) {
    case .success(let chosen): style = chosen
    case .failure(let failure): return usageError(failure.message)
    }
    let speaker = environment.speaker(voice: parsed.value("--voice"), style: style)
    let utterance = Utterance(
      reading: reading, display: parsed.positionals.count == 2 ? parsed.positionals[1] : reading)
    if let file = parsed.value("--wav") {
      switch speaker.audio(utterance) {
      case .failure(let failure):
        return CommandOutcome(standardError: [TerminalText.safe("Error: \(failure)")], status: ExitStatus.unavailable)
      case .success(let made):
        do {
          try Data(contentsOf: URL(fileURLWithPath: made)).write(to: URL(fileURLWithPath: file), options: .atomic)
          return CommandOutcome()
        } catch {
          return CommandOutcome(
            standardError: [TerminalText.safe("Error: cannot write \(file): \(error.localizedDescription)")],
            status: ExitStatus.cannotCreate)
        }
      }
    }
    if let failure = speaker.speak(utterance) {
      return CommandOutcome(standardError: [TerminalText.safe("Error: \(failure)")], status: ExitStatus.unavailable)
    }
    return CommandOutcome()
  }

  private static func usageError(_ message: String) -> CommandOutcome {
    CommandOutcome.usageError(message, usage: usage, helpCommand: "biki say --help")
  }
}
