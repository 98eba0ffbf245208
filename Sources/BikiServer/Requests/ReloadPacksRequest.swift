import BikiJSON
import BikiProtocol

/// `biki/reloadPacks`: load the packs again now, without waiting for the poll to notice.
struct ReloadPacksRequest: ClientMessage {
  static let method = "biki/reloadPacks"

  init() {}

  /// It has no fields, and its params were never read: whatever a client sends is accepted.
  init(_ params: Params) throws(ResponseError) {}

  var params: JSON { [:] }
}
