import Foundation

/// Open JTalk as Biki runs it: the program, its dictionary and a voice.
package struct OpenJTalk: Sendable, Equatable {
  var program: String
  var dictionary: String
  package var voice: String

  init(program: String, dictionary: String, voice: String) {
    self.program = program
    self.dictionary = dictionary
    self.voice = voice
  }

  /// The voice's name: mei_normal for …/mei_normal.htsvoice.
  package var voiceName: String {
    let file = voice.split(separator: "/").last.map(String.init) ?? voice
    return file.hasSuffix(".htsvoice") ? String(file.dropLast(".htsvoice".count)) : file
  }

  /// The phonemes a trace (`-ot`) says were spoken, pauses left out: `h a cl p o N` for はっぽん.
  /// Each label of its "[Output label]" part names the phoneme between `-` and `+`.
  static func phonemes(inTrace text: String) -> [String] {
    var phonemes: [String] = []
    var inLabels = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("[Output label]") {
        inLabels = true
        continue
      }
      guard inLabels else { continue }
      if line.isEmpty || line.hasPrefix("[") { break }
      guard let minus = line.firstIndex(of: "-"), let plus = line[minus...].firstIndex(of: "+") else { continue }
      let phoneme = String(line[line.index(after: minus)..<plus])
      if phoneme != "sil" && phoneme != "pau" { phonemes.append(phoneme) }
    }
    return phonemes
  }
}

/// Which engine speaks, and what to tell the learner about it.
package enum SpeechEngine: Sendable, Equatable {
  /// Open JTalk, its WAV played by `player`.
  case openJTalk(OpenJTalk, player: String)
  /// Kokoro-82M, asked for by one of its voices' names, its WAV played by `player`.
  case kokoro(Kokoro, player: String)
  /// espeak-ng's Japanese voice, because Open JTalk cannot be used (`why`).
  case espeak(program: String, why: String)
  /// Nothing can speak.
  case none(why: String)

  static let installOpenJTalk =
    "sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic alsa-utils && python3 -m pip install pyopenjtalk-plus"

  /// The engine's name, nil when there is none.
  package var name: String? {
    switch self {
    case .openJTalk: "Open JTalk"
    case .kokoro: "Kokoro-82M"
    case .espeak: "espeak-ng"
    case .none: nil
    }
  }

  /// One line saying what speaks: printed by `biki quiz --speak` and `biki say --engine`.
  package var summary: String {
    switch self {
    case .openJTalk(let engine, _):
      "Speaking with Open JTalk, voice \(engine.voiceName) (\(engine.voice))."
    case .kokoro(let engine, _):
      "Speaking with Kokoro-82M, voice \(engine.voice) (\(engine.package)), given Biki's reading as its sounds."
    case .espeak(_, let why):
      "Speaking with espeak-ng, which has no Japanese pitch accent: \(why). For Open JTalk: \(Self.installOpenJTalk)"
    case .none(let why):
      "Nothing can speak: \(why). Install Open JTalk with: \(Self.installOpenJTalk) (or espeak-ng: sudo apt-get install espeak-ng)"
    }
  }

  /// The places Debian's open-jtalk-mecab-naist-jdic and a local build keep the dictionary.
  static let dictionaries = ["/var/lib/mecab/dic/open-jtalk/naist-jdic", "/usr/local/share/open-jtalk/dic"]

  /// Chooses the engine from the environment: Open JTalk when the program, its dictionary, a
  /// voice and a player are found, else espeak-ng, else none. The voice is `voice` (a
  /// setting), else `BIKI_VOICE`, else the one pyopenjtalk installed (mei_normal).
  /// `BIKI_OPEN_JTALK` and `BIKI_OPEN_JTALK_DICTIONARY` name the program and dictionary
  /// elsewhere; `BIKI_ESPEAK_NG` espeak-ng's program (so a test, or a user, can rule out the one
  /// in /usr/bin); `BIKI_AUDIO_PLAYER` the player.
  /// `remembered` is the voice found last time (where only python3 knew of it: asking it
  /// takes a pyenv shim 0.4 s), used while it is still there.
  package static func choose(
    environment: [String: String], voice setting: String?, remembered: String? = nil, system: SpeechSystem
  ) -> SpeechEngine {
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    let asked = [setting, environment["BIKI_VOICE"]].lazy.compactMap { $0 }.first { !$0.isEmpty }
    let chosen =
      asked.map { Kokoro.voices.contains($0) } == true
      ? kokoro(voice: asked ?? "", environment: environment, path: path, system: system)
      : openJTalk(environment: environment, voice: setting, remembered: remembered, path: path, system: system)
    let why: String
    switch chosen {
    case .success(let engine): return engine
    case .failure(let failure): why = failure.description
    }
    if let named = environment["BIKI_ESPEAK_NG"], !named.isEmpty {
      guard let espeak = system.find(named, path: path) else {
        return .none(why: "\(why), and BIKI_ESPEAK_NG names \(named), which is not a program")
      }
      return .espeak(program: espeak, why: why)
    }
    if let espeak = system.find("espeak-ng", path: path + ":/usr/bin:/usr/local/bin") {
      return .espeak(program: espeak, why: why)
    }
    return .none(why: "\(why), and espeak-ng is not installed")
  }

  private static func kokoro(voice: String, environment: [String: String], path: String, system: SpeechSystem)
    -> Result<SpeechEngine, SpeechFailure>
  {
    let found: Kokoro
    switch Kokoro.find(voice: voice, path: path, system: system) {
    case .success(let kokoro): found = kokoro
    case .failure(let failure): return .failure(failure)
    }
    return player(environment: environment, path: path, system: system, for: "Kokoro").map {
      .kokoro(found, player: $0)
    }
  }

  /// The player named by BIKI_AUDIO_PLAYER, else PipeWire's, PulseAudio's or ALSA's; or why
  /// there is none to use, naming the variable when it names no program.
  static func player(environment: [String: String], path: String, system: SpeechSystem, for engine: String)
    -> Result<String, SpeechFailure>
  {
    if let named = environment["BIKI_AUDIO_PLAYER"], !named.isEmpty {
      return system.find(named, path: path + ":/usr/bin").map { .success($0) }
        ?? .failure(SpeechFailure("BIKI_AUDIO_PLAYER names \(named), which is not a program"))
    }
    return ["pw-play", "paplay", "aplay"].lazy.compactMap { system.find($0, path: path + ":/usr/bin") }.first.map {
      .success($0)
    }
      ?? .failure(
        SpeechFailure("there is no program to play \(engine)'s audio (sudo apt-get install alsa-utils)"))
  }

  private static func openJTalk(
    environment: [String: String], voice setting: String?, remembered: String?, path: String, system: SpeechSystem
  ) -> Result<SpeechEngine, SpeechFailure> {
    let named = environment["BIKI_OPEN_JTALK"].flatMap { $0.isEmpty ? nil : $0 }
    guard let program = system.find(named ?? "open_jtalk", path: path + ":/usr/bin") else {
      return .failure(
        SpeechFailure(
          named.map { "BIKI_OPEN_JTALK names \($0), which is not a program" } ?? "Open JTalk is not installed"))
    }
    let dictionaryNamed = environment["BIKI_OPEN_JTALK_DICTIONARY"].flatMap { $0.isEmpty ? nil : $0 }
    guard
      let dictionary = (dictionaryNamed.map { [$0] } ?? dictionaries).first(where: { system.isFile($0 + "/sys.dic") })
    else {
      return .failure(
        SpeechFailure(
          "Open JTalk's dictionary is not at \(dictionaryNamed ?? dictionaries[0]) (sudo apt-get install open-jtalk-mecab-naist-jdic)"
        ))
    }
    let voice: String
    switch findVoice(setting: setting, environment: environment, remembered: remembered, path: path, system: system) {
    case .success(let found): voice = found
    case .failure(let failure): return .failure(failure)
    }
    return player(environment: environment, path: path, system: system, for: "Open JTalk").map {
      .openJTalk(OpenJTalk(program: program, dictionary: dictionary, voice: voice), player: $0)
    }
  }

  /// The voice the setting or BIKI_VOICE names (a file, or a name `biki say --voices` lists),
  /// else pyopenjtalk's mei: where pip puts packages for the user and the system, then wherever
  /// python3 finds it (a virtual environment, pyenv).
  static func findVoice(
    setting: String?, environment: [String: String], remembered: String?, path: String, system: SpeechSystem
  ) -> Result<String, SpeechFailure> {
    let voices = OpenJTalkVoices(environment: environment, path: path, system: system)
    for (name, value) in [("the voice setting", setting), ("BIKI_VOICE", environment["BIKI_VOICE"])] {
      guard let value, !value.isEmpty else { continue }
      guard value.contains("/") || value.hasSuffix(".htsvoice") else {
        if let found = voices.named(value) { return .success(found) }
        return .failure(
          SpeechFailure(
            "\(name) names the voice \(value), which is not installed (biki say --voices lists those that are)"))
      }
      guard value.hasSuffix(".htsvoice"), system.isFile(value) else {
        return .failure(SpeechFailure("\(name) names \(value), which is not an .htsvoice file"))
      }
      return .success(value)
    }
    if let found = OpenJTalkVoices.preferred(voices.inStandardPlaces) { return .success(found) }
    if let remembered, remembered.hasSuffix(".htsvoice"), system.isFile(remembered) { return .success(remembered) }
    if let found = OpenJTalkVoices.preferred(voices.wherePythonFindsThem) { return .success(found) }
    return .failure(
      SpeechFailure(
        "Open JTalk has no voice (python3 -m pip install pyopenjtalk-plus, or set BIKI_VOICE to an .htsvoice)"))
  }
}
