import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Puts an executable where a test runs it from. A copy written here can fail to start with
/// "Text file busy": while it is open for writing, another test's fork inherits the descriptor
/// and holds it until that child calls exec. A hard link never opens the file for writing; where
/// one cannot be made (another file system), the copy's descriptor is closed on exec and the copy
/// is made under a temporary name, so nothing holds the final path open.
public enum ExecutableCopy {
  public static func place(_ source: String, at target: String) throws {
    if link(source, target) == 0 { return }
    let contents = try Data(contentsOf: URL(fileURLWithPath: source))
    let temporary = target + ".partial"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
    let written = contents.withUnsafeBytes { bytes in write(descriptor, bytes.baseAddress, bytes.count) }
    close(descriptor)
    guard written == contents.count, rename(temporary, target) == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target])
    }
  }
}
