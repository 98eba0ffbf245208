import BikiFiles
import Foundation
import Glibc

/// The file system as the host uses it: a struct of closures, so tests run against an
/// in-memory tree and only `live` touches the disk.
package struct FileSystem: Sendable {
  /// `other` is anything else at a path: a FIFO, a device, a socket, a symbolic link that
  /// leads nowhere. A pack that is one is read like any other, to be reported with why.
  package enum Kind: Sendable { case file, directory, other }

  /// What is at a path (through symbolic links), or nil when nothing is.
  package var kind: @Sendable (_ path: String) -> Kind?
  /// Entry names in a directory (not paths), unsorted.
  package var contents: @Sendable (_ directory: String) throws -> [String]
  package var read: @Sendable (_ path: String) throws -> [UInt8]
  /// Writes a new file; fails if one exists.
  package var create: @Sendable (_ path: String, _ bytes: [UInt8]) throws -> Void
  /// One spelling per file (absolute, `..` and symlinks resolved), so `TopicPacks/a.json`
  /// and `/repo/TopicPacks/a.json` are known to be the same pack.
  package var canonicalPath: @Sendable (_ path: String) -> String
  /// Something that changes when the file at a path changes (size and modification time), to
  /// notice edits by polling; nil when nothing is there.
  var stamp: @Sendable (_ path: String) -> String?
  /// Replaces a regular file's contents whole (readers see the old or the new), keeping its
  /// permissions.
  package var replace: @Sendable (_ path: String, _ bytes: [UInt8]) throws -> Void

  init(
    kind: @Sendable @escaping (String) -> Kind?, contents: @Sendable @escaping (String) throws -> [String],
    read: @Sendable @escaping (String) throws -> [UInt8], create: @Sendable @escaping (String, [UInt8]) throws -> Void,
    canonicalPath: @Sendable @escaping (String) -> String = { $0 },
    stamp: @Sendable @escaping (String) -> String? = { _ in nil },
    replace: @Sendable @escaping (String, [UInt8]) throws -> Void = { path, _ in
      throw FileSystemError("\(path): cannot be rewritten here")
    }
  ) {
    self.kind = kind
    self.contents = contents
    self.read = read
    self.create = create
    self.canonicalPath = canonicalPath
    self.stamp = stamp
    self.replace = replace
  }
}

struct FileSystemError: Error, CustomStringConvertible, Sendable {
  var description: String
  init(_ description: String) { self.description = description }
}

extension FileSystem {
  /// Packs larger than this are refused unread: a pack is a page of rules, not a data dump.
  package static let maximumPackSize = 8 * 1024 * 1024

  package static let live = FileSystem(
    kind: { path in
      var status = stat()
      guard stat(path, &status) == 0 else { return lstat(path, &status) == 0 ? .other : nil }
      switch status.st_mode & S_IFMT {
      case S_IFREG: return .file
      case S_IFDIR: return .directory
      default: return .other
      }
    },
    contents: { try FileManager.default.contentsOfDirectory(atPath: $0) },
    read: { path in try RegularFile.read(path, limit: maximumPackSize) },
    create: { path, bytes in
      guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: nil) || false else {
        throw FileSystemError("cannot create \(path)")
      }
    },
    canonicalPath: { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path },
    stamp: { path in
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      return "\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec):\(status.st_ino)"
    },
    replace: { path, bytes in
      // The file itself, not a link to it: the link stays and its target changes.
      let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
      var status = stat()
      guard stat(target, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
        throw FileSystemError("\(path): not a regular file")
      }
      do {
        try WholeFile.replace(target, with: bytes, mode: status.st_mode & 0o7777)
      } catch {
        throw FileSystemError("\(error)")
      }
    })

  /// An in-memory tree for tests: paths to file contents; directories are implied.
  package static func memory(_ files: [String: [UInt8]]) -> FileSystem {
    let files = files
    return FileSystem(
      kind: { path in
        if files[path] != nil { return .file }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return files.keys.contains { $0.hasPrefix(prefix) } ? .directory : nil
      },
      contents: { directory in
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return Array(
          Set(
            files.keys.filter { $0.hasPrefix(prefix) }.map {
              String($0.dropFirst(prefix.count).split(separator: "/")[0])
            }))
      },
      read: { path in
        guard let bytes = files[path] else { throw FileSystemError("no such file or directory") }
        return bytes
      },
      create: { path, _ in throw FileSystemError("\(path): the test file system is read-only") },
      stamp: { path in files[path].map { "\($0.count):\($0.hashValue)" } })
  }
}
