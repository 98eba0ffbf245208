import BikiFiles
import Foundation

/// Makes the audio file of an utterance, kept in the speech directory.
protocol AudioMaker: Sendable {
  /// Where the audio of `utterance` is kept: the same path for the same voice, style and words.
  func path(of utterance: Utterance) -> String
  func make(_ utterance: Utterance, cancellation: Cancellation?) -> Result<String, SpeechFailure>
}

/// What to say: the reading Biki teaches and the text shown with it.
package struct Utterance: Sendable, Hashable {
  /// In kana: はっぽん.
  package var reading: String
  /// As shown, in kanji numerals where there are any: 八本.
  package var display: String

  package init(reading: String, display: String) {
    self.reading = reading
    self.display = display
  }
}

/// Makes Open JTalk's audio of an utterance, checked to say the reading Biki teaches: Open JTalk
/// reads text through its dictionary, which may read 十分 じゅうぶん or the particle は in
/// hiragana as わ. Each form is tried in turn (the display, whose words it accents as Japanese
/// is said, then the reading in hiragana, then in katakana), and the first whose phonemes are
/// the reading's is kept; when none is, nothing is made and the failure says what it said.
/// Made audio is kept in `directory`, named by a digest of the voice's bytes and the words, so
/// it is made once and a changed voice makes it afresh.
struct OpenJTalkMaker: AudioMaker {
  var engine: OpenJTalk
  var directory: String
  var system: SpeechSystem
  /// SHA-256 of the voice file, in hex.
  var voiceDigest: String
  var style = SpeechStyle.normal
  /// The most audio kept in `directory`, in bytes.
  var cacheLimit = SpeechCache.defaultLimit

  /// The longest Open JTalk may take for one utterance.
  static let timeout = 10.0

  init(engine: OpenJTalk, directory: String, system: SpeechSystem) throws(SpeechFailure) {
    self.engine = engine
    self.directory = directory
    self.system = system
    do {
      voiceDigest = SHA256.hex(try RegularFile.read(engine.voice, limit: 256 << 20))
    } catch {
      throw SpeechFailure("cannot read the voice \(engine.voice): \(error)")
    }
  }

  /// The forms tried, in order, without repeats. Open JTalk reads a line as an utterance, so
  /// line breaks and other control characters are left out of each.
  static func forms(of utterance: Utterance) -> [String] {
    var forms: [String] = []
    for text in [utterance.display, KanaPhonemes.hiragana(utterance.reading), KanaPhonemes.katakana(utterance.reading)]
    {
      var kept = String.UnicodeScalarView()
      kept.append(
        contentsOf: text.unicodeScalars.filter { scalar in
          scalar == " " || !(scalar.properties.generalCategory == .control || scalar.properties.isWhitespace)
        })
      let form = String(kept)
      guard !form.isEmpty, !forms.contains(form) else { continue }
      forms.append(form)
    }
    return forms
  }

  /// Where the audio of `utterance` is kept.
  func path(of utterance: Utterance) -> String {
    // The style is part of the name only when it is not the voice's own, so audio made before
    // styles keeps its name.
    let style = style == .normal ? [] : ["\(style.rate)", "\(style.pitch)"]
    let key = ([voiceDigest, engine.dictionary, utterance.reading, utterance.display] + style).joined(
      separator: "\u{0}")
    return directory + "/" + SHA256.hex(Array(key.utf8)) + ".wav"
  }

  /// The WAV file saying `utterance`, made now unless made before; stopped when `cancellation`
  /// is cancelled.
  func make(_ utterance: Utterance, cancellation: Cancellation?) -> Result<String, SpeechFailure> {
    let target = path(of: utterance)
    if let kept = SpeechCache.reuse(target) { return .success(kept) }
    guard let expected = KanaPhonemes.of(utterance.reading) else {
      return .failure(SpeechFailure("the reading \(utterance.reading) is not kana, so what is said cannot be checked"))
    }
    let unique = "\(getpid())-\(UUID().uuidString)"
    let wav = directory + "/." + unique + ".wav"
    let trace = directory + "/." + unique + ".trace"
    defer {
      unlink(wav)
      unlink(trace)
    }
    var said: [String] = []
    for form in Self.forms(of: utterance) {
      let arguments =
        ["-x", engine.dictionary, "-m", engine.voice, "-ow", wav, "-ot", trace] + style.openJTalkArguments
      switch system.run(engine.program, arguments, Array((form + "\n").utf8), Self.timeout, cancellation) {
      case .failure(let failure): return .failure(failure)
      case .success(let result) where result.status != 0:
        // The next form may be said: a display Open JTalk cannot read falls back to the reading.
        said.append("\(Self.excerpt(form)): failed (status \(result.status))")
        continue
      case .success: break
      }
      let text = (try? RegularFile.read(trace, limit: 16 << 20, links: .refuse)).map {
        String(decoding: $0, as: UTF8.self)
      }
      let phonemes = OpenJTalk.phonemes(inTrace: text ?? "")
      if Self.sameSounds(phonemes, expected) {
        guard rename(wav, target) == 0 else {
          return .failure(SpeechFailure("cannot keep \(target): \(String(cString: strerror(errno)))"))
        }
        SpeechCache(directory: directory, limit: cacheLimit).prune(now: system.now())
        return .success(target)
      }
      said.append("\(Self.excerpt(form)): \(Self.excerpt(phonemes.joined(separator: " ")))")
    }
    return .failure(
      SpeechFailure(
        "Open JTalk does not say \(Self.excerpt(utterance.reading)) (\(Self.excerpt(expected.joined(separator: " ")))) from any form: \(said.joined(separator: "; "))"
      ))
  }

  /// At most 40 characters of `text`, so a failure on a long reading stays one line.
  static func excerpt(_ text: String) -> String {
    text.count <= 40 ? text : text.prefix(39) + "…"
  }

  /// Whether two phoneme sequences are the same sounds: a devoiced vowel (`U`) is its vowel, う
  /// after an o is the long o it is said as (とう, Open JTalk's `t o o`), and い after an e the
  /// long e (the letter K, ケイ or ケー, `k e i` or `k e e`).
  static func sameSounds(_ said: [String], _ expected: [String]) -> Bool {
    func canonical(_ phonemes: [String]) -> [String] {
      var result: [String] = []
      for phoneme in phonemes.map({ $0.lowercased() }) {
        switch (phoneme, result.last) {
        case ("u", "o"): result.append("o")
        case ("i", "e"): result.append("e")
        default: result.append(phoneme)
        }
      }
      return result
    }
    return canonical(said) == canonical(expected)
  }

  /// A kept file is used only when it is a regular file (not a link) that starts as a WAV does.
  static func isKept(_ path: String) -> Bool {
    guard let bytes = try? RegularFile.read(path, limit: 64 << 20, links: .refuse) else { return false }
    return WAV(bytes) != nil
  }
}

/// What tests and the bench check of a WAV file: its length and loudness (16-bit PCM).
package struct WAV: Sendable {
  var sampleRate: Int
  var channels: Int
  var samples: [Int16]

  /// nil unless `bytes` are a RIFF WAVE file of 16-bit PCM.
  package init?(_ bytes: [UInt8]) {
    func number(_ at: Int, _ count: Int) -> Int? {
      guard at >= 0, at + count <= bytes.count else { return nil }
      return (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }
    guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
      return nil
    }
    var offset = 12
    var format: (rate: Int, channels: Int, bits: Int)?
    while let size = number(offset + 4, 4), offset + 8 <= bytes.count {
      let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let body = offset + 8
      guard body + size <= bytes.count else { return nil }
      if id == "fmt ", let kind = number(body, 2), let channels = number(body + 2, 2),
        let rate = number(body + 4, 4), let bits = number(body + 14, 2)
      {
        guard kind == 1 else { return nil }
        format = (rate, channels, bits)
      } else if id == "data", let format, format.bits == 16, format.channels > 0, format.rate > 0 {
        sampleRate = format.rate
        channels = format.channels
        samples = stride(from: body, to: body + size - 1, by: 2).map {
          Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
        return
      }
      offset = body + size + (size & 1)
    }
    return nil
  }

  package var seconds: Double { Double(samples.count) / Double(channels * sampleRate) }

  /// The median fundamental frequency of the loud 40 ms frames (every 20 ms), found by YIN
  /// (de Cheveigné and Kawahara, 2002) between 70 and 900 Hz; nil when no frame is loud enough.
  package var fundamental: Double? {
    let frame = sampleRate * 40 / 1000
    let (shortest, longest) = (sampleRate / 900, sampleRate / 70)
    guard frame > 0, shortest > 0, channels == 1 else { return nil }
    var found: [Double] = []
    var start = 0
    while start + frame + longest < samples.count {
      defer { start += frame / 2 }
      let window = samples[start..<(start + frame + longest)].map(Double.init)
      guard window[0..<frame].reduce(0, { $0 + $1 * $1 }) / Double(frame) > 1e5 else { continue }
      // The difference at each lag, normalised by its running mean; the first dip under 0.15,
      // followed to its bottom, is the period.
      var running = 0.0
      var normalised = [Double](repeating: 1, count: longest + 1)
      for lag in 1...longest {
        var difference = 0.0
        for index in 0..<frame {
          let gap = window[index] - window[index + lag]
          difference += gap * gap
        }
        running += difference
        normalised[lag] = running == 0 ? 1 : difference * Double(lag) / running
      }
      guard var lag = (shortest..<longest).first(where: { normalised[$0] < 0.15 }) else { continue }
      while lag + 1 < longest, normalised[lag + 1] < normalised[lag] { lag += 1 }
      found.append(Double(sampleRate) / Double(lag))
    }
    return found.isEmpty ? nil : found.sorted()[found.count / 2]
  }

  /// Root mean square of the samples, in decibels below full scale (0 is the loudest).
  package var loudness: Double {
    guard !samples.isEmpty else { return -.infinity }
    let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
    return 20 * log10((sum / Double(samples.count)).squareRoot() / 32768)
  }
}
