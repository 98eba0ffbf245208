import BikiCore
import BikiJSON
import Foundation

/// Whether the speed tricks docs/performance.md lists under "Invariants" still pay: each trick
/// and the plain way it replaced, timed in alternating batches of one run, so that the machine's
/// swings fall on both alike. Each is held to the floor its line in the baseline file records
/// (`.ci/bench-baseline`: a name and the least ratio of the plain way's time to the trick's); one
/// that falls below fails the run, naming itself.
struct TricksBench {
  struct Trick {
    var name: String
    var note: String
    var trick: (Int) -> Int
    var plain: (Int) -> Int
  }

  /// The floors, by trick name, from lines `name ratio`; `#` starts a comment.
  static func floors(in text: String) -> [String: Double] {
    var floors: [String: Double] = [:]
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].split(separator: " ")
      guard fields.count == 2, let ratio = Double(fields[1]) else { continue }
      floors[String(fields[0])] = ratio
    }
    return floors
  }

  static func tricks() -> [Trick] {
    // Strings as questions carry them: ids, displays, readings in kana, a sentence.
    let texts = [
      "numbers.beginner", "¥1,500", "せんごひゃくえん", "はっぴゃくろくじゅうごえん", "counters.hon", "八本", "はっぽん",
      "令和5年5月5日", "れいわごねんごがついつか", "Count the pencils on the desk, then say how many there are.",
      "じゅうよんまんはっせんえん", "4丁目8番10号",
    ]
    let question: JSON = [
      "topicId": "numbers.beginner", "index": "17", "display": "四百二十", "speechText": "四百二十", "expected": "420",
      "readings": ["よんひゃくにじゅう"], "accepted": ["420"], "hint": "Type the number in digits (420).",
    ]
    let written = JSON.prewritten(question)
    let escaping = Box(JSONWriter())
    let plainEscaping = Box([UInt8]())
    let tree = Box(JSONWriter())
    let kept = Box(JSONWriter())
    return [
      Trick(
        name: "tricks.escape-scan",
        note:
          "JSON strings copied eight bytes at a time into the writer's buffer while none needs an escape, against a plain escaper appending a byte at a time to an array",
        trick: { iteration in
          escaping.value.clear()
          escaping.value.string(texts[iteration % texts.count])
          return escaping.value.withBytes { $0.count }
        },
        plain: { iteration in
          plainEscaping.value.removeAll(keepingCapacity: true)
          plainString(texts[iteration % texts.count], into: &plainEscaping.value)
          return plainEscaping.value.count
        }),
      Trick(
        name: "tricks.written-question",
        note: "a question kept as the bytes written once and sent as they are, against writing its tree again",
        trick: { _ in
          kept.value.clear()
          kept.value.value(written)
          return kept.value.withBytes { $0.count }
        },
        plain: { _ in
          tree.value.clear()
          tree.value.value(question)
          return tree.value.withBytes { $0.count }
        }),
    ]
  }

  /// A JSON string as it is written without the trick: each byte looked at and appended alone.
  static func plainString(_ text: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
      case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
      case UInt8(ascii: "\n"): output.append(contentsOf: "\\n".utf8)
      case UInt8(ascii: "\r"): output.append(contentsOf: "\\r".utf8)
      case UInt8(ascii: "\t"): output.append(contentsOf: "\\t".utf8)
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        output.append(contentsOf: "\\u00".utf8)
        output.append(hex[Int(byte >> 4)])
        output.append(hex[Int(byte & 15)])
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// One line per trick, and whether every one met its floor. A trick with no floor recorded
  /// fails too: a new trick comes with its floor.
  static func run(seconds: Double, floors: [String: Double], selects: (String) -> Bool) -> (lines: [String], met: Bool)
  {
    var lines: [String] = []
    var met = true
    for trick in tricks() where selects(trick.name) {
      let ratio = measure(trick, seconds: seconds)
      guard let floor = floors[trick.name] else {
        lines.append("\(trick.name): \(String(format: "%.2f", ratio))× faster than the plain way; NO floor recorded")
        met = false
        continue
      }
      let verdict = ratio >= floor ? "met" : "NOT met: the trick no longer pays"
      if ratio < floor { met = false }
      lines.append(
        "\(trick.name): \(String(format: "%.2f", ratio))× faster than the plain way  (floor ≥ \(String(format: "%.2f", floor))×: \(verdict))  [\(trick.note)]"
      )
    }
    return (lines, met)
  }

  /// The median, over pairs of batches run one after the other, of the plain way's time over
  /// the trick's.
  static func measure(_ trick: Trick, seconds: Double) -> Double {
    let now = MonotonicClock.live()
    let batch = 5_000
    var sink = 0
    func time(_ operation: (Int) -> Int) -> Double {
      let start = now()
      for iteration in 0..<batch { sink &+= operation(iteration) }
      return now() - start
    }
    _ = (time(trick.trick), time(trick.plain))  // warm up
    let deadline = now() + seconds
    var ratios: [Double] = []
    repeat {
      let trickTime = time(trick.trick)
      let plainTime = time(trick.plain)
      ratios.append(plainTime / max(trickTime, 1e-9))
    } while now() < deadline || ratios.count < 3
    if sink == 42 { print("") }  // keeps the work from being optimised away
    return Spread(ratios).median
  }
}

/// A value the benchmark's closures share and change.
final class Box<Value: ~Copyable> {
  var value: Value
  init(_ value: consuming Value) { self.value = value }
}
