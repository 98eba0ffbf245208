import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Puts an executable where a test runs it from. A file written here can fail to start with
/// "Text file busy": while it is open for writing, another test's fork inherits the descriptor
/// and holds it until that child calls exec. A hard link never opens the file for writing; where
/// one cannot be made (another file system), and for a script, the descriptor is closed on exec
/// and the file is written under a temporary name, so nothing holds the final path open.
public enum ExecutableCopy {
  public static func place(_ source: String, at target: String) throws {
    if link(source, target) == 0 { return }
    try write(Array(try Data(contentsOf: URL(fileURLWithPath: source))), at: target)
  }

  /// A shell script at `path` that runs `body`.
  public static func script(_ body: String, at path: String) throws {
    try write(Array("#!/bin/sh\n\(body)\n".utf8), at: path)
  }

  private static func write(_ contents: [UInt8], at target: String) throws {
    let temporary = target + ".partial"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
    let written = contents.withUnsafeBytes { bytes in Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
    close(descriptor)
    guard written == contents.count, rename(temporary, target) == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target])
    }
  }
}
