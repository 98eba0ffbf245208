import Testing

@testable import BikiJapanese

/// A table of `value reading|alternate|…` lines, the standard reading first.
struct ReadingTable {
  struct Row: CustomTestStringConvertible, Sendable {
    var value: UInt128
    var readings: [String]
    var testDescription: String { "\(value) → \(readings.joined(separator: "|"))" }
  }

  static func rows(_ table: String) -> [Row] {
    table.split(separator: "\n").map { line in
      let parts = line.split(separator: " ")
      return Row(value: UInt128(String(parts[0]))!, readings: parts[1].split(separator: "|").map(String.init))
    }
  }
}

/// Asserts the reading of `value` with `counter` is exactly `expected`, standard first.
func expectReadings(
  _ value: UInt128, _ counter: Counter, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    let reading = try JapaneseNumber.reading(of: value, with: counter)
    #expect(reading.standard == expected[0], "\(value)\(counter.symbol)", sourceLocation: sourceLocation)
    #expect(reading.all() == expected, "\(value)\(counter.symbol)", sourceLocation: sourceLocation)
    for kana in expected {
      #expect(reading.accepts(kana), "\(value)\(counter.symbol) accepts \(kana)", sourceLocation: sourceLocation)
    }
  } catch {
    Issue.record("\(value)\(counter.symbol): \(error)", sourceLocation: sourceLocation)
  }
}
