/*
 * Under ThreadSanitizer (`swift test --sanitize=thread`), the sanitizer would catch a plugin's
 * SIGSEGV or SIGABRT in its worker process and exit with its own status, hiding the signal the
 * host names in its error. Leave fatal signals to the kernel.
 *
 * The runtime calls this while it starts, before it can handle instrumented code, so it is C
 * and excluded from instrumentation. Without ThreadSanitizer nothing calls it.
 */
#if defined(__clang__)
__attribute__((no_sanitize("thread"), used, visibility("default")))
#endif
const char *__tsan_default_options(void) {
  return "handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0:handle_sigill=0";
}
