import BikiFiles

/// Says utterances with the engine chosen, its audio made ahead when told what comes next, so it
/// starts as soon as its question is shown.
package final class Speaker: Sendable {
  package let engine: SpeechEngine
  package let style: SpeechStyle
  private let maker: Result<any AudioMaker, SpeechFailure>?
  private let system: SpeechSystem
  /// Where audio is kept; the silence `checkPlayback` plays is written there.
  private let directory: String
  /// Where audio made ahead waits, bounded; a server shares one among the speakers of its
  /// sessions, so their work together stays in bounds.
  private let ahead: AudioAhead

  /// `directory` keeps the audio made, at most `cacheLimit` bytes of it.
  package init(
    engine: SpeechEngine, directory: String, system: SpeechSystem, style: SpeechStyle = .normal,
    ahead: AudioAhead = AudioAhead(), cacheLimit: Int = SpeechCache.defaultLimit
  ) {
    self.engine = engine
    self.directory = directory
    self.system = system
    self.style = style
    self.ahead = ahead
    switch engine {
    case .openJTalk(let openJTalk, _):
      do throws(SpeechFailure) {
        var made = try OpenJTalkMaker(engine: openJTalk, directory: directory, system: system)
        made.style = style
        made.cacheLimit = cacheLimit
        maker = .success(made)
      } catch {
        maker = .failure(error)
      }
    case .kokoro(let kokoro, _):
      maker = .success(
        KokoroMaker(engine: kokoro, directory: directory, system: system, style: style, cacheLimit: cacheLimit))
    case .espeak, .none:
      maker = nil
    }
  }

  /// Starts making `utterance`'s audio for `owner` (a session), if the engine makes any,
  /// without waiting for it.
  package func prepare(_ utterance: Utterance, for owner: String = "") {
    guard case .success(let maker)? = maker else { return }
    ahead.add(owner: owner, key: maker.path(of: utterance)) { cancellation in
      maker.make(utterance, cancellation: cancellation)
    }
  }

  /// Stops making audio ahead, and any program making it; for when the quiz or server ends.
  package func stop() {
    ahead.stop()
  }

  /// The audio file of `utterance` (engines that make files only), made now unless made ahead.
  package func audio(_ utterance: Utterance) -> Result<String, SpeechFailure> {
    switch maker {
    case nil: return .failure(SpeechFailure("only Open JTalk and Kokoro make audio files; \(engine.summary)"))
    case .failure(let failure)?: return .failure(failure)
    case .success(let maker)?:
      let key = maker.path(of: utterance)
      if let done = ahead.take(key) { return done }
      let result = maker.make(utterance, cancellation: nil)
      ahead.remember(result, for: key)
      return result
    }
  }

  /// How long a player is watched after it starts: long enough for one with no sound device
  /// to give up (aplay takes a few milliseconds), short enough not to hold up the question.
  static let playWatch = 0.3

  /// Starts saying `utterance`; nil, or why it cannot be said or heard.
  package func speak(_ utterance: Utterance) -> SpeechFailure? {
    switch engine {
    case .none(let why): return SpeechFailure(SpeechEngine.none(why: why).summary)
    case .espeak(let program, _):
      return system.start(program, ["-v", "ja"] + style.espeakArguments + [utterance.reading], Self.playWatch)
        .map(advised)
    case .openJTalk(_, let player), .kokoro(_, let player):
      switch audio(utterance) {
      case .failure(let failure): return failure
      case .success(let file): return play(file, with: player, watch: Self.playWatch)
      }
    }
  }

  /// Whether sound can be heard here: a moment of silence played as questions are, to its end.
  /// Nil when it played, else why not and what to do instead; for `biki say --engine` (which the
  /// editors and `:checkhealth` ask) and the start of `biki quiz --speak`.
  package func checkPlayback() -> SpeechFailure? {
    switch engine {
    case .none(let why): return SpeechFailure(SpeechEngine.none(why: why).summary)
    case .espeak(let program, _): return system.start(program, ["-v", "ja", " "], 5).map(advised)
    case .openJTalk(_, let player), .kokoro(_, let player):
      let file = directory + "/silence.wav"
      do {
        try WholeFile.replace(file, with: Self.silence, mode: 0o600)
      } catch {
        return SpeechFailure("cannot try the sound: \(error)")
      }
      return play(file, with: player, watch: 5)
    }
  }

  private func play(_ file: String, with player: String, watch: Double) -> SpeechFailure? {
    let quiet = player.hasSuffix("/aplay") ? ["-q"] : []
    return system.start(player, quiet + [file], watch).map(advised)
  }

  /// A failure to play, with what the learner can do about it: espeak-ng plays on this
  /// machine's own sound device only, while a WAV file can be played by any program or
  /// written out.
  private func advised(_ failure: SpeechFailure) -> SpeechFailure {
    if case .espeak = engine {
      return SpeechFailure(
        "\(failure); espeak-ng plays on this machine's sound device only (Open JTalk's audio can be played by BIKI_AUDIO_PLAYER or written to a file)",
        cannotPlay: failure.cannotPlay)
    }
    return SpeechFailure(
      "\(failure); set BIKI_AUDIO_PLAYER to a program that plays a WAV file where sound works, or write the audio to a file with: biki say <reading> --wav <file>",
      cannotPlay: failure.cannotPlay)
  }

  /// 50 ms of silence as a WAV file: 16-bit mono at 16 kHz.
  static let silence: [UInt8] = {
    let samples = 800
    func little(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    let data = samples * 2
    return Array("RIFF".utf8) + little(36 + data, 4) + Array("WAVEfmt ".utf8) + little(16, 4) + little(1, 2)
      + little(1, 2) + little(16_000, 4) + little(32_000, 4) + little(2, 2) + little(16, 2) + Array("data".utf8)
      + little(data, 4) + [UInt8](repeating: 0, count: data)
  }()
}
