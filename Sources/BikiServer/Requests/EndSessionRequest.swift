import BikiJSON
import BikiProtocol

/// `biki/endSession`: ends a session, or collects the summary of one that ended by itself.
struct EndSessionRequest: ClientMessage {
  static let method = "biki/endSession"

  var sessionID: String

  init(sessionID: String) { self.sessionID = sessionID }

  init(_ params: Params) throws(ResponseError) {
    sessionID = try params.string("sessionId")
  }

  var params: JSON { ["sessionId": .string(sessionID)] }
}
