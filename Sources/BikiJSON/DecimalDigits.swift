/// A whole number's decimal digits written into bytes, without a String: the JSON writer's
/// integers and the protocol's frame headers both write them, on every answer.
package enum DecimalDigits {
  /// How many digits `value` has (one for zero).
  @inline(__always)
  package static func count(_ value: UInt64) -> Int {
    var (count, rest) = (1, value / 10)
    while rest > 0 {
      count += 1
      rest /= 10
    }
    return count
  }

  /// Writes `value`'s digits at `end` and moves it past them; `buffer` has room for
  /// `count(value)` bytes there (20 at most). From the last digit back: each step divides by
  /// ten, which compiles to a multiplication.
  @inline(__always)
  package static func write(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at end: inout Int) {
    let count = count(value)
    var rest = value
    var index = end + count
    repeat {
      index -= 1
      buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    } while index > end
    end += count
  }
}
