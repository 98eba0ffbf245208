#if canImport(Glibc)
  import Glibc
#endif

/// The one way Biki opens a file to read: never blocking on a FIFO or a device, only ever a
/// regular file, never more than the caller means to hold.
package enum RegularFile {
  /// Whether a symbolic link at the path itself is followed: packs may be links into a
  /// checkout; caches and the history are Biki's own and must not lead elsewhere.
  package enum Links: Sendable { case follow, refuse }

  /// Opens `path` with `flags` (O_RDONLY, or O_RDWR | O_APPEND and the like) and returns the
  /// descriptor only if it is a regular file, blocking as usual from then on. The open itself
  /// is non-blocking, since opening a FIFO to read waits for a writer that may never come.
  package static func open(_ path: String, flags: Int32 = O_RDONLY, links: Links = .follow) throws(FileError) -> Int32 {
    let noFollow = links == .refuse
    let descriptor = Glibc.open(path, flags | O_NONBLOCK | O_CLOEXEC | (noFollow ? O_NOFOLLOW : 0))
    guard descriptor >= 0 else { throw FileError.of(errno: errno, noFollow: noFollow) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let reason = errno
      close(descriptor)
      throw FileError.of(errno: reason, noFollow: noFollow)
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw FileError.notRegular(what: FileError.what(mode: status.st_mode))
    }
    let descriptorFlags = fcntl(descriptor, F_GETFL)
    if descriptorFlags >= 0 { _ = fcntl(descriptor, F_SETFL, descriptorFlags & ~O_NONBLOCK) }
    return descriptor
  }

  /// The whole of the regular file at `path`, if it holds at most `limit` bytes.
  package static func read(_ path: String, limit: Int, links: Links = .follow) throws(FileError) -> [UInt8] {
    let descriptor = try open(path, links: links)
    defer { close(descriptor) }
    return try readAll(descriptor, limit: limit)
  }

  /// The whole of an open regular file, if it holds at most `limit` bytes.
  package static func readAll(_ descriptor: Int32, limit: Int) throws(FileError) -> [UInt8] {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw FileError.of(errno: errno, noFollow: false) }
    guard status.st_size <= limit else { throw FileError.tooLarge(limit: limit) }
    return read(descriptor, at: 0, count: Int(status.st_size))
  }

  /// Up to `count` bytes at `offset` (fewer at the end of the file, or on a read error).
  package static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: max(0, count))
    let filled = bytes.withUnsafeMutableBytes { read(descriptor, at: offset, into: $0) }
    return filled == bytes.count ? bytes : Array(bytes[..<filled])
  }

  /// Fills `buffer` from `offset` on, as far as the file goes; how many bytes were read. For
  /// long passes over a file that reuse one buffer.
  package static func read(_ descriptor: Int32, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    var filled = 0
    while filled < buffer.count {
      let got = pread(descriptor, base + filled, buffer.count - filled, off_t(offset + filled))
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { break }
      filled += got
    }
    return filled
  }

  /// Size of an open file, nil when fstat fails.
  package static func size(_ descriptor: Int32) -> Int? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    return Int(status.st_size)
  }
}
