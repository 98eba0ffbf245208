import BikiJSON
import BikiProtocol

/// `biki/stats`: what the history says of one topic, or of all.
struct StatsRequest: ClientMessage {
  static let method = "biki/stats"

  var topicID: String?

  init(topicID: String? = nil) { self.topicID = topicID }

  init(_ params: Params) throws(ResponseError) {
    topicID = try params.optionalString("topicId")
  }

  var params: JSON {
    guard let topicID else { return [:] }
    return ["topicId": .string(topicID)]
  }
}
