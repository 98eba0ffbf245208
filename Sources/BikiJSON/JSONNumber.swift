/// Numbers: how a literal becomes a value, and how a value is read back as a whole number.
extension JSON {
  /// An integer literal that fits Int64 is read from its digits; 2^63 to 2^64−1 (a seed) stays
  /// exact as `unsigned`; anything else (a fraction, an exponent, a larger number) as Double
  /// reads it.
  package static func number(literal: Slice<UnsafeBufferPointer<UInt8>>) -> JSON {
    var value: Int64 = 0
    var digits = literal[...]
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    for digit in digits {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else {
        return .double(Double(String(decoding: literal, as: UTF8.self)) ?? 0)
      }
      let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) =
        negative
        ? times10.subtractingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
        : times10.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
      guard !overflow, !overflow2 else {
        let text = String(decoding: literal, as: UTF8.self)
        return (negative ? nil : UInt64(text).map(JSON.unsigned)) ?? .double(Double(text) ?? 0)
      }
      value = next
    }
    return .integer(value)
  }

  /// The value as a whole number from 0 to 2^64−1, written any way JSON writes one: 4, 5.0, 1e3,
  /// 18446744073709551615. Nil for anything else (a fraction, a number below 0 or from 2^64).
  package var unsignedValue: UInt64? {
    switch self {
    case .integer(let value): UInt64(exactly: value)
    case .unsigned(let value): value
    case .double(let value) where value.rounded() == value: UInt64(exactly: value)
    case .written: unwrapped.unsignedValue
    default: nil
    }
  }

  /// A number as an error message names it: whole ones in digits (9223372036854775808, not
  /// 9.22e18), fractions as written.
  package var numberDescription: String {
    switch unwrapped {
    case .integer(let value): String(value)
    case .unsigned(let value): String(value)
    case .double(let value) where value.rounded() == value && value.magnitude < 18_446_744_073_709_551_616:
      value < 0 ? "-" + String(UInt64(value.magnitude)) : String(UInt64(value))
    case .double(let value) where value.rounded() == value:
      value < 0 ? "a number below -2^64" : "a number of 2^64 or more"
    case .double(let value): String(value)
    default: kindDescription
    }
  }
}
