#if canImport(Glibc)
  import Glibc
#endif

/// Why a file could not be read, as a short reason a message can embed after the path it names.
package enum FileError: Error, Equatable, CustomStringConvertible, Sendable {
  case missing
  /// A symbolic link where only a file of our own is meant (opened with O_NOFOLLOW).
  case symbolicLink
  /// Something that is not a regular file; `what` says which ("a FIFO", "a directory").
  case notRegular(what: String)
  case tooLarge(limit: Int)
  /// Any other failure, as the system says it.
  case system(String)

  package var description: String {
    switch self {
    case .missing: "no such file or directory"
    case .symbolicLink: "it is a symbolic link"
    case .notRegular(let what): "not a regular file (\(what))"
    case .tooLarge(let limit): "larger than \(limit) bytes"
    case .system(let reason): reason
    }
  }

  /// The failure an `errno` from open or read stands for.
  static func of(errno code: Int32, noFollow: Bool) -> FileError {
    switch code {
    case ENOENT: .missing
    case ELOOP where noFollow: .symbolicLink
    default: .system(String(cString: strerror(code)).lowercased())
    }
  }

  /// What a file type is called in a message.
  static func what(mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "of an unknown kind"
    }
  }
}
