import BikiCore
import BikiJSON

/// `biki/topics`' two answers, written once per catalog, when first asked for. The full list is tens of kilobytes,
/// so a client that keeps it sends back the `resultId` it was given and is told "unchanged"
/// while the packs are the same: the pattern of LSP's pull diagnostics (`previousResultId`).
struct TopicListAnswer {
  /// Names the list's content, not the server run: the same packs give the same id after a
  /// restart, so a client may keep the list between runs.
  let resultID: String
  private let full: JSON
  private let unchanged: JSON

  init(_ catalog: Catalog) {
    // Written once, fingerprinted and sent as these bytes.
    var writer = JSONWriter()
    writer.beginArray()
    for topic in catalog.registry.topics { TopicInfo(topic).write(into: &writer) }
    writer.endArray()
    let topics = writer.withBytes { Array($0) }
    let fingerprint = String(Fingerprint.of(topics), radix: 16)
    resultID = String(repeating: "0", count: 16 - fingerprint.count) + fingerprint
    full = .prewritten(["kind": "full", "resultId": .string(resultID), "topics": .written(topics)])
    unchanged = TopicListResponse(kind: .unchanged, resultID: resultID, topics: nil).json
  }

  func answer(previousResultID: String?) -> JSON {
    previousResultID == resultID ? unchanged : full
  }
}
