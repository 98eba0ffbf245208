extension String {
  /// This text's Unicode scalars, for `body` only, in a buffer on the stack when the text is
  /// short (phrases and plugin displays are): read scalar by scalar without an array per text.
  /// With `composingSoundMarks`, kana and a combining sound mark typed apart arrive joined,
  /// as `KanaText.composingSoundMarks` joins them.
  func withScalars<Result, Failure: Error>(
    composingSoundMarks: Bool = false, _ body: (UnsafeBufferPointer<Unicode.Scalar>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var text = self
    let outcome = text.withUTF8 { utf8 in
      // A text has at most as many scalars as bytes.
      withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: Swift.max(utf8.count, 1)) { buffer in
        var count = 0
        var offset = 0
        // A String holds well-formed UTF-8, so each lead byte says how many follow.
        while offset < utf8.count {
          let lead = UInt32(utf8[offset])
          var value: UInt32
          switch lead {
          case ..<0x80:
            value = lead
            offset += 1
          case ..<0xE0:
            value = (lead & 0x1F) << 6 | UInt32(utf8[offset + 1] & 0x3F)
            offset += 2
          case ..<0xF0:
            value = (lead & 0x0F) << 12 | UInt32(utf8[offset + 1] & 0x3F) << 6 | UInt32(utf8[offset + 2] & 0x3F)
            offset += 3
          default:
            value =
              (lead & 0x07) << 18 | UInt32(utf8[offset + 1] & 0x3F) << 12 | UInt32(utf8[offset + 2] & 0x3F) << 6
              | UInt32(utf8[offset + 3] & 0x3F)
            offset += 4
          }
          buffer[count] = Unicode.Scalar(value) ?? "\u{FFFD}"
          count += 1
        }
        if composingSoundMarks {
          count = KanaText.composeSoundMarks(in: UnsafeMutableBufferPointer(rebasing: buffer[..<count]))
        }
        return Swift.Result { () throws(Failure) in try body(UnsafeBufferPointer(rebasing: buffer[..<count])) }
      }
    }
    return try outcome.get()
  }
}
