import BikiJSON
import BikiProtocol

/// `biki/topics`: the topic list, or "unchanged" for a client that still has it.
struct TopicsRequest: ClientMessage {
  static let method = "biki/topics"

  /// The `resultId` of the list the client keeps, if it keeps one.
  var previousResultID: String?

  init(previousResultID: String? = nil) { self.previousResultID = previousResultID }

  init(_ params: Params) throws(ResponseError) {
    previousResultID = try params.optionalString("previousResultId")
  }

  var params: JSON {
    guard let previousResultID else { return [:] }
    return ["previousResultId": .string(previousResultID)]
  }
}
