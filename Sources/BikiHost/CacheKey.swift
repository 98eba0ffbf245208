import BikiCore

/// How Biki's caches name what they hold: a file's path and stamp (size, modification time,
/// inode) and Biki's version, so a changed file, or another Biki, misses.
enum CacheKey {
  static func of(_ path: String, stamp: String?) -> String? {
    stamp.map { "\(path)|\($0)|\(BikiVersion.current)" }
  }
}
