/// Says utterances with the engine chosen, its audio made ahead when told what comes next, so it
/// starts as soon as its question is shown.
package final class Speaker: Sendable {
  package let engine: SpeechEngine
  package let style: SpeechStyle
  private let maker: Result<any AudioMaker, SpeechFailure>?
  private let system: SpeechSystem
  /// Where audio made ahead waits, bounded; a server shares one among the speakers of its
  /// sessions, so their work together stays in bounds.
  private let ahead: AudioAhead

  /// `directory` keeps the audio made, at most `cacheLimit` bytes of it.
  package init(
    engine: SpeechEngine, directory: String, system: SpeechSystem, style: SpeechStyle = .normal,
    ahead: AudioAhead = AudioAhead(), cacheLimit: Int = SpeechCache.defaultLimit
  ) {
    self.engine = engine
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

  /// Starts saying `utterance`; nil, or why it cannot be said.
  package func speak(_ utterance: Utterance) -> SpeechFailure? {
    switch engine {
    case .none(let why): return SpeechFailure(SpeechEngine.none(why: why).summary)
    case .espeak(let program, _):
      return system.start(program, ["-v", "ja"] + style.espeakArguments + [utterance.reading])
    case .openJTalk(_, let player), .kokoro(_, let player):
      switch audio(utterance) {
      case .failure(let failure): return failure
      case .success(let file):
        let quiet = player.hasSuffix("/aplay") ? ["-q"] : []
        return system.start(player, quiet + [file])
      }
    }
  }
}
