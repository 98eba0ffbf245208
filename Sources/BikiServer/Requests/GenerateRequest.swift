import BikiJSON
import BikiProtocol

/// `biki/generate`: a topic's questions for a seed, with their answers, outside any session.
struct GenerateRequest: ClientMessage {
  static let method = "biki/generate"
  static let maximumCount: Int64 = 1000

  var topicID: String
  /// The topic's parameters; empty for its defaults.
  var parameters: [String: Int64]
  var seed: UInt64
  var count: Int64

  init(topicID: String, parameters: [String: Int64] = [:], seed: UInt64, count: Int64 = 1) {
    self.topicID = topicID
    self.parameters = parameters
    self.seed = seed
    self.count = count
  }

  init(_ params: Params) throws(ResponseError) {
    self = try Self.decode(params, plain: PlainGenerate(params.value), lookUp: { _ in }, judge: { _, _ in }).request
  }

  /// Decodes the fields with the server's judgement of the topic (`lookUp`) and of its
  /// parameters (`judge`) at their places: clients have always been told of an unknown topic
  /// before any other field, and of parameters a pack's topic refuses before `seed`. Returns
  /// what both found, so the server does not look again. `plain` is what `PlainGenerate`
  /// read of the same params.
  static func decode<Topic, Judgement>(
    _ params: Params, plain: PlainGenerate?, lookUp: (String) throws(ResponseError) -> Topic,
    judge: (Topic, [String: Int64]) throws(ResponseError) -> Judgement
  ) throws(ResponseError) -> (request: GenerateRequest, topic: Topic, judgement: Judgement) {
    if let plain {
      let topic = try lookUp(plain.topicID)
      let judgement = try judge(topic, [:])
      return (GenerateRequest(topicID: plain.topicID, seed: plain.seed, count: plain.count), topic, judgement)
    }
    let topicID = try params.string("topicId")
    let topic = try lookUp(topicID)
    let parameters = try params.integerMap("params")
    let judgement = try judge(topic, parameters)
    guard let seed = try params.optionalSeed("seed") else { throw .invalidParams("missing required field \"seed\"") }
    let count = try params.optionalInteger("count", in: 1...maximumCount) ?? 1
    return (GenerateRequest(topicID: topicID, parameters: parameters, seed: seed, count: count), topic, judgement)
  }

  var params: JSON {
    var members: [(String, JSON)] = [("topicId", .string(topicID))]
    if !parameters.isEmpty { members.append(("params", Self.parametersJSON(parameters))) }
    // As a string: JSON numbers lose precision past 2^53.
    members += [("seed", .string(String(seed))), ("count", .integer(count))]
    return .object(pairs: members)
  }
}
