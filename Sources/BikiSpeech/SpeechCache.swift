import Foundation

/// The audio kept in the speech directory, held under a size: Open JTalk's audio is about
/// 345 KB an utterance, and a server that runs for weeks would otherwise fill the disk. The
/// least recently used go first (a file's modification time is set each time it is used).
package struct SpeechCache: Sendable {
  /// 64 MiB: about 190 utterances, several days of a learner's listening.
  package static let defaultLimit = 64 << 20
  /// A half-made file (its name starts with a dot) older than this was left by a process that
  /// was killed, and is removed.
  static let abandonedAfter: TimeInterval = 120

  var directory: String
  var limit: Int

  package init(directory: String, limit: Int = SpeechCache.defaultLimit) {
    self.directory = directory
    self.limit = limit
  }

  /// Marks a kept file as used now.
  static func touch(_ path: String) {
    _ = utimensat(AT_FDCWD, path, nil, AT_SYMLINK_NOFOLLOW)
  }

  /// `path` when audio is kept there (a regular file that reads as a WAV), marked used now.
  static func reuse(_ path: String) -> String? {
    guard OpenJTalkMaker.isKept(path) else { return nil }
    touch(path)
    return path
  }

  /// The kept audio: name, size and last use.
  func kept() -> [(name: String, size: Int, used: TimeInterval)] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
    return names.compactMap { name in
      guard name.hasSuffix(".wav") || (name.hasPrefix(".") && name.hasSuffix(".trace")) else { return nil }
      var status = stat()
      guard lstat(directory + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
      let used = TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1e9
      return (name, Int(status.st_size), used)
    }
  }

  /// The bytes of audio kept.
  package var size: Int { kept().reduce(0) { $0 + $1.size } }

  /// Removes the least recently used audio until what is kept is at most three quarters of the
  /// limit (so pruning is not needed again at the next file), and half-made files abandoned.
  /// `now` is the wall clock's seconds since 1970.
  package func prune(now: TimeInterval) {
    var files = kept()
    for file in files where file.name.hasPrefix(".") && now - file.used > Self.abandonedAfter {
      unlink(directory + "/" + file.name)
    }
    files.removeAll { $0.name.hasPrefix(".") }
    var total = files.reduce(0) { $0 + $1.size }
    guard total > limit else { return }
    for file in files.sorted(by: { ($0.used, $0.name) < ($1.used, $1.name) }) {
      guard total > limit / 4 * 3 else { break }
      if unlink(directory + "/" + file.name) == 0 { total -= file.size }
    }
  }
}
