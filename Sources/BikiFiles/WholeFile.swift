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
    guard descriptor >= 0 else {
      throw Failure(description: "cannot write \(temporary): \(String(cString: strerror(errno)))")
    }
    let failure = write(descriptor, bytes)
    // The mode given to open loses what the umask masks; say it again in full.
    fchmod(descriptor, mode)
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw Failure(description: "cannot write \(temporary): \(failure)")
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw Failure(description: "cannot put \(path) in place: \(reason)")
    }
  }

  /// Writes all of `bytes` to an open file, going on after a signal interrupts; nil when all
  /// were written, else why not (as the system says it).
  package static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> String? {
    bytes.withUnsafeBytes { raw -> String? in
      guard let base = raw.baseAddress else { return nil }
      var written = 0
      while written < raw.count {
        let count = Glibc.write(descriptor, base + written, raw.count - written)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return count < 0 ? String(cString: strerror(errno)) : "nothing could be written" }
        written += count
      }
      return nil
    }
  }
}
