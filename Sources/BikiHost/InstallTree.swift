import BikiCore
import BikiFiles

#if canImport(Glibc)
  import Glibc
#endif

/// The files of one install prefix, as `biki install` and `biki uninstall` may touch them: only
/// through real directories inside the prefix, never through a symbolic link someone put there,
/// so neither command can write or delete outside it.
package struct InstallTree: Sendable {
  /// Absolute, with symbolic links already resolved: the prefix itself may be a link (a
  /// `~/.local` kept on another disk); nothing below it may.
  var prefix: String

  package init(prefix: String) { self.prefix = prefix }

  package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
  }

  /// An install manifest lists a few dozen files; anything much larger is not one.
  static let maximumManifestSize = 1 << 20

  package func absolute(_ relative: String) -> String { Installation.join(prefix, relative) }

  /// Every directory between the prefix and `relative` that exists must be a real directory
  /// (by `lstat`, so a symbolic link is seen as one); the missing ones an install creates.
  package func checkDirectories(of relative: String) throws(Refusal) {
    let parts = relative.split(separator: "/").map(String.init)
    var directory = prefix
    for part in parts.dropLast() {
      directory = Installation.join(directory, part)
      var status = stat()
      guard lstat(directory, &status) == 0 else {
        if errno == ENOENT { return }
        throw Refusal(description: "cannot look at \(directory): \(String(cString: strerror(errno)))")
      }
      switch status.st_mode & S_IFMT {
      case S_IFDIR: continue
      case S_IFLNK:
        throw Refusal(
          description: "\(directory) is a symbolic link; Biki only touches real directories inside the prefix")
      default:
        throw Refusal(description: "\(directory) is not a directory")
      }
    }
  }

  /// Creates the directories `relative` needs (checked first with `checkDirectories`).
  package func makeDirectories(of relative: String) throws(Refusal) {
    // The prefix itself is the user's to name, so it is made as `mkdir -p` would.
    var directory = ""
    for part in prefix.split(separator: "/") {
      directory += "/" + part
      guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
        throw Refusal(description: "cannot create \(directory): \(String(cString: strerror(errno)))")
      }
    }
    for part in relative.split(separator: "/").dropLast() {
      directory = Installation.join(directory, String(part))
      guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
        throw Refusal(description: "cannot create \(directory): \(String(cString: strerror(errno)))")
      }
    }
    // Something made in the meantime is looked at again, never trusted.
    try checkDirectories(of: relative)
  }

  /// What is at a path a manifest lists.
  package enum Found: Sendable, Equatable {
    case nothing
    case file(hash: UInt64)
    case notAFile
  }

  /// Looks at `relative` without following a symbolic link or waiting on a FIFO, and hashes it
  /// when it is a regular file.
  package func inspect(_ relative: String) throws(Refusal) -> Found {
    let path = absolute(relative)
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      switch errno {
      case ENOENT: return .nothing
      case ELOOP: return .notAFile
      default: throw Refusal(description: "cannot read \(path): \(String(cString: strerror(errno)))")
      }
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .notAFile }
    var hasher = Fingerprint()
    var offset = 0
    while true {
      let chunk = RegularFile.read(descriptor, at: offset, count: 1 << 20)
      guard !chunk.isEmpty else { break }
      hasher.add(chunk)
      offset += chunk.count
    }
    return .file(hash: hasher.value)
  }

  /// The manifest an earlier install left, or nil when there is none. Read only when it is a
  /// regular file of a sane size, so a FIFO, a device or a huge file is refused at once.
  package func readManifest() throws(Refusal) -> [InstallPlan.Entry]? {
    try checkDirectories(of: InstallPlan.manifestPath)
    let path = absolute(InstallPlan.manifestPath)
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      switch errno {
      case ENOENT: return nil
      case ELOOP: throw Refusal(description: "\(path) is a symbolic link, not Biki's install manifest")
      default: throw Refusal(description: "cannot read \(path): \(String(cString: strerror(errno)))")
      }
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw Refusal(description: "\(path) is not a regular file, so it is not Biki's install manifest")
    }
    let limit = Self.maximumManifestSize
    guard status.st_size <= limit else {
      throw Refusal(
        description: "\(path) is \(status.st_size) bytes, more than an install manifest can be (\(limit) bytes)")
    }
    // The size is asked again of what is read, in case the file grew meanwhile.
    let bytes = RegularFile.read(descriptor, at: 0, count: limit + 1)
    guard bytes.count <= limit else {
      throw Refusal(description: "\(path) is more than an install manifest can be (\(limit) bytes)")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw Refusal(description: "\(path) is not text, so it is not Biki's install manifest")
    }
    do {
      return try InstallPlan.entries(inManifest: text)
    } catch {
      throw Refusal(description: "\(error)")
    }
  }
}
