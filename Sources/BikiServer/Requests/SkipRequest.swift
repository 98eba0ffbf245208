import BikiJSON
import BikiProtocol

/// `biki/skip`: the learner gives up on the question; the answer is revealed.
struct SkipRequest: ClientMessage {
  static let method = "biki/skip"

  var sessionID: String

  init(sessionID: String) { self.sessionID = sessionID }

  init(_ params: Params) throws(ResponseError) {
    sessionID = try params.string("sessionId")
  }

  var params: JSON { ["sessionId": .string(sessionID)] }
}
