/// Numbers of daily life that are not a number and a counter: phone numbers and postcodes read
/// digit by digit, addresses (1-2-3), the 24-hour clock (16:00), scores (3対1) and the lines of
/// 九九 (2×3=6 にさんがろく). Each is recognised by the shape of the whole text, before the phrase
/// reader tokenises it. Sources in docs/readings.md ("Everyday numbers").
enum EverydayNumbers {
  /// The reading of `text` when its whole shape is one of these, else nil; a shape that matches
  /// with values that cannot be (25:00, 3×0) is an error.
  static func reading(of text: String) throws(ReadingError) -> Reading? {
    // Most texts have none of these marks: they pay one scan and no copy.
    guard text.unicodeScalars.contains(where: isMark) else { return nil }
    let scalars = Array(text.unicodeScalars)
    guard let first = scalars.first, first == "〒" || digit(first) != nil else { return nil }
    if let groups = hyphenGroups(scalars) { return try groupReading(groups, postcode: first == "〒", text: text) }
    if let reading = try clock(scalars, text: text) { return reading }
    if let reading = score(scalars) { return reading }
    if let reading = try multiplication(scalars, text: text) { return reading }
    return nil
  }

  private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "-", "－", "‐", "−", ":", "：", "対", "×", "x", "X", "*", "✕", "〒": true
    default: false
    }
  }

  /// An ASCII or full-width digit's value.
  static func digit(_ scalar: Unicode.Scalar) -> UInt8? {
    switch scalar.value {
    case 0x30...0x39: UInt8(scalar.value - 0x30)
    case 0xFF10...0xFF19: UInt8(scalar.value - 0xFF10)
    default: nil
    }
  }

  /// Digits said one by one, as in phone numbers: 0 ぜろ (れい, as NHK reads it, and まる, as
  /// rooms and numbers are said aloud), 2 and 5 also
  /// lengthened (にい, ごお), 4 よん, 7 なな, 9 きゅう — never し, しち, く.
  static let spokenDigits: [[String]] = [
    ["ぜろ", "れい", "まる"], ["いち"], ["に", "にい"], ["さん"], ["よん"], ["ご", "ごお"], ["ろく"], ["なな"], ["はち"], ["きゅう"],
  ]

  // MARK: Phone numbers, postcodes, addresses

  /// Digit groups joined by hyphens (`090-1234-5678`, `〒420-0857`, `1-2-3`); nil for any other
  /// shape. At most 6 groups of at most 6 digits: no phone number or address has more.
  private static func hyphenGroups(_ scalars: [Unicode.Scalar]) -> [[UInt8]]? {
    var groups: [[UInt8]] = [[]]
    for scalar in scalars.drop(while: { $0 == "〒" }) {
      if let value = digit(scalar) {
        guard groups[groups.count - 1].count < 6 else { return nil }
        groups[groups.count - 1].append(value)
      } else if scalar == "-" || scalar == "－" || scalar == "‐" || scalar == "−" {
        guard !groups[groups.count - 1].isEmpty, groups.count < 6 else { return nil }
        groups.append([])
      } else {
        return nil
      }
    }
    guard groups.count >= 2, groups.allSatisfy({ !$0.isEmpty }) else { return nil }
    return groups
  }

  /// A phone number or postcode (starting with 0, or after 〒) is read digit by digit, its groups
  /// joined by の or said with a pause; an address (1-2-3) group by group, as numbers joined by の
  /// (without it, 3-15-5 さんじゅうごご could be 35-5).
  private static func groupReading(_ groups: [[UInt8]], postcode: Bool, text: String) throws(ReadingError) -> Reading {
    let byDigit = postcode || groups[0].first == 0
    var parts: [ReadingSegment] = []
    for (index, group) in groups.enumerated() {
      if index > 0 { parts.append(byDigit ? ReadingSegment(["の", ""]) : ReadingSegment("の")) }
      if byDigit {
        parts += group.map { ReadingSegment(distinct: spokenDigits[Int($0)]) }
      } else {
        let value = group.reduce(UInt128(0)) { $0 * 10 + UInt128($1) }
        guard group.first != 0 || group.count == 1 else {
          throw .unreadable(
            text, reason: "an address's numbers do not start with 0; a phone number does, and is read digit by digit")
        }
        parts += try JapaneseNumber.reading(of: value).parts
      }
    }
    return Reading(parts: parts)
  }

  // MARK: The 24-hour clock

  /// `16:00`, `4:30`, `0:15`, `23:59`: the hour as 時 reads it, then the minutes; :00 adds
  /// nothing, :30 is はん or さんじゅっぷん.
  private static func clock(_ scalars: [Unicode.Scalar], text: String) throws(ReadingError) -> Reading? {
    guard let colon = scalars.firstIndex(where: { $0 == ":" || $0 == "：" }), colon >= 1, colon <= 2,
      scalars.count == colon + 3
    else { return nil }
    let hourDigits = scalars[..<colon].compactMap(digit)
    let minuteDigits = scalars[(colon + 1)...].compactMap(digit)
    guard hourDigits.count == colon, minuteDigits.count == 2 else { return nil }
    let hour = hourDigits.reduce(0) { $0 * 10 + Int($1) }
    let minute = Int(minuteDigits[0]) * 10 + Int(minuteDigits[1])
    guard hour <= 24, minute <= 59, hour < 24 || minute == 0 else {
      throw .unreadable(text, reason: "\(text) is not a time: hours 0–24, minutes 00–59, and 24:00 at most")
    }
    return try JapaneseNumber.clockReading(hour: hour, minute: minute)
  }

  // MARK: Scores

  /// `3対1` さんたいいち, `2対0` にたいれい|にたいぜろ: each side a number as said.
  private static func score(_ scalars: [Unicode.Scalar]) -> Reading? {
    guard let versus = scalars.firstIndex(of: "対"), versus > 0, versus < scalars.count - 1 else { return nil }
    let left = scalars[..<versus].compactMap(digit)
    let right = scalars[(versus + 1)...].compactMap(digit)
    guard left.count == versus, right.count == scalars.count - versus - 1, left.count <= 3, right.count <= 3 else {
      return nil
    }
    func side(_ digits: [UInt8]) -> [ReadingSegment] {
      let value = digits.reduce(UInt128(0)) { $0 * 10 + UInt128($1) }
      if value == 0 { return [ReadingSegment(distinct: ["れい", "ぜろ"])] }
      return (try? JapaneseNumber.said(value).parts) ?? []
    }
    return Reading(parts: side(left) + [ReadingSegment("たい")] + side(right))
  }

  // MARK: 九九

  /// `2×3=6` (or `2×3`) as the line of the multiplication chant; ×, x, X and * all multiply.
  private static func multiplication(_ scalars: [Unicode.Scalar], text: String) throws(ReadingError) -> Reading? {
    guard scalars.count >= 3, let a = digit(scalars[0]), ["×", "x", "X", "*", "✕"].contains(scalars[1]),
      let b = digit(scalars[2])
    else { return nil }
    if scalars.count > 3 {
      guard scalars[3] == "=" || scalars[3] == "＝" else { return nil }
      let product = scalars[4...].compactMap(digit)
      // At most two digits: 9×9 is 81, and a longer run must not overflow the sum.
      guard product.count == scalars.count - 4, (1...2).contains(product.count),
        product.reduce(0, { $0 * 10 + Int($1) }) == Int(a) * Int(b)
      else { throw .unreadable(text, reason: "\(a)×\(b) is \(Int(a) * Int(b))") }
    }
    guard (1...9).contains(a), (1...9).contains(b) else {
      throw .unreadable(text, reason: "九九 runs from 1×1 to 9×9")
    }
    return Reading(parts: [ReadingSegment(kuku[Int(a - 1) * 9 + Int(b - 1)])])
  }

  /// The 81 lines of the chant, 1×1 to 9×9, the usual form first; alternates are the variants
  /// schools and regions use (はっさん for 8×3, よんじゅう for the forties).
  static let kuku: [[String]] = [
    ["いんいちがいち"], ["いんにがに"], ["いんさんがさん"], ["いんしがし"], ["いんごがご"], ["いんろくがろく"], ["いんしちがしち"],
    ["いんはちがはち"], ["いんくがく"],
    ["にいちがに"], ["ににんがし"], ["にさんがろく"], ["にしがはち"], ["にごじゅう"], ["にろくじゅうに"], ["にしちじゅうし"],
    ["にはちじゅうろく"], ["にくじゅうはち"],
    ["さんいちがさん"], ["さんにがろく", "さにがろく"], ["さざんがく"], ["さんしじゅうに"], ["さんごじゅうご"],
    ["さぶろくじゅうはち", "さんろくじゅうはち"], ["さんしちにじゅういち"], ["さんぱにじゅうし"], ["さんくにじゅうしち"],
    ["しいちがし"], ["しにがはち"], ["しさんじゅうに"], ["ししじゅうろく"], ["しごにじゅう"], ["しろくにじゅうし"],
    ["ししちにじゅうはち"], ["しはさんじゅうに", "しわさんじゅうに"], ["しくさんじゅうろく"],
    ["ごいちがご"], ["ごにじゅう"], ["ごさんじゅうご"], ["ごしにじゅう"], ["ごごにじゅうご"], ["ごろくさんじゅう"],
    ["ごしちさんじゅうご"], ["ごはしじゅう", "ごはよんじゅう"], ["ごっくしじゅうご", "ごっくよんじゅうご", "ごくしじゅうご"],
    ["ろくいちがろく"], ["ろくにじゅうに"], ["ろくさんじゅうはち"], ["ろくしにじゅうし"], ["ろくごさんじゅう"],
    ["ろくろくさんじゅうろく"], ["ろくしちしじゅうに", "ろくしちよんじゅうに"],
    ["ろくはしじゅうはち", "ろっぱしじゅうはち", "ろくはよんじゅうはち"], ["ろっくごじゅうし"],
    ["しちいちがしち"], ["しちにじゅうし"], ["しちさんにじゅういち"], ["しちしにじゅうはち"], ["しちごさんじゅうご"],
    ["しちろくしじゅうに", "しちろくよんじゅうに"], ["しちしちしじゅうく", "しちしちよんじゅうく", "しちしちしじゅうきゅう"],
    ["しちはごじゅうろく", "しちはちごじゅうろく"], ["しちくろくじゅうさん"],
    ["はちいちがはち"], ["はちにじゅうろく"], ["はちさんにじゅうし", "はっさんにじゅうし"], ["はちしさんじゅうに", "はっしさんじゅうに"],
    ["はちごしじゅう", "はちごよんじゅう"], ["はちろくしじゅうはち", "はちろくよんじゅうはち"], ["はちしちごじゅうろく"],
    ["はっぱろくじゅうし"], ["はっくしちじゅうに"],
    ["くいちがく"], ["くにじゅうはち"], ["くさんにじゅうしち"], ["くしさんじゅうろく"], ["くごしじゅうご", "くごよんじゅうご"],
    ["くろくごじゅうし"], ["くしちろくじゅうさん"], ["くはしちじゅうに"], ["くくはちじゅういち"],
  ]
}
