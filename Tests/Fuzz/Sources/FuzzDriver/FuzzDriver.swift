#if canImport(Glibc)
  import Glibc
#endif

/// libFuzzer's own driver, called from each target's `@main`: SwiftPM names an executable's
/// entry point itself, so libFuzzer's `main` is never linked and this takes its place.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// One input to a target; an empty input arrives with no pointer.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs libFuzzer with this process's arguments (corpus directories, -max_total_time=…).
public func runFuzzer(_ target: FuzzTarget) -> Never {
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}

/// The input as bytes.
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
  guard let data, size > 0 else { return [] }
  return Array(UnsafeBufferPointer(start: data, count: size))
}

// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("__lsan_disable") func __lsan_disable()
// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("__lsan_enable") func __lsan_enable()

/// Runs `body` with LeakSanitizer looking away, for what a target loads once before fuzzing and
/// keeps for the process: LeakSanitizer cannot see pointers Swift keeps in an enum's spare bits,
/// so it would report the packs' expression trees as leaked.
public func keptForTheProcess(_ body: () -> Void) {
  __lsan_disable()
  body()
  __lsan_enable()
}

/// The repository's root directory (the targets' sources are four levels below it).
public let repositoryRoot: String = {
  var path = #filePath
  for _ in 0..<5 {
    guard let slash = path.lastIndex(of: "/") else { break }
    path = String(path[..<slash])
  }
  return path
}()
