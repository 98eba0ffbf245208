import BikiJSON
import BikiJapanese
import BikiProtocol

/// `biki/read`: how a written phrase is read aloud.
struct ReadRequest: ClientMessage {
  static let method = "biki/read"

  var text: String
  /// What the phrase is, when the text alone leaves it open (日 as a date or a count of days).
  var kind: PhraseKind?

  init(text: String, kind: PhraseKind? = nil) {
    self.text = text
    self.kind = kind
  }

  init(_ params: Params) throws(ResponseError) {
    if let plain = PlainRead(params.value) {
      (text, kind) = (plain.text, plain.kind)
      return
    }
    text = try params.string("text")
    kind = try params.optionalChoice("as", among: PhraseKind.allCases)
  }

  var params: JSON {
    var members: [(String, JSON)] = [("text", .string(text))]
    if let kind { members.append(("as", .string(kind.rawValue))) }
    return .object(pairs: members)
  }
}
