import BikiSync
import Dispatch

/// Says utterances with the engine chosen, Open JTalk's audio made ahead when told what comes
/// next, so it starts as soon as its question is shown.
package final class Speaker: Sendable {
  package let engine: SpeechEngine
  package let style: SpeechStyle
  private let maker: Result<OpenJTalkMaker, SpeechFailure>?
  private let system: SpeechSystem
  /// Makes one utterance at a time, in the order asked: a question spoken waits only for its own
  /// audio, already made or in the making.
  private let queue = DispatchQueue(label: "biki.speech")
  private let made = Locked<[Utterance: Result<String, SpeechFailure>]>([:])

  /// `directory` keeps Open JTalk's audio.
  package init(engine: SpeechEngine, directory: String, system: SpeechSystem, style: SpeechStyle = .normal) {
    self.engine = engine
    self.system = system
    self.style = style
    if case .openJTalk(let openJTalk, _) = engine {
      do throws(SpeechFailure) {
        var made = try OpenJTalkMaker(engine: openJTalk, directory: directory, system: system)
        made.style = style
        maker = .success(made)
      } catch {
        maker = .failure(error)
      }
    } else {
      maker = nil
    }
  }

  /// Starts making `utterance`'s audio, if the engine makes any, without waiting for it.
  package func prepare(_ utterance: Utterance) {
    guard case .success(let maker)? = maker else { return }
    queue.async { [made] in
      guard made.withLock({ $0[utterance] }) == nil else { return }
      let result = maker.make(utterance)
      made.withLock { Self.keep(result, for: utterance, in: &$0) }
    }
  }

  /// At most this many results are kept in memory (a server may run for days); the files stay.
  static let resultsKept = 256

  private static func keep(
    _ result: Result<String, SpeechFailure>, for utterance: Utterance,
    in made: inout [Utterance: Result<String, SpeechFailure>]
  ) {
    if made.count >= resultsKept { made.removeAll(keepingCapacity: true) }
    made[utterance] = result
  }

  /// The audio file of `utterance` (Open JTalk only), made now unless made ahead.
  package func audio(_ utterance: Utterance) -> Result<String, SpeechFailure> {
    switch maker {
    case nil: return .failure(SpeechFailure("only Open JTalk makes audio files; \(engine.summary)"))
    case .failure(let failure)?: return .failure(failure)
    case .success(let maker)?:
      return queue.sync { [made] in
        if let done = made.withLock({ $0[utterance] }) { return done }
        let result = maker.make(utterance)
        made.withLock { Self.keep(result, for: utterance, in: &$0) }
        return result
      }
    }
  }

  /// Starts saying `utterance`; nil, or why it cannot be said.
  package func speak(_ utterance: Utterance) -> SpeechFailure? {
    switch engine {
    case .none(let why): return SpeechFailure(SpeechEngine.none(why: why).summary)
    case .espeak(let program, _):
      return system.start(program, ["-v", "ja"] + style.espeakArguments + [utterance.reading])
    case .openJTalk(_, let player):
      switch audio(utterance) {
      case .failure(let failure): return failure
      case .success(let file):
        let quiet = player.hasSuffix("/aplay") ? ["-q"] : []
        return system.start(player, quiet + [file])
      }
    }
  }
}
