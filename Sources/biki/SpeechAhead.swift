import BikiServer
import BikiSpeech
import BikiSync
import Dispatch

/// Listening audio made ahead for `biki serve`'s sessions. A speaker is chosen for each voice
/// and style on first use, on a queue of its own, so neither choosing (which may ask python3
/// where a voice is) nor making ever holds up the message loop. One `AudioAhead` serves them
/// all: each session has at most its current question and the next waiting, the server at most
/// 16, and a session's work is dropped (its Open JTalk stopped) when it ends.
final class SpeechAhead: Sendable {
  /// Keeps the order of starts and ends: a session's end follows its last start here.
  private let queue = DispatchQueue(label: "biki.serve.speech")
  private let speakers = Locked<[SpeechChoice: Speaker]>([:])
  private let ahead = AudioAhead()
  private let environment: BikiEnvironment
  /// The rate and pitch for a session that leaves them unset, as `biki say` reads them.
  private let kept: KeptStyle

  /// At most this many voices and styles have a speaker at once; few learners change them.
  static let speakersKept = 8

  /// `log` hears, once, that a kept rate or pitch is not one Biki can use; the voice's own
  /// then serves, and `biki say` refuses with the same message, which the editor shows.
  init(environment: BikiEnvironment, log: (String) -> Void) {
    self.environment = environment
    switch KeptStyle.read(environment.variables) {
    case .success(let read): kept = read
    case .failure(let problem):
      log(problem.message)
      kept = .none
    }
  }

  @Sendable func prepare(session: String, speech: SpeechChoice, reading: String, text: String) {
    queue.async { [self] in
      guard let speaker = speaker(speech) else { return }
      speaker.prepare(Utterance(reading: reading, display: text), for: session)
    }
  }

  @Sendable func end(session: String) {
    // At once for the work already queued, and again in turn for a start still being chosen.
    ahead.cancel(owner: session)
    queue.async { [ahead] in ahead.cancel(owner: session) }
  }

  /// Ends everything: what waits is dropped, what runs is stopped and waited for.
  func stop() {
    ahead.stop()
  }

  private func speaker(_ speech: SpeechChoice) -> Speaker? {
    if let kept = speakers.withLock({ $0[speech] }) { return kept }
    guard let style = kept.style(rate: speech.rate, pitch: speech.pitch) else { return nil }
    let made = environment.speaker(voice: speech.voice, style: style, ahead: ahead)
    speakers.withLock {
      if $0.count >= Self.speakersKept { $0.removeAll() }
      $0[speech] = made
    }
    return made
  }
}
