import BikiJSON
import BikiJapanese

/// The hot requests' fields read straight from the client's text, for each request as nearly
/// every client writes it (issue 50): a quiz tool sends `biki/generate` and `biki/read` in bulk.
/// Anything else (a field not read as `Params` would read it, an error to report) gives nil,
/// and `Params` reads the request; where these answer, they answer as `Params` would
/// (`fuzz-request` sends both the same bytes and compares the server's answers).
enum PlainFields {
  /// `body` given the place of the first value of each key `names` lists, found in one walk over
  /// the client's params; nil when the params are not text of an object, or a key is spelt with
  /// escapes (only the parser compares those as it should).
  static func read<Result>(
    _ params: JSON?, _ names: [StaticString], _ body: (UnsafeBufferPointer<UInt8>, Found) -> Result?
  ) -> Result? {
    guard case .written(let text)? = params, names.count <= Found.capacity else { return nil }
    return text.withUnsafeBufferPointer { bytes in
      var found = Found()
      var walk = WrittenMembers(bytes)
      while let (key, value) = walk.next() {
        let name = bytes[key]
        if name.contains(UInt8(ascii: "\\")) { return nil }
        // The first of a repeated key counts, as in `Params`.
        guard let index = names.firstIndex(where: { JSONScan.spells(name, $0) }) else { continue }
        if found[index] == nil { found[index] = value }
      }
      return body(bytes, found)
    }
  }

  /// Where the value of each name asked for is, by the name's place in the list: a record of
  /// fixed size, not an array, as one is made for every request read here.
  struct Found {
    static let capacity = 4
    private var places: (Range<Int>?, Range<Int>?, Range<Int>?, Range<Int>?) = (nil, nil, nil, nil)

    subscript(index: Int) -> Range<Int>? {
      get {
        switch index {
        case 0: places.0
        case 1: places.1
        case 2: places.2
        case 3: places.3
        default: nil
        }
      }
      set {
        switch index {
        case 0: places.0 = newValue
        case 1: places.1 = newValue
        case 2: places.2 = newValue
        case 3: places.3 = newValue
        default: break
        }
      }
    }
  }

  /// A number written in digits alone (no sign, point or exponent), as the parser reads it.
  static func wholeNumber(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> JSON? {
    guard !text.isEmpty, text.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
    return JSON.number(literal: text)
  }
}

/// `biki/generate` with `topicId` and `seed` given plainly, `count` a small whole number or
/// left out, and no parameters.
struct PlainGenerate {
  var topicID: String
  var seed: UInt64
  var count: Int64

  /// `knownTopicID`: an id the caller holds, given back as itself when the params name it.
  init?(_ params: JSON?, knownTopicID: String? = nil) {
    guard
      let fields = PlainFields.read(
        params, ["topicId", "seed", "count", "params"],
        { bytes, found -> (String, UInt64, Int64)? in
          // Parameters are judged by the topic: left to `Params`.
          guard found[3] == nil,
            let topicID = found[0].flatMap({ JSONScan.unescapedString(bytes[$0], reusing: knownTopicID) }),
            let seed = found[1].flatMap({ Self.seed(bytes[$0]) })
          else { return nil }
          guard let count = found[2] else { return (topicID, seed, Int64(1)) }
          guard case .integer(let number) = PlainFields.wholeNumber(bytes[count]),
            (1...GenerateRequest.maximumCount).contains(number)
          else { return nil }
          return (topicID, seed, number)
        })
    else { return nil }
    (topicID, seed, count) = fields
  }

  /// A seed in digits, or in digits inside a string, as `Params.optionalSeed` reads one.
  private static func seed(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
    if let string = JSONScan.unescapedString(text) { return UInt64(string) }
    switch PlainFields.wholeNumber(text) {
    case .integer(let value)?: return UInt64(exactly: value)
    case .unsigned(let value)?: return value
    default: return nil
    }
  }
}

/// `biki/read` with its `text` given plainly, and `as` left out or one of the kinds.
struct PlainRead {
  var text: String
  var kind: PhraseKind?

  init?(_ params: JSON?) {
    guard
      let fields = PlainFields.read(
        params, ["text", "as"],
        { bytes, found -> (String, PhraseKind?)? in
          guard let text = found[0].flatMap({ JSONScan.unescapedString(bytes[$0]) }) else { return nil }
          guard let kind = found[1] else { return (text, nil) }
          guard let name = JSONScan.unescapedString(bytes[kind]), let known = PhraseKind(rawValue: name) else {
            return nil
          }
          return (text, known)
        })
    else { return nil }
    (text, kind) = fields
  }
}
