/// How Biki's caches name what they hold: a file's path and its content key (see `ContentKey`:
/// its bytes and the build that read them), so a changed file, or another build of Biki, misses.
enum CacheKey {
  static func of(_ path: String, stamp: String?) -> String? {
    stamp.map { "\(path)|\($0)" }
  }
}
