import BikiJSON

/// The fields of `biki/generate` read straight from the client's text, for the request as
/// nearly every client writes it: `topicId` and `seed` given plainly, `count` a small whole
/// number or left out, no parameters. It is the one request a quiz tool sends in bulk (issue 50).
/// Anything else (a field it cannot read as `Params` would, an error to report) is nil, and
/// `Params` reads the request; where this answers, it answers as `Params` would (`fuzz-request`
/// sends both the same bytes).
struct PlainGenerate {
  var topicID: String
  var seed: UInt64
  var count: Int64

  init?(_ params: JSON?) {
    guard case .written(let text)? = params else { return nil }
    guard
      let fields = text.withUnsafeBufferPointer({ bytes -> (String, UInt64, Int64)? in
        var topicID: Range<Int>?
        var seed: Range<Int>?
        var count: Range<Int>?
        var walk = WrittenMembers(bytes)
        while let (key, value) = walk.next() {
          let name = bytes[key]
          // The first of a repeated key counts, as in `Params`.
          if JSONScan.spells(name, "topicId") {
            if topicID == nil { topicID = value }
          } else if JSONScan.spells(name, "seed") {
            if seed == nil { seed = value }
          } else if JSONScan.spells(name, "count") {
            if count == nil { count = value }
          } else if JSONScan.spells(name, "params") || name.contains(UInt8(ascii: "\\")) {
            // Parameters are judged by the topic; a key with escapes may spell any of these.
            return nil
          }
        }
        guard let topicID = topicID.flatMap({ Self.plainString(bytes[$0]) }),
          let seed = seed.flatMap({ Self.seed(bytes[$0]) })
        else { return nil }
        guard let count else { return (topicID, seed, 1) }
        guard case .integer(let number) = Self.wholeNumber(bytes[count]),
          (1...GenerateRequest.maximumCount).contains(number)
        else { return nil }
        return (topicID, seed, number)
      })
    else { return nil }
    (topicID, seed, count) = fields
  }

  /// A string's text when it has no escapes.
  private static func plainString(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
    guard text.count >= 2, text.first == UInt8(ascii: "\"") else { return nil }
    let inner = text.dropFirst().dropLast()
    guard !inner.contains(UInt8(ascii: "\\")) else { return nil }
    return String(decoding: inner, as: UTF8.self)
  }

  /// A number written in digits alone (no sign, point or exponent), as the parser reads it.
  private static func wholeNumber(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> JSON? {
    guard !text.isEmpty, text.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
    return JSON.number(literal: text)
  }

  /// A seed in digits, or in digits inside a string, as `Params.optionalSeed` reads one.
  private static func seed(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
    if let string = plainString(text) { return UInt64(string) }
    switch wholeNumber(text) {
    case .integer(let value)?: return UInt64(exactly: value)
    case .unsigned(let value)?: return value
    default: return nil
    }
  }
}
