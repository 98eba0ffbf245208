import Glibc

/// Writing to stdout and stderr without traps: a reader that goes away (`biki quiz | head`)
/// ends the program quietly, as Unix tools do, instead of crashing on EPIPE.
package enum StandardStreams {
  package static func writeOutput(_ text: String) {
    if !write(1, text) { exit(0) }
  }

  package static func writeError(_ text: String) {
    _ = write(2, text)
  }

  /// Writes every byte, retrying interrupted writes; false when the reader is gone.
  static func write(_ descriptor: Int32, _ text: String) -> Bool {
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      written += count
    }
    return true
  }
}
