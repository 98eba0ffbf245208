import BikiJSON
import BikiProtocol

/// `biki/answer`: what the learner typed for the question their session is asking.
struct AnswerRequest: ClientMessage {
  static let method = "biki/answer"

  var sessionID: String
  /// The answer, or the -32602 that says why it is not one. It is judged when the session takes
  /// it, as it always was: an answer sent after the time ran out is told `timeUp`, and one sent
  /// while the next question is being made waits its turn before it is judged.
  var answer: Result<String, ResponseError>

  static let maximumBytes = 1024

  init(sessionID: String, answer: String) {
    self.sessionID = sessionID
    self.answer = .success(answer)
  }

  init(_ params: Params) throws(ResponseError) {
    sessionID = try params.string("sessionId")
    let given = params.value?["answer"]
    answer = Result { () throws(ResponseError) in try Self.text(given) }
  }

  /// A string, or a number as its digits (clients send what the learner typed as a number).
  private static func text(_ given: JSON?) throws(ResponseError) -> String {
    let text: String
    switch given {
    case .string(let string)?: text = string
    case .integer(let number)?: text = String(number)
    case .unsigned(let number)?: text = String(number)
    case nil, .null?: throw .invalidParams("missing required field \"answer\"")
    case let other?: throw .invalidParams("\"answer\" must be a string, not \(other.kindDescription)")
    }
    guard text.utf8.count <= maximumBytes else {
      throw .invalidParams("\"answer\" is longer than \(maximumBytes) bytes")
    }
    return text
  }

  /// A failed answer is written without one: no params give back a particular problem.
  var params: JSON {
    var members: [(String, JSON)] = [("sessionId", .string(sessionID))]
    if case .success(let text) = answer { members.append(("answer", .string(text))) }
    return .object(pairs: members)
  }
}
