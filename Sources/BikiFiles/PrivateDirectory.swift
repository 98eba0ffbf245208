#if canImport(Glibc)
  import Glibc
#endif

/// Directories for personal data (the answer history, worker logs): created owner-only.
package enum PrivateDirectory {
  /// Creates `path` and its missing parents with mode 0700 whatever the umask, and returns
  /// `path`. Directories that exist are left as they are; a path that exists and is not a
  /// directory is an error.
  package static func create(_ path: String) throws(PrivateDirectoryError) -> String {
    guard path.hasPrefix("/") else { throw PrivateDirectoryError(path: path, reason: "it is not an absolute path") }
    var prefix = ""
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, 0o700) == 0 {
        // mkdir's mode loses what the umask masks; say it again in full.
        chmod(prefix, 0o700)
        continue
      }
      let reason = errno
      var status = stat()
      guard reason == EEXIST, stat(prefix, &status) == 0 else {
        throw PrivateDirectoryError(path: prefix, reason: String(cString: strerror(reason)))
      }
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw PrivateDirectoryError(path: prefix, reason: "it exists and is not a directory")
      }
    }
    return path
  }
}

package struct PrivateDirectoryError: Error, CustomStringConvertible, Sendable {
  var path: String
  var reason: String
  package var description: String { "cannot create \(path): \(reason)" }
}
