import Testing

@testable import BikiJapanese

/// Counters and units after 万, 百万, 億 and 兆: the final component is the unit, so only the
/// counters that change after ん (本, 匹, 杯, 分, 羽) differ from number + counter.
@Suite struct LargeCountReadingTests {
  static let rows: [(Counter, UInt128, String)] = [
    (.ko, 10_000, "いちまんこ"), (.ko, 1_000_000, "ひゃくまんこ"), (.ko, 100_000_000, "いちおくこ"), (.ko, 1_000_000_000_000, "いっちょうこ"),
    (.hon, 20_000, "にまんぼん"), (.hon, 10_000_000, "いっせんまんぼん|せんまんぼん"), (.hon, 100_000_000, "いちおくほん"),
    (.hon, 1_000_000_000_000, "いっちょうほん"),
    (.hiki, 1_000_000, "ひゃくまんびき"), (.hiki, 100_000_000, "いちおくひき"),
    (.hai, 30_000, "さんまんばい"), (.hai, 100_000_000, "いちおくはい"),
    (.satsu, 10_000, "いちまんさつ"), (.satsu, 100_000_000, "いちおくさつ"),
    (.mai, 10_000, "いちまんまい"), (.mai, 1_000_000, "ひゃくまんまい"),
    (.dai, 10_000, "いちまんだい"), (.dai, 100_000_000, "いちおくだい"),
    (.kai, 10_000, "いちまんかい"), (.kai, 1_000_000, "ひゃくまんかい"),
    (.nin, 10_000, "いちまんにん"), (.nin, 1_000_000, "ひゃくまんにん"), (.nin, 100_000_000, "いちおくにん"),
    (.nin, 124_000_000, "いちおくにせんよんひゃくまんにん"),
    (.ken, 100_000_000, "いちおくけん"), (.soku, 100_000_000, "いちおくそく"),
    (.chaku, 10_000, "いちまんちゃく"), (.tou, 10_000, "いちまんとう"),
    (.kenCase, 10_000, "いちまんけん"), (.kenCase, 1_000_000, "ひゃくまんけん"),
    (.doCounter, 10_000, "いちまんど"), (.tsuu, 10_000, "いちまんつう"), (.kan, 10_000, "いちまんかん"),
    (.kyoku, 10_000, "いちまんきょく"), (.kyoku, 100_000_000, "いちおくきょく"),
    (.yen, 10_000, "いちまんえん"), (.yen, 1_000_000, "ひゃくまんえん"), (.yen, 100_000_000, "いちおくえん"),
    (.yen, 1_000_000_000_000, "いっちょうえん"), (.yen, 2_000_000, "にひゃくまんえん"), (.yen, 15_000_000, "せんごひゃくまんえん"),
    (.yen, 10_000_000_000_000, "じゅっちょうえん|じっちょうえん"),
    (.minute, 10_000, "いちまんぷん"), (.minute, 100_000_000, "いちおくふん"),
    (.second, 10_000, "いちまんびょう"), (.hours, 10_000, "いちまんじかん"), (.year, 10_000, "いちまんねん"),
    (.day, 10_000, "いちまんにち"), (.weeks, 10_000, "いちまんしゅうかん"), (.months, 10_000, "いちまんかげつ"),
  ]

  struct Case: CustomTestStringConvertible, Sendable {
    var counter: Counter
    var value: UInt128
    var expected: [String]
    var testDescription: String { "\(value)\(counter.symbol) → \(expected.joined(separator: "|"))" }
  }

  static let cases = rows.map {
    Case(counter: $0.0, value: $0.1, expected: $0.2.split(separator: "|").map(String.init))
  }

  @Test(arguments: cases)
  func reads(_ testCase: Case) {
    expectReadings(testCase.value, testCase.counter, testCase.expected)
  }
}
