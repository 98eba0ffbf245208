/// A quiz session as a pure state machine: `reduce` takes the state and an event and returns
/// the effects for the caller to carry out (make the next question, record what happened,
/// present a question, report the summary). It makes no questions itself (a plugin's can take
/// a worker round trip): it asks for one by index and is given it, or told it failed, as an
/// action. Nothing here reads a clock or touches a file; the clock comes in `Dependencies`.
/// `SessionRunner` is the shell that makes the questions.
public enum Session {
  public enum Mode: Hashable, Sendable, Codable {
    case infinite
    case questionLimit(Int)
    case timeLimit(seconds: Double)
  }

  public enum Action: Hashable, Sendable {
    case answerSubmitted(String)
    /// Reveal the answer and move on, as Count Biki does.
    case skipRequested
    /// A clock tick: ends a time-limited session whose time is up.
    case clockTicked
    case endRequested
    /// The question asked for by `questionNeeded`, made.
    case questionArrived(Question)
    /// The question asked for could not be made.
    case questionFailed(GenerationError)
  }

  public enum Effect: Hashable, Sendable {
    /// Keep this in the learner's history.
    case recorded(Record)
    /// Make the question at this index of the topic's space, and send it back as
    /// `questionArrived` (or `questionFailed`).
    case questionNeeded(index: UInt64)
    case questionPresented(Question)
    case sessionFinished(Summary)
  }

  /// What a session leaves in the history: its start, every answer and skip, and its end.
  public enum Record: Hashable, Sendable {
    case started(topicID: String, skill: Skill, mode: Mode, seed: UInt64)
    case answered(AnswerRecord)
    case ended(topicID: String, reason: EndReason, questions: Int, correct: Int)
  }

  public struct Dependencies: Sendable {
    /// Seconds on a monotonic clock.
    public var now: @Sendable () -> Double

    public init(now: @Sendable @escaping () -> Double) {
      self.now = now
    }
  }

  public struct State: Hashable, Sendable {
    public let topicID: String
    public let skill: Skill
    public let mode: Mode
    public let seed: UInt64
    public internal(set) var order: QuestionOrder
    /// The question being asked; nil while the next is being made and once the session has
    /// finished.
    public internal(set) var current: Question?
    /// Questions asked for in a row that could not be made.
    public internal(set) var failedInARow = 0
    /// Wrong answers given to the current question so far.
    public internal(set) var currentWrongAnswers: [String] = []
    public internal(set) var questionStartedAt: Double
    public let startedAt: Double
    public internal(set) var results: [QuestionResult] = []
    /// What the last action told the learner.
    public internal(set) var feedback: Feedback?
    public internal(set) var endReason: EndReason?

    public var isFinished: Bool { endReason != nil }

    public var progress: Progress {
      Progress(
        completed: results.count,
        correct: results.filter { $0.outcome == .correct }.count,
        incorrectAttempts: results.reduce(currentWrongAnswers.count) { $0 + $1.wrongAnswers.count },
        skipped: results.filter { $0.outcome == .skipped }.count,
        questionLimit: { if case .questionLimit(let limit) = mode { limit } else { nil } }(),
        timeLimit: { if case .timeLimit(let seconds) = mode { seconds } else { nil } }())
    }
  }

  public enum Feedback: Hashable, Sendable {
    case correct
    case incorrect(expected: String)
    case skipped(expected: String)
  }

  public enum EndReason: Hashable, Sendable, Codable {
    case questionLimitReached
    case timeUp
    case endedByLearner
    case generationFailed(String)
  }

  public struct Progress: Hashable, Sendable, Codable {
    public var completed: Int
    public var correct: Int
    public var incorrectAttempts: Int
    public var skipped: Int
    public var questionLimit: Int?
    public var timeLimit: Double?

    public init(
      completed: Int, correct: Int, incorrectAttempts: Int, skipped: Int, questionLimit: Int? = nil,
      timeLimit: Double? = nil
    ) {
      self.completed = completed
      self.correct = correct
      self.incorrectAttempts = incorrectAttempts
      self.skipped = skipped
      self.questionLimit = questionLimit
      self.timeLimit = timeLimit
    }
  }

  /// One question's outcome.
  public struct QuestionResult: Hashable, Sendable {
    public enum Outcome: String, Hashable, Sendable, Codable {
      case correct, skipped
      /// The session ended while the question was open, after at least one wrong answer.
      case unanswered
    }

    public var question: Question
    public var outcome: Outcome
    public var wrongAnswers: [String]
    public var seconds: Double

    public var attempts: Int { wrongAnswers.count + (outcome == .correct ? 1 : 0) }
    public var wasMissed: Bool { outcome != .correct || !wrongAnswers.isEmpty }
  }

  /// One answer, or one skip, as stored in the history.
  public struct AnswerRecord: Hashable, Sendable, Codable {
    public var topicID: String
    public var seed: UInt64
    public var skill: Skill
    /// What the learner was shown, and the answer as revealed.
    public var prompt: String
    public var expected: String
    public var given: String
    public var isCorrect: Bool
    /// The learner asked for the answer instead of giving one.
    public var skipped: Bool
    public var seconds: Double

    public init(
      topicID: String, seed: UInt64, skill: Skill, prompt: String = "", expected: String = "", given: String, isCorrect: Bool,
      skipped: Bool = false, seconds: Double
    ) {
      self.topicID = topicID
      self.seed = seed
      self.skill = skill
      self.prompt = prompt
      self.expected = expected
      self.given = given
      self.isCorrect = isCorrect
      self.skipped = skipped
      self.seconds = seconds
    }
  }

  public struct Summary: Hashable, Sendable {
    public var topicID: String
    public var endReason: EndReason
    public var questions: Int
    public var correct: Int
    public var correctFirstTry: Int
    public var incorrectAttempts: Int
    public var skipped: Int
    public var attempts: Int
    public var totalSeconds: Double
    public var secondsPerQuestion: [Double]
    public var missed: [QuestionResult]

    public var averageSeconds: Double {
      secondsPerQuestion.isEmpty ? 0 : secondsPerQuestion.reduce(0, +) / Double(secondsPerQuestion.count)
    }
  }
}

public enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
  case skillNotOffered(Skill, topic: String, offered: [Skill])
  case invalidLimit(String)
  case generationFailed(GenerationError)

  public var description: String {
    switch self {
    case .skillNotOffered(let skill, let topic, let offered):
      "topic \(topic) does not offer the \(skill.rawValue) skill; it offers: \(offered.map(\.rawValue).joined(separator: ", "))"
    case .invalidLimit(let reason): reason
    case .generationFailed(let error): error.description
    }
  }
}
