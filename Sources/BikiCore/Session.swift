import BikiJapanese

/// A quiz session as a pure state machine: `reduce` takes the state and an event and returns
/// the effects for the caller to carry out (make the next question, record what happened,
/// present a question, report the summary). It makes no questions itself (a plugin's can take
/// a worker round trip): it asks for one by index and is given it, or told it failed, as an
/// action. Nothing here reads a clock or touches a file; the clock comes in `Dependencies`.
/// `SessionRunner` is the shell that makes the questions.
package enum Session {
  package enum Mode: Hashable, Sendable, Codable {
    case infinite
    case questionLimit(Int)
    case timeLimit(seconds: Double)
    /// The questions `0..<questions` of the topic's space, in order and in rounds until each
    /// is answered right at the first try (`Rounds`).
    case rounds(questions: Int)
  }

  package enum Action: Hashable, Sendable {
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

  package enum Effect: Hashable, Sendable {
    /// Keep this in the learner's history.
    case recorded(Record)
    /// Make the question at this index of the topic's space, and send it back as
    /// `questionArrived` (or `questionFailed`).
    case questionNeeded(index: UInt64)
    case questionPresented(Question)
    /// A question that could not be made (a plugin's refused, say): the next is asked instead.
    case questionSkipped(GenerationError)
    case sessionFinished(Summary)
  }

  /// What a session leaves in the history: its start, every answer and skip, and its end.
  package enum Record: Hashable, Sendable {
    case started(topicID: String, skill: Skill, mode: Mode, seed: UInt64)
    case answered(AnswerRecord)
    case ended(topicID: String, reason: EndReason, questions: Int, correct: Int)
  }

  package struct Dependencies: Sendable {
    /// Seconds on a monotonic clock.
    var now: @Sendable () -> Double

    package init(now: @Sendable @escaping () -> Double) {
      self.now = now
    }
  }

  package struct State: Hashable, Sendable {
    let topicID: String
    package let skill: Skill
    package let mode: Mode
    let seed: UInt64
    package internal(set) var order: QuestionOrder
    /// The question being asked; nil while the next is being made and once the session has
    /// finished.
    package internal(set) var current: Question?
    /// Questions asked for in a row that could not be made.
    var failedInARow = 0
    /// Wrong answers given to the current question so far.
    var currentWrongAnswers: [String] = []
    var questionStartedAt: Double
    package let startedAt: Double
    package internal(set) var results: [QuestionResult] = []
    /// `results` counted as they grow: every response carries the progress, and counting a long
    /// session's results at every step cost more than the rest of the step.
    var tally = Tally()
    /// What the last action told the learner.
    package internal(set) var feedback: Feedback?
    package internal(set) var endReason: EndReason?
    /// Which round a `rounds` session is in, and what it has still to ask; nil in other modes.
    package internal(set) var rounds: Rounds?
    /// Whether readings accepted but uncommon (じっぷん) are refused.
    package internal(set) var strict = false

    package var isFinished: Bool { endReason != nil }

    /// Closes a question: its result is kept, and counted.
    mutating func record(_ result: QuestionResult) {
      results.append(result)
      tally.wrongAnswers += result.wrongAnswers.count
      switch result.outcome {
      case .correct: tally.correct += 1
      case .skipped: tally.skipped += 1
      case .unanswered: break
      }
    }

    struct Tally: Hashable, Sendable {
      var correct = 0
      var skipped = 0
      var wrongAnswers = 0
    }

    package var progress: Progress {
      Progress(
        completed: results.count, correct: tally.correct,
        incorrectAttempts: tally.wrongAnswers + currentWrongAnswers.count, skipped: tally.skipped,
        questionLimit: { if case .questionLimit(let limit) = mode { limit } else { nil } }(),
        timeLimit: { if case .timeLimit(let seconds) = mode { seconds } else { nil } }())
    }
  }

  package enum Feedback: Hashable, Sendable {
    /// `matched`: the reading the answer matched; `standard`: the standard form, when the answer
    /// was another (じっぽん for 10本).
    /// `uncommon`: the answer was a form accepted but uncommon (じっぷん), `standard` the usual one.
    /// `readAs`: the kana an answer typed in romaji was read as.
    case correct(matched: Reading? = nil, standard: String? = nil, uncommon: Bool = false, readAs: String? = nil)
    case incorrect(expected: String, hint: String? = nil)
    /// Input that could not be read as an answer (romaji that spells nothing): not counted.
    case unread(hint: String)
    case skipped(expected: String)
  }

  package enum EndReason: Hashable, Sendable, Codable {
    case questionLimitReached
    case timeUp
    case endedByLearner
    case generationFailed(String)
    /// A round of a `rounds` session missed nothing.
    case allRight
  }

  package struct Progress: Hashable, Sendable, Codable {
    package var completed: Int
    package var correct: Int
    package var incorrectAttempts: Int
    package var skipped: Int
    package var questionLimit: Int?
    package var timeLimit: Double?

    init(
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
  package struct QuestionResult: Hashable, Sendable {
    package enum Outcome: String, Hashable, Sendable, Codable {
      case correct, skipped
      /// The session ended while the question was open, after at least one wrong answer.
      case unanswered
    }

    package var question: Question
    package var outcome: Outcome
    package var wrongAnswers: [String]
    var seconds: Double

    var attempts: Int { wrongAnswers.count + (outcome == .correct ? 1 : 0) }
    var wasMissed: Bool { outcome != .correct || !wrongAnswers.isEmpty }
  }

  /// One answer, or one skip, as stored in the history.
  package struct AnswerRecord: Hashable, Sendable {
    package var topicID: String
    package var seed: UInt64
    package var skill: Skill
    /// What the learner was shown, and the answer as revealed.
    package var prompt: String
    package var expected: String
    package var given: String
    package var isCorrect: Bool
    /// The learner asked for the answer instead of giving one.
    package var skipped: Bool
    package var seconds: Double
    /// The first attempt at its question: what scheduling grades (a later attempt only shows
    /// the question was missed, which the first already said).
    package var isFirstAttempt: Bool
    /// The forms its question exercises.
    package var forms: [ReadingForm]

    package init(
      topicID: String, seed: UInt64, skill: Skill, prompt: String = "", expected: String = "", given: String,
      isCorrect: Bool,
      skipped: Bool = false, seconds: Double, isFirstAttempt: Bool = true, forms: [ReadingForm] = []
    ) {
      self.isFirstAttempt = isFirstAttempt
      self.forms = forms
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

  package struct Summary: Hashable, Sendable {
    package var topicID: String
    package var endReason: EndReason
    package var questions: Int
    package var correct: Int
    package var correctFirstTry: Int
    package var incorrectAttempts: Int
    package var skipped: Int
    package var attempts: Int
    package var totalSeconds: Double
    package var secondsPerQuestion: [Double]
    package var missed: [QuestionResult]
    /// The rounds a `rounds` session took; nil in other modes.
    package var rounds: Int?

    package var averageSeconds: Double {
      secondsPerQuestion.isEmpty ? 0 : secondsPerQuestion.reduce(0, +) / Double(secondsPerQuestion.count)
    }
  }
}

package enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
  case skillNotOffered(Skill, topic: String, offered: [Skill])
  case invalidLimit(String)
  case generationFailed(GenerationError)

  package var description: String {
    switch self {
    case .skillNotOffered(let skill, let topic, let offered):
      "topic \(topic) does not offer the \(skill.rawValue) skill; it offers: \(offered.map(\.rawValue).joined(separator: ", "))"
    case .invalidLimit(let reason): reason
    case .generationFailed(let error): error.description
    }
  }
}
