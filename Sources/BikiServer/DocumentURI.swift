/// `file://` URIs as editors send them (RFC 8089 with percent-encoding), to and from paths.
enum DocumentURI {
  /// The path of a `file:` URI; nil for other schemes or a malformed escape.
  static func path(_ uri: String) -> String? {
    guard uri.hasPrefix("file://") else { return nil }
    var rest = Substring(uri.dropFirst(7))
    // `file://localhost/x` and `file:///x` name the same file; another host is not ours.
    if rest.hasPrefix("localhost/") { rest = rest.dropFirst(9) }
    guard rest.hasPrefix("/") else { return nil }
    var bytes: [UInt8] = []
    var utf8 = Array(rest.utf8)[...]
    while let byte = utf8.popFirst() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let highDigit = utf8.popFirst(), let lowDigit = utf8.popFirst(), let high = hexValue(highDigit),
        let low = hexValue(lowDigit)
      else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// A `file:` URI for an absolute path, escaping what RFC 3986 does not allow in a path.
  static func fileURI(_ path: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var uri = "file://"
    for byte in path.utf8 {
      let allowed =
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
        || "/-._~!$&'()*+,;=:@".utf8.contains(byte)
      if allowed {
        uri.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        uri += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
      }
    }
    return uri
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
