import BikiCore
import BikiHost
import BikiJSON
import BikiPractice
import BikiProtocol

/// A session in the server's table. It is asking a question or making the next one, and its
/// stage says which: a handler reads the question from `.asking`, never from an optional.
struct OpenSession {
  /// The session as `biki quiz` runs it: its state, its generator, what follows a question
  /// being made.
  var runner: SessionRunner
  var stage: Stage

  var state: Session.State { runner.state }
  var generator: QuestionGenerator { runner.generator }

  enum Stage {
    /// The learner has this question in front of them.
    case asking(Question)
    /// The next question is being made off the loop (it runs a plugin's code), for the request
    /// with this id; the job is in its entry of `OpenRequests`.
    case making(RequestID)
  }
}

/// A `biki/generate` request for a plugin's questions, waiting for the loop's next pass to
/// start with the others read alongside it.
struct WaitingGenerate {
  /// The most questions one job makes for the requests it answers: a large batch is split, so
  /// the first answers do not wait for the last.
  static let questionsPerJob: Int64 = 256

  var replyID: RequestID
  var entry: CatalogEntry
  var parameters: [String: Int64]
  var seed: UInt64
  var count: Int64

  /// Requests that can share a job: the same topic entry and parameters.
  struct Batch: Hashable {
    var entry: ObjectIdentifier
    var parameters: [String: Int64]

    init(_ request: WaitingGenerate) {
      entry = ObjectIdentifier(request.entry)
      parameters = request.parameters
    }
  }
}

/// An answer or skip that reached a session while it was making its next question.
struct QueuedRequest {
  enum Kind {
    case answer(AnswerRequest)
    case skip(SkipRequest)
  }
  var id: RequestID
  var kind: Kind

  var sessionID: String {
    switch kind {
    case .answer(let answer): answer.sessionID
    case .skip(let skip): skip.sessionID
    }
  }
}

/// A request whose response waits for its session's next question (or its end).
struct WaitingReply {
  var id: RequestID
  /// What the response carries before the session's step.
  var head: Head
  /// A start's records, written once it has a question: a session that never starts (its
  /// topic cannot make a question) leaves nothing in the history.
  var unwritten: [Session.Record] = []

  enum Head {
    /// The session's ids, for a start.
    case start(sessionID: String, topicID: String, skill: Skill, seed: UInt64)
    /// The verdict, for an answer.
    case answer(Verdict, expected: RevealedAnswer?, standard: String?, uncommon: Bool, hint: String?, readAs: String?)
    /// The answer revealed, for a skip.
    case skip(expected: RevealedAnswer?)
  }

  var startsSession: Bool { if case .start = head { true } else { false } }

  /// The response, once the session has taken its step.
  func response(_ step: SessionStep) -> JSON {
    switch head {
    case .start(let sessionID, let topicID, let skill, let seed):
      StartSessionResponse(sessionID: sessionID, topicID: topicID, skill: skill, seed: seed, step: step).json
    case .answer(let verdict, let expected, let standard, let uncommon, let hint, let readAs):
      AnswerResponse(
        verdict: verdict, expected: expected, standard: standard, uncommon: uncommon, hint: hint, readAs: readAs,
        step: step
      ).json
    case .skip(let expected): SkipResponse(expected: expected, step: step).json
    }
  }
}

/// A session that ended by itself, kept for a while after.
struct FinishedSession {
  var id: String
  var summary: SessionSummary
  var progress: SessionProgress
  /// Whether it ended because its time limit passed (not by reaching its question limit).
  var timeRanOut: Bool
}
