import Foundation

/// The file system as the host uses it: a struct of closures, so tests run against an
/// in-memory tree and only `live` touches the disk.
public struct FileSystem: Sendable {
  public enum Kind: Sendable { case file, directory }

  /// What is at a path, or nil when nothing is.
  public var kind: @Sendable (_ path: String) -> Kind?
  /// Entry names in a directory (not paths), unsorted.
  public var contents: @Sendable (_ directory: String) throws -> [String]
  public var read: @Sendable (_ path: String) throws -> [UInt8]
  /// Writes a new file; fails if one exists.
  public var create: @Sendable (_ path: String, _ bytes: [UInt8]) throws -> Void
  /// Modification time and size, so a watcher can tell a file changed.
  public var stamp: @Sendable (_ path: String) -> FileStamp?
  /// One spelling per file (absolute, `..` and symlinks resolved), so `TopicPacks/a.json`
  /// and `/repo/TopicPacks/a.json` are known to be the same pack.
  public var canonicalPath: @Sendable (_ path: String) -> String

  public init(
    kind: @Sendable @escaping (String) -> Kind?, contents: @Sendable @escaping (String) throws -> [String],
    read: @Sendable @escaping (String) throws -> [UInt8], create: @Sendable @escaping (String, [UInt8]) throws -> Void,
    stamp: @Sendable @escaping (String) -> FileStamp?, canonicalPath: @Sendable @escaping (String) -> String = { $0 }
  ) {
    self.kind = kind
    self.contents = contents
    self.read = read
    self.create = create
    self.stamp = stamp
    self.canonicalPath = canonicalPath
  }
}

public struct FileStamp: Hashable, Sendable {
  public var modified: Double
  public var size: UInt64
}

public struct FileSystemError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

extension FileSystem {
  /// Packs larger than this are refused unread: a pack is a page of rules, not a data dump.
  public static let maximumPackSize: UInt64 = 8 * 1024 * 1024

  public static let live = FileSystem(
    kind: { path in
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
      return isDirectory.boolValue ? .directory : .file
    },
    contents: { try FileManager.default.contentsOfDirectory(atPath: $0) },
    read: { path in
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      if let size = attributes[.size] as? UInt64, size > maximumPackSize {
        throw FileSystemError("\(path) is \(size) bytes; packs may be at most \(maximumPackSize) bytes")
      }
      return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    },
    create: { path, bytes in
      guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: nil) || false else {
        throw FileSystemError("cannot create \(path)")
      }
    },
    stamp: { path in
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
      let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
      return FileStamp(modified: modified, size: (attributes[.size] as? UInt64) ?? 0)
    },
    canonicalPath: { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path })

  /// An in-memory tree for tests: paths to file contents; directories are implied.
  public static func memory(_ files: [String: [UInt8]]) -> FileSystem {
    let files = files
    return FileSystem(
      kind: { path in
        if files[path] != nil { return .file }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return files.keys.contains { $0.hasPrefix(prefix) } ? .directory : nil
      },
      contents: { directory in
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return Array(Set(files.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count).split(separator: "/")[0]) }))
      },
      read: { path in
        guard let bytes = files[path] else { throw FileSystemError("\(path): no such file") }
        return bytes
      },
      create: { path, _ in throw FileSystemError("\(path): the test file system is read-only") },
      stamp: { path in files[path].map { FileStamp(modified: 0, size: UInt64($0.count)) } })
  }
}
