import BikiCore
import BikiFiles
import Glibc

/// What Biki's caches key an entry by: a file's bytes and the build of Biki that checked them.
/// A file edited in place with its size and modification time kept, or renamed in over a reused
/// inode, misses; so does every entry an older or newer build wrote, since its reading rules may
/// differ.
///
/// A pack is keyed by its SHA-256 digest: packs are shared, and a fast fingerprint can be steered,
/// so someone could hand out two packs of one size and fingerprint, a good one to be checked and
/// cached and a bad one served in its place. A plugin library is keyed by a fast fingerprint: it is
/// code the user chose to run, so a library made to collide with another gains nothing its own code
/// could not do, and hashing a 3 MiB library with SHA-256 would cost every start-up 15 ms.
/// Neither key defends against forged entries, which would need write access to the user's own
/// private cache (0600 in a 0700 directory), where the packs themselves could be edited as easily.
package enum ContentKey {
  /// The key of a pack's bytes (already in the loader's hand).
  package static func ofPack(_ bytes: [UInt8], build: String) -> String {
    "sha256-\(SHA256.hex(bytes)):\(build)"
  }

  /// The key of a plugin library; nil when it cannot be read as a regular file (nothing is then
  /// cached for it).
  package static func ofLibrary(_ path: String, build: String, limit: Int = 256 << 20) -> String? {
    guard let descriptor = try? RegularFile.open(path) else { return nil }
    defer { close(descriptor) }
    // A piece at a time through one buffer: reading a 3 MiB library whole made the kernel
    // find and zero 3 MiB of fresh pages, which cost every start more than the fingerprint.
    var stream = StreamFingerprint()
    var size = 0
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
    defer { chunk.deallocate() }
    while true {
      let filled = RegularFile.read(descriptor, at: size, into: chunk)
      guard filled > 0 else { break }
      size += filled
      guard size <= limit else { return nil }
      stream.add(UnsafeRawBufferPointer(rebasing: chunk[..<filled]))
    }
    return "\(size):\(Fingerprint.text(stream.value)):\(build)"
  }
}

/// The identity of a build of Biki: the GNU build ID its linker wrote into the executable (a hash
/// of the linked code), read from the ELF notes; without one, a fingerprint of the whole file.
package enum BuildIdentity {
  package static func of(executable: String) -> String {
    guard let descriptor = try? RegularFile.open(executable) else { return "unknown" }
    defer { close(descriptor) }
    // The notes sit just after the headers: the first 64 KiB hold them, and reading them costs
    // a start-up nothing to speak of (the whole executable would be megabytes).
    if let id = gnuBuildID(RegularFile.read(descriptor, at: 0, count: 64 << 10)) { return "build-" + id }
    guard let bytes = try? RegularFile.readAll(descriptor, limit: 1 << 30) else { return "unknown" }
    return "file-" + Fingerprint.text(Fingerprint.of(bytes))
  }

  /// The NT_GNU_BUILD_ID note of a 64-bit little-endian ELF file, in hex; nil for anything else.
  static func gnuBuildID(_ elf: [UInt8]) -> String? {
    func integer(_ offset: Int, _ size: Int) -> Int? {
      guard offset >= 0, size <= 8, offset <= elf.count - size else { return nil }
      var value = 0
      for index in (0..<size).reversed() { value = value << 8 | Int(elf[offset + index]) }
      return value
    }
    // "\x7fELF", 64-bit, little-endian.
    guard elf.count >= 64, elf[0..<4].elementsEqual([0x7F, 0x45, 0x4C, 0x46]), elf[4] == 2, elf[5] == 1,
      let tableOffset = integer(0x20, 8), let entrySize = integer(0x36, 2), let entries = integer(0x38, 2),
      entrySize >= 56
    else { return nil }
    for entry in 0..<entries {
      let header = tableOffset + entry * entrySize
      // PT_NOTE segments hold the notes.
      guard let type = integer(header, 4) else { return nil }
      guard type == 4, let start = integer(header + 8, 8), let size = integer(header + 32, 8) else { continue }
      var note = start
      let end = min(start + size, elf.count)
      while note + 12 <= end, let nameSize = integer(note, 4), let descriptionSize = integer(note + 4, 4),
        let noteType = integer(note + 8, 4)
      {
        let name = note + 12
        let description = name + (nameSize + 3) / 4 * 4
        let next = description + (descriptionSize + 3) / 4 * 4
        guard next <= end else { break }
        if noteType == 3, nameSize == 4, elf[name..<(name + 4)].elementsEqual(Array("GNU\0".utf8)), descriptionSize > 0
        {
          return elf[description..<(description + descriptionSize)].map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
          }.joined()
        }
        note = next
      }
    }
    return nil
  }
}
