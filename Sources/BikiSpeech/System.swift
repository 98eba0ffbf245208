import BikiFiles
import BikiSpeechSupport
import BikiSync
import Foundation

/// What speech needs from the machine, as closures, so choosing an engine and making audio are
/// tested without the real programs.
package struct SpeechSystem: Sendable {
  /// Runs a program to its end, its input given, killed after `timeout` seconds or as soon as
  /// `cancellation` is cancelled: its status and what it wrote to standard output, or why it
  /// could not run.
  var run:
    @Sendable (
      _ program: String, _ arguments: [String], _ input: [UInt8], _ timeout: Double, _ cancellation: Cancellation?
    ) -> Result<(status: Int32, output: [UInt8]), SpeechFailure>
  /// Starts a program that plays sound and watches it for `watch` seconds: nil when it is still
  /// playing then, or ended well; else why it could not play, in its own words. A player with
  /// no sound device (over SSH, in a container) fails at once, and espeak-ng, which plays
  /// itself, even ends with status 0 after saying so on standard error.
  var start: @Sendable (_ program: String, _ arguments: [String], _ watch: Double) -> SpeechFailure?
  /// Whether a regular file is at the path (a link to one counts).
  var isFile: @Sendable (String) -> Bool
  /// Whether a program this user may run is at the path.
  var isProgram: @Sendable (String) -> Bool
  /// The names in a directory; none when it is not one.
  var entries: @Sendable (String) -> [String]
  /// The wall clock, in seconds since 1970: how old a half-made file is.
  var now: @Sendable () -> Double

  init(
    run:
      @escaping @Sendable (String, [String], [UInt8], Double, Cancellation?) -> Result<
        (status: Int32, output: [UInt8]), SpeechFailure
      >,
    start: @escaping @Sendable (String, [String], Double) -> SpeechFailure?,
    isFile: @escaping @Sendable (String) -> Bool,
    isProgram: @escaping @Sendable (String) -> Bool, entries: @escaping @Sendable (String) -> [String],
    now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
  ) {
    self.now = now
    self.run = run
    self.start = start
    self.isFile = isFile
    self.isProgram = isProgram
    self.entries = entries
  }

  /// Where a program is: the name itself when it has a slash, else the first executable of that
  /// name on `path` (a PATH value).
  func find(_ program: String, path: String) -> String? {
    if program.contains("/") { return isProgram(program) ? program : nil }
    for directory in path.split(separator: ":") where directory.hasPrefix("/") {
      let candidate = directory + "/" + program
      if isProgram(candidate) { return candidate }
    }
    return nil
  }

  package static let live = SpeechSystem(
    run: { program, arguments, input, timeout, cancellation in
      runToEnd(program, arguments, input: input, timeout: timeout, cancellation: cancellation)
    },
    start: { program, arguments, watch in startWatched(program, arguments, watch: watch) },
    isFile: { path in
      var status = stat()
      return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    },
    isProgram: { path in
      var status = stat()
      return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    },
    entries: { path in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] })
}

/// Starts `program` with its standard error in an unlinked temporary file, and watches it for
/// `watch` seconds (`SpeechSystem.start`). Foundation's `Process` reaps it when it ends later.
private func startWatched(_ program: String, _ arguments: [String], watch: Double) -> SpeechFailure? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = FileHandle.nullDevice
  let errors = unlinkedTemporaryFile()
  defer { if errors >= 0 { close(errors) } }
  process.standardError =
    errors >= 0 ? FileHandle(fileDescriptor: errors, closeOnDealloc: false) : FileHandle.nullDevice
  do {
    try process.run()
  } catch {
    return SpeechFailure("cannot run \(program): \(error.localizedDescription)")
  }
  let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(watch, 0) * 1e9)
  while process.isRunning, DispatchTime.now().uptimeNanoseconds < deadline { usleep(5_000) }
  guard !process.isRunning else { return nil }
  let said = errors >= 0 ? RegularFile.read(errors, at: 0, count: 64 << 10) : []
  let failed =
    process.terminationReason == .uncaughtSignal || process.terminationStatus != 0
    || String(decoding: said, as: UTF8.self).lowercased().contains("error")
  guard failed else { return nil }
  let name = program.split(separator: "/").last.map(String.init) ?? program
  let lastLine = String(decoding: said, as: UTF8.self).split(whereSeparator: \.isNewline).last.map {
    String($0.trimmingCharacters(in: .whitespaces).prefix(200))
  }
  let how =
    process.terminationReason == .uncaughtSignal
    ? "was ended by signal \(process.terminationStatus)" : "ended with status \(process.terminationStatus)"
  return SpeechFailure(
    "\(name) cannot play sound here: " + (lastLine.map { "it says \"\($0)\"" } ?? "it \(how)"), cannotPlay: true)
}

/// A temporary file already unlinked, closed on exec; -1 when none can be made.
private func unlinkedTemporaryFile() -> Int32 {
  var template = Array((NSTemporaryDirectory() + "biki-run-XXXXXX").utf8CString)
  let descriptor = mkstemp(&template)
  if descriptor >= 0 {
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    // The name mkstemp filled in, up to its terminating zero, unlinked by those bytes.
    template.withUnsafeBufferPointer { name in _ = name.baseAddress.map { unlink($0) } }
  }
  return descriptor
}

/// Why speech could not be made or played, in words for the learner.
package struct SpeechFailure: Error, Equatable, Sendable, CustomStringConvertible {
  package var description: String
  /// Whether nothing can be heard here at all (no sound device), not just this utterance: the
  /// quiz then shows its questions instead of trying each.
  package var cannotPlay = false

  init(_ description: String, cannotPlay: Bool = false) {
    self.description = description
    self.cannotPlay = cannotPlay
  }
}

/// Stops work that is no longer wanted: audio made ahead for a session that ended, or anything
/// still running when `biki serve` or `biki quiz` ends.
package final class Cancellation: Sendable {
  private let cancelled = Locked(false)

  package init() {}

  package func cancel() { cancelled.withLock { $0 = true } }

  package var isCancelled: Bool { cancelled.withLock { $0 } }
}

/// Runs a program in a process group of its own, its input and output in unlinked temporary
/// files (no pipes to fill or hold open), and waits for it at most `timeout` seconds, or until
/// `cancellation` is cancelled: then the whole group is killed, so a child it left behind is
/// never waited for. Whatever it left running when it ended is killed too.
private func runToEnd(
  _ program: String, _ arguments: [String], input: [UInt8], timeout: Double, cancellation: Cancellation?
) -> Result<
  (status: Int32, output: [UInt8]), SpeechFailure
> {
  let (inputFile, outputFile) = (unlinkedTemporaryFile(), unlinkedTemporaryFile())
  defer {
    if inputFile >= 0 { close(inputFile) }
    if outputFile >= 0 { close(outputFile) }
  }
  guard inputFile >= 0, outputFile >= 0, WholeFile.write(inputFile, input) == nil, lseek(inputFile, 0, SEEK_SET) == 0
  else {
    return .failure(SpeechFailure("cannot run \(program): no temporary file: \(String(cString: strerror(errno)))"))
  }
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  posix_spawnattr_setpgroup(&attributes, 0)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, inputFile, 0)
  posix_spawn_file_actions_adddup2(&actions, outputFile, 1)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  var pid: pid_t = 0
  let cArguments = ([program] + arguments).map { strdup($0) } + [nil]
  defer { for argument in cArguments { free(argument) } }
  let spawned = posix_spawn(&pid, program, &actions, &attributes, cArguments, environ)
  guard spawned == 0 else {
    return .failure(SpeechFailure("cannot run \(program): \(String(cString: strerror(spawned)))"))
  }
  let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(timeout, 0) * 1e9)
  var status: Int32 = 0
  RunningGroups.add(pid)
  defer { RunningGroups.remove(pid) }
  var stopped: String?
  while true {
    let waited = waitpid(pid, &status, WNOHANG)
    if waited == pid || (waited < 0 && errno != EINTR) { break }
    if cancellation?.isCancelled == true {
      stopped = "\(program) was stopped: its audio is no longer wanted"
    } else if DispatchTime.now().uptimeNanoseconds >= deadline {
      stopped = "\(program) did not finish within \(Int(timeout)) s and was stopped"
    }
    if stopped != nil {
      kill(-pid, SIGKILL)
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      break
    }
    usleep(2_000)
  }
  kill(-pid, SIGKILL)
  if let stopped { return .failure(SpeechFailure(stopped)) }
  let signal = status & 0x7F
  if signal != 0 { return .failure(SpeechFailure("\(program) ended by signal \(signal)")) }
  return .success(((status >> 8) & 0xFF, RegularFile.read(outputFile, at: 0, count: 1 << 20)))
}

/// The process groups of the programs running now, so that whatever ends Biki (a signal, the
/// client leaving) can end them too: audio is never made for a process that is gone.
package enum RunningGroups {
  static func add(_ group: pid_t) { _ = biki_speech_group_add(group) }
  static func remove(_ group: pid_t) { biki_speech_group_remove(group) }

  /// Kills every group running now.
  package static func killAll() { biki_speech_groups_kill() }

  /// From now on SIGTERM, SIGINT and SIGHUP kill every group running, then end this process as
  /// they would have: Ctrl-C in a quiz, an editor stopping its server.
  package static func endWithThisProcess() { biki_speech_groups_end_with_process() }
}
