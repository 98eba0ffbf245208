#if canImport(Glibc)
  import Glibc
#endif

/// Writing a file whole or not at all: what the history's summary, the caches and `biki install`
/// share.
package enum WholeFile {
  package struct Failure: Error, CustomStringConvertible, Sendable {
    package var description: String
  }

  /// Writes `bytes` to a temporary file beside `path` (never through a symbolic link), gives it
  /// `mode`, and renames it over `path`: readers see the old file or the new one, never half,
  /// and a running program replaced this way keeps running.
  package static func replace(_ path: String, with bytes: [UInt8], mode: mode_t) throws(Failure) {
    let temporary = path + ".\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw Failure(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
    var written = 0
    let complete = bytes.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress else { return true }
      while written < raw.count {
        let count = write(descriptor, base + written, raw.count - written)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        written += count
      }
      return true
    }
    let reason = String(cString: strerror(errno))
    // The mode given to open loses what the umask masks; say it again in full.
    fchmod(descriptor, mode)
    close(descriptor)
    guard complete else {
      unlink(temporary)
      throw Failure(description: "cannot write \(temporary): \(reason)")
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw Failure(description: "cannot put \(path) in place: \(reason)")
    }
  }
}
