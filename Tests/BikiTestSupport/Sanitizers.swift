#if canImport(Glibc)
  import Glibc
#endif

/// Whether the tests run under a sanitizer (`swift test --sanitize=thread`), for the few
/// tests whose subject a sanitizer's runtime changes.
public enum Sanitizers {
  /// ThreadSanitizer's runtime is linked into this process.
  public static let threadSanitizerIsActive = dlsym(nil, "__tsan_init") != nil

  /// Why a test is skipped under ThreadSanitizer when it needs a plugin to die by its signal:
  /// the Swift runtime's crash handler forks a backtracer from the signal handler, and
  /// ThreadSanitizer's fork interception aborts there with its own exit status instead.
  public static let crashesAreRenamed =
    "under ThreadSanitizer a worker's crash ends with the sanitizer's exit status, not the plugin's signal"

  /// Why a test is skipped under ThreadSanitizer when it loads a Swift plugin: built with the
  /// sanitizer, the plugin needs runtime symbols the executable does not export to libraries it
  /// opens.
  public static let swiftPluginsCannotLoad = "under ThreadSanitizer a Swift plugin cannot be loaded by dlopen"

  /// Why a test is skipped under ThreadSanitizer when a host without the sanitizer (a plain C
  /// program) loads the samples from the build directory: they are instrumented too.
  public static let samplesAreInstrumented =
    "under ThreadSanitizer the built samples are instrumented and need its runtime, which a plain C host lacks"
}
