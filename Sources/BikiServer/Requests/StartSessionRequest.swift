import BikiCore
import BikiJSON
import BikiProtocol

/// `biki/startSession`, decoded and checked before anything is made: every field problem is a
/// -32602 naming the field.
struct StartSessionRequest: ClientMessage {
  static let method = "biki/startSession"

  enum Kind: Equatable, Sendable {
    /// A session on one topic.
    case topic(String, Session.Mode)
    /// A review of the forms due and weak, from one topic or (nil) every topic.
    case review(topicID: String?, count: Int)
    /// The questions missed in the last session (or in the last `sinceDays` days), from one
    /// topic or every topic, in rounds until each is answered right.
    case missed(topicID: String?, sinceDays: Double?)
  }

  var kind: Kind
  var skill: Skill?
  /// The topic's parameters; empty for its defaults.
  var parameters: [String: Int64]
  /// Nil: a fresh seed, returned in the response.
  var seed: UInt64?
  /// Whether readings accepted but uncommon (じっぷん) are refused.
  var strict = false
  /// How listening questions are spoken; nil for the default voice at its own speed.
  var speech: SpeechChoice?
  /// Whether the session's answers go into the learner's history; a tool trying things out
  /// says false.
  var record = true

  init(kind: Kind, skill: Skill? = nil, parameters: [String: Int64] = [:], seed: UInt64? = nil, strict: Bool = false) {
    self.kind = kind
    self.skill = skill
    self.parameters = parameters
    self.seed = seed
    self.strict = strict
  }

  init(_ params: Params) throws(ResponseError) {
    seed = try params.optionalSeed("seed")
    skill = try params.optionalChoice("skill", among: Skill.allCases)
    parameters = try params.integerMap("params")
    strict = try params.optionalBool("strict") ?? false
    record = try params.optionalBool("record") ?? true
    speech = try SpeechChoice.read(params, "speech")
    switch try Self.mode(params) {
    case .review(let count): kind = .review(topicID: try params.optionalString("topicId"), count: count)
    case .missed(let days): kind = .missed(topicID: try params.optionalString("topicId"), sinceDays: days)
    case .session(let mode): kind = .topic(try params.string("topicId"), mode)
    }
  }

  /// What `mode` asks for: a review (`{kind: "review", limit?}`, 20 questions unless it says),
  /// what was missed (`{kind: "missed", sinceDays?}`), or a session on a topic (ten questions
  /// when there is no `mode`).
  enum ModeField: Equatable {
    case review(count: Int)
    case missed(sinceDays: Double?)
    case session(Session.Mode)
  }

  static func mode(_ params: Params) throws(ResponseError) -> ModeField {
    guard let mode = try params.optionalObject("mode") else { return .session(.questionLimit(10)) }
    enum Kind: String, CaseIterable { case infinite, questionLimit, timeLimit, review, missed }
    guard let kind: Kind = try mode.optionalChoice("kind", among: Kind.allCases) else {
      throw .invalidParams("missing required field \"mode.kind\"")
    }
    switch kind {
    case .infinite: return .session(.infinite)
    case .review: return .review(count: Int(try mode.optionalInteger("limit", in: 1...1000) ?? 20))
    case .missed:
      let days = try mode.optionalNumber("sinceDays")
      if let days, !(days > 0 && days <= 3_650) {
        throw .invalidParams("\"mode.sinceDays\" must be a number of days from 0 to 3650 (exclusive of 0), not \(days)")
      }
      return .missed(sinceDays: days)
    case .questionLimit: return .session(.questionLimit(Int(try mode.integer("limit", in: 1...1_000_000))))
    case .timeLimit:
      guard let seconds = try mode.optionalNumber("limit") else {
        throw .invalidParams("missing required field \"mode.limit\"")
      }
      guard seconds > 0, seconds <= 86_400 else {
        throw .invalidParams(
          "\"mode.limit\" must be a number of seconds from 0 to 86400 (exclusive of 0), not \(seconds)")
      }
      return .session(.timeLimit(seconds: seconds))
    }
  }

  var params: JSON {
    var members: [(String, JSON)] = []
    switch kind {
    case .topic(let topicID, let mode):
      members += [("topicId", .string(topicID)), ("mode", Self.json(mode))]
    case .review(let topicID, let count):
      if let topicID { members.append(("topicId", .string(topicID))) }
      members.append(("mode", ["kind": "review", "limit": .integer(Int64(count))]))
    case .missed(let topicID, let days):
      if let topicID { members.append(("topicId", .string(topicID))) }
      members.append(("mode", .object(pairs: [("kind", "missed")] + (days.map { [("sinceDays", .double($0))] } ?? []))))
    }
    if let skill { members.append(("skill", .string(skill.rawValue))) }
    if !parameters.isEmpty { members.append(("params", Self.parametersJSON(parameters))) }
    // As a string: JSON numbers lose precision past 2^53.
    if let seed { members.append(("seed", .string(String(seed)))) }
    if strict { members.append(("strict", true)) }
    if !record { members.append(("record", false)) }
    if let speech { members.append(("speech", speech.json)) }
    return .object(pairs: members)
  }

  private static func json(_ mode: Session.Mode) -> JSON {
    switch mode {
    case .infinite: ["kind": "infinite"]
    case .questionLimit(let count): ["kind": "questionLimit", "limit": .integer(Int64(count))]
    case .timeLimit(let seconds): ["kind": "timeLimit", "limit": .double(seconds)]
    // Asked for as `missed`: the server sets the rounds from what it finds.
    case .rounds: ["kind": "missed"]
    }
  }
}

/// What a session starts from, once its generator is made (off the loop when that runs a
/// plugin's code, or reads the history for a review).
struct SessionPlan: Sendable {
  var generator: QuestionGenerator
  var skill: Skill
  var mode: Session.Mode
  var seed: UInt64
  var strict = false
  var speech: SpeechChoice?
  /// False: nothing of the session goes into the history (`StartSessionRequest.record`).
  var record = true
}
