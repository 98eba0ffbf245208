import BikiCore
import BikiPacks
import FuzzDriver

/// Packs built from the input bytes rather than mutated as bytes: every pack is well-formed
/// JSON with the pack's shape, so the fuzzer spends its time in validation, compilation and
/// generation — extreme numbers, deep and odd expressions, every function with every arity,
/// counters with strange readings — instead of in the JSON parser.
@main enum Target {
  static func main() { runFuzzer(fuzzStructuredPack) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStructuredPack(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = Choices(bytes(data, size))
  let text = PackBuilder.pack(&input)
  let compilation = PackCompiler.compile(Array(text.utf8), check: .sample(16))
  for topic in compilation.topics {
    guard let generator = try? topic.generator() else { continue }
    for seed in [0, 1, generator.spaceSize / 2, generator.spaceSize &- 1] { _ = try? generator.question(seed: seed) }
    for parameter in topic.topic.parameters {
      for value in [parameter.minimum, parameter.maximum, input.integer()] {
        _ = try? topic.generator(parameters: [parameter.name: value]).question(seed: input.integer().magnitude)
      }
    }
  }
  return 0
}

/// Reads decisions from the fuzzer's bytes; when they run out, every choice is the first.
struct Choices {
  let bytes: [UInt8]
  var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func byte() -> UInt8 {
    defer { position += 1 }
    return position < bytes.count ? bytes[position] : 0
  }

  mutating func below(_ count: Int) -> Int { count <= 1 ? 0 : Int(byte()) % count }

  mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

  /// Integers a pack author might write, weighted to the edges.
  mutating func integer() -> Int64 {
    switch below(6) {
    case 0: return pick([0, 1, -1, 2, 7, 10, 12, 24, 31, 100, 1000, 9999, 10_000])
    case 1:
      return pick([Int64.max, Int64.min + 1, Int64.max - 1, Int64(Int32.max), Int64(Int32.min), 1 << 62, -(1 << 62)])
    case 2: return pick([1868, 1912, 1926, 1989, 2019, 2024, 9999, 10_000, 100_000_000])
    default:
      var value: Int64 = 0
      for _ in 0..<below(9) { value = value << 8 | Int64(byte()) }
      return byte() & 1 == 0 ? value : -value
    }
  }
}

enum PackBuilder {
  static let names = ["n", "m", "d", "y", "c", "k", "x_1", "名", "undefined"]
  static let counters = [
    "c", "本", "hon", "日", "month", "dayOfMonth", "year", "tsu", "つ", "nin", "hour", "yen", "mine", "皿", "unknown", "",
  ]
  static let readings = ["ほん", "はっぽん", "ホン", "ほ\u{309A}ん", "", "ぱーせんと", "x", "さら", "ろぐ゚"]
  static let texts = [
    "8本", "三月", "鉛筆", "9月31日", "令和元年", "", "¥1,500", "半", "十", "-", "–", "▲", "・", "発", ":", "1", "/", "分の",
    "気温", "0", ".",
  ]

  static func quoted(_ text: String) -> String {
    "\"" + text.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "\\" + String($0) : String($0) }.joined() + "\""
  }

  static func pack(_ input: inout Choices) -> String {
    var counters: [String] = []
    for _ in 0..<input.below(3) { counters.append(counter(&input)) }
    let topics = (0..<(1 + input.below(3))).map { topic(&input, index: $0) }
    return """
      {"format": 1, "id": "fuzz", "title": "F", "version": "1", "counters": [\(counters.joined(separator: ","))],
       "topics": [\(topics.joined(separator: ","))]}
      """
  }

  static func counter(_ input: inout Choices) -> String {
    var fields = [
      #""id": "mine""#, #""symbols": [\#(quoted(input.pick(["皿", "", "1", "万個", "個目"])))]"#,
      #""reading": \#(quoted(input.pick(readings)))"#,
    ]
    if input.below(2) == 1 {
      fields.append(#""final": {\#(quoted(String(input.integer()))): \#(quoted(input.pick(readings)))}"#)
    }
    if input.below(2) == 1 {
      fields.append(#""whole": {\#(quoted(String(input.integer().magnitude))): \#(quoted(input.pick(readings)))}"#)
    }
    if input.below(2) == 1 { fields.append(#""values": {"min": \#(input.integer()), "max": \#(input.integer())}"#) }
    return "{" + fields.joined(separator: ",") + "}"
  }

  static func topic(_ input: inout Choices, index: Int) -> String {
    var variables: [String] = []
    for name in names.prefix(1 + input.below(5)) { variables.append("\(quoted(name)): \(variable(&input))") }
    var parts: [String] = []
    for _ in 0..<(1 + input.below(3)) { parts.append(part(&input)) }
    var parameters: [String] = []
    for _ in 0..<input.below(3) {
      let target = input.pick(names) + "." + input.pick(["min", "max", "step", "top"])
      parameters.append(
        #"\#(quoted(input.pick(["min", "max", "step"]))): {"target": \#(quoted(target)), "min": \#(input.integer()), "max": \#(input.integer())}"#
      )
    }
    return """
      {"id": "t\(index)", "title": "T", "description": "d", "category": "number", "skills": ["reading", "kana"],
       "variables": {\(variables.joined(separator: ","))}, "parameters": {\(parameters.joined(separator: ","))},
       "question": {"parts": [\(parts.joined(separator: ","))], "answer": \(answer(&input))}}
      """
  }

  /// An answer in any of the model's shapes, with what may be typed around it.
  static func answer(_ input: inout Choices) -> String {
    var fields = [#""value": \#(quoted(expression(&input, depth: 0)))"#]
    switch input.below(5) {
    case 0: fields.append(#""decimals": \#(input.pick([1, 2, 6, 0, 7]))"#)
    case 1: fields.append(#""denominator": \#(quoted(expression(&input, depth: 0)))"#)
    case 2: fields.append(#""style": \#(quoted(input.pick(["clock", "slash", "plain", "grouped"])))"#)
    default: break
    }
    if input.below(3) == 0 { fields.append(#""prefix": \#(quoted(input.pick(["¥", "", "第"])))"#) }
    if input.below(3) == 0 { fields.append(#""postfix": \#(quoted(input.pick(["円", "本", "度", "時", ""])))"#) }
    return "{" + fields.joined(separator: ", ") + "}"
  }

  static func variable(_ input: inout Choices) -> String {
    switch input.below(5) {
    case 0:
      return #"{"range": {"min": \#(input.integer()), "max": \#(input.integer()), "step": \#(input.integer())}}"#
    case 1:
      let items = (0..<(1 + input.below(3))).map { _ in
        #"{"text": \#(quoted(input.pick(texts))), "reading": \#(quoted(input.pick(readings))), "value": \#(input.integer())}"#
      }
      return #"{"choice": [\#(items.joined(separator: ","))]}"#
    case 2:
      let eras = (0..<(1 + input.below(3))).map { _ in quoted(input.pick(["明治", "大正", "昭和", "平成", "令和", "慶応"])) }
      return #"{"eraYear": {"eras": [\#(eras.joined(separator: ","))], "through": \#(input.integer())}}"#
    case 3:
      let chosen = (0..<(1 + input.below(3))).map { _ in quoted(input.pick(counters)) }
      return #"{"counters": [\#(chosen.joined(separator: ","))]}"#
    default:
      return #"{"derive": \#(quoted(expression(&input, depth: 0)))}"#
    }
  }

  /// Expressions from the grammar, plus the mistakes: calls with 0–3 arguments of any kind,
  /// runs of unary minus, long sums, unbalanced parentheses.
  static func expression(_ input: inout Choices, depth: Int) -> String {
    if depth > 40 { return input.pick(names) }
    switch input.below(9) {
    case 0: return String(input.integer())
    case 1, 2: return input.pick(names)
    case 3:
      return expression(&input, depth: depth + 1) + input.pick([" + ", " - ", " * ", " / ", " % "])
        + expression(&input, depth: depth + 1)
    case 4: return "(" + expression(&input, depth: depth + 1) + ")"
    case 5:
      let arguments = (0..<input.below(4)).map { _ in expression(&input, depth: depth + 1) }
      return input.pick(["gregorian", "eraYear", "max", "gregorian "]) + "(" + arguments.joined(separator: ", ") + ")"
    case 6: return String(repeating: "-", count: input.below(256)) + input.pick(names)
    case 7: return Array(repeating: input.pick(names), count: 1 + input.below(256)).joined(separator: "+")
    default: return input.pick(["(", ")", "", "9999999999999999999999", "n +", "1/0", "n % 0"])
    }
  }

  /// Parts of every shape the model has: whole numbers in each style, decimals, fractions,
  /// codes read digit by digit, clock times, money, choices, era years and text, so displays
  /// are made of parts that may run together.
  static func part(_ input: inout Choices) -> String {
    switch input.below(9) {
    case 0:
      return
        #"{"number": \#(quoted(expression(&input, depth: 0))), "counter": \#(quoted(input.pick(counters))), "style": \#(quoted(input.pick(["grouped", "plain", "kanjiDigits"])))}"#
    case 5:
      return
        #"{"number": \#(quoted(expression(&input, depth: 0))), "decimals": \#(input.pick([1, 2, 6, 7])), "counter": \#(quoted(input.pick(["度", "円", "本", "つ", "c"])))}"#
    case 6:
      return
        #"{"number": \#(quoted(expression(&input, depth: 0))), "denominator": \#(quoted(expression(&input, depth: 0))), "style": \#(quoted(input.pick(["slash", "grouped"])))}"#
    case 7:
      return
        #"{"number": \#(quoted(expression(&input, depth: 0))), "style": "digits", "width": \#(input.pick([1, 3, 4, 6, 20, 0]))}"#
    case 8: return #"{"clock": \#(quoted(expression(&input, depth: 0)))}"#
    case 1: return #"{"money": \#(quoted(expression(&input, depth: 0)))}"#
    case 2: return #"{"choice": \#(quoted(input.pick(names)))}"#
    case 3: return #"{"eraYear": \#(quoted(input.pick(names)))}"#
    default: return #"{"text": \#(quoted(input.pick(texts))), "reading": \#(quoted(input.pick(readings)))}"#
    }
  }
}
