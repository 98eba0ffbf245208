import BikiWorkerSupport
import Glibc

/// A running worker process, as the host uses it: a struct of closures, so tests can stand in
/// for a process and only `WorkerSpawner.live` starts real ones.
package struct WorkerProcess: Sendable {
  enum ReadResult: Sendable, Equatable {
    case bytes([UInt8])
    case closed
    case timedOut
  }

  /// Writes all the bytes; false if the worker is gone (its pipe closed).
  var write: @Sendable ([UInt8]) -> Bool
  /// Reads what has arrived, at least one byte and at most `maximum`, waiting until `deadline`
  /// (seconds on the host's clock) for the first. Answers to a batch come one frame per
  /// question, so one read takes in as many as are waiting. `gathering`: more are on their way,
  /// so when none has arrived yet it is worth a moment's wait before blocking.
  var read: @Sendable (_ maximum: Int, _ deadline: Double, _ gathering: Bool) -> ReadResult
  /// Kills the worker and every process in its process group (SIGKILL), and reaps it; says how
  /// it ended ("crashed with signal 11 (SIGSEGV)").
  var stop: @Sendable () -> String

  init(
    write: @Sendable @escaping ([UInt8]) -> Bool, read: @Sendable @escaping (Int, Double, Bool) -> ReadResult,
    stop: @Sendable @escaping () -> String
  ) {
    self.write = write
    self.read = read
    self.stop = stop
  }
}

package struct WorkerSpawner: Sendable {
  var spawn: @Sendable (_ pluginPath: String) -> Result<WorkerProcess, PluginError>

  package init(spawn: @Sendable @escaping (String) -> Result<WorkerProcess, PluginError>) {
    self.spawn = spawn
  }

  /// Starts `executable --plugin-worker PATH` with pipes for stdin and stdout; the worker's
  /// stderr (a crash report, say) goes to `logPath`, never into the caller's streams.
  ///
  /// The worker leads a process group of its own, and whatever a plugin starts (a process it
  /// forks) joins it: `stop` kills the whole group, and the worker itself kills its group when
  /// its standard input hangs up, which happens when this process ends however it ends (see
  /// `biki_worker_watch_host`). So nothing a plugin starts outlives the host that asked for it.
  package static func live(executable: String, logPath: String = "/dev/null", now: @Sendable @escaping () -> Double)
    -> WorkerSpawner
  {
    WorkerSpawner { pluginPath in
      var toWorker: [Int32] = [0, 0]
      var fromWorker: [Int32] = [0, 0]
      // Close-on-exec from the start, so no other worker (started on another thread meanwhile)
      // inherits these ends and keeps a pipe open past its owner: the worker's standard input
      // must hang up when this process lets go of it. The child's own stdin and stdout are
      // dup2'd copies, which stay open.
      guard biki_pipe_cloexec(&toWorker) == 0 else {
        return .failure(
          PluginError(
            path: pluginPath, kind: .workerFailed, reason: "cannot create pipes: \(String(cString: strerror(errno)))"))
      }
      guard biki_pipe_cloexec(&fromWorker) == 0 else {
        let reason = String(cString: strerror(errno))
        for descriptor in toWorker { close(descriptor) }
        return .failure(PluginError(path: pluginPath, kind: .workerFailed, reason: "cannot create pipes: \(reason)"))
      }
      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      // A process group of its own (its id is the worker's pid), set before the worker runs.
      posix_spawnattr_setpgroup(&attributes, 0)
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_adddup2(&actions, toWorker[0], 0)
      posix_spawn_file_actions_adddup2(&actions, fromWorker[1], 1)
      posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0o600)
      for descriptor in toWorker + fromWorker { posix_spawn_file_actions_addclose(&actions, descriptor) }
      let arguments = [executable, PluginWorker.flag, pluginPath]
      var pid: pid_t = 0
      let cArguments = arguments.map { strdup($0) } + [nil]
      defer { for argument in cArguments { free(argument) } }
      let status = posix_spawn(&pid, executable, &actions, &attributes, cArguments, environ)
      close(toWorker[0])
      close(fromWorker[1])
      guard status == 0 else {
        close(toWorker[1])
        close(fromWorker[0])
        return .failure(
          PluginError(
            path: pluginPath, kind: .workerFailed,
            reason: "cannot start the worker \(executable): \(String(cString: strerror(status)))"))
      }
      let input = toWorker[1]
      let output = fromWorker[0]
      let child = pid
      return .success(
        WorkerProcess(
          write: { bytes in
            var written = 0
            while written < bytes.count {
              let count = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress! + written, bytes.count - written) }
              if count < 0 && errno == EINTR { continue }
              guard count > 0 else { return false }
              written += count
            }
            return true
          },
          read: { maximum, deadline, gathering in
            var paused = !gathering
            while true {
              let remaining = deadline - now()
              guard remaining > 0 else { return .timedOut }
              var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
              // A worker making a batch sends a frame every few microseconds. Woken for each, this
              // thread and the worker spend more on switching than on questions; after a short
              // pause, one read takes in dozens.
              if !paused {
                paused = true
                if poll(&descriptor, 1, 0) == 0 {
                  var pause = timespec(tv_sec: 0, tv_nsec: WorkerSpawner.gatheringPause)
                  nanosleep(&pause, nil)
                }
              }
              let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 60_000).rounded(.up)))
              if ready < 0 && errno == EINTR { continue }
              if ready == 0 { continue }
              var failed = false
              // Uninitialised capacity: zeroing a large buffer for every read would cost more than
              // the read when a single small answer is waiting.
              let bytes = [UInt8](unsafeUninitializedCapacity: max(1, maximum)) { buffer, count in
                let got = Glibc.read(output, buffer.baseAddress, buffer.count)
                count = max(got, 0)
                failed = got < 0 && errno == EINTR
              }
              if failed { continue }
              guard !bytes.isEmpty else { return .closed }
              return .bytes(bytes)
            }
          },
          stop: {
            close(input)
            close(output)
            // The group first, while the worker is not yet reaped: its group id cannot have been
            // reused. Whatever the plugin forked dies with it.
            if kill(-child, SIGKILL) != 0 { kill(child, SIGKILL) }
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            return WorkerSpawner.describeExit(status)
          }))
    }
  }

  /// Nanoseconds a read waits for a batch's frames to gather before it blocks for the next.
  static let gatheringPause = 30_000

  /// "crashed with signal 11 (SIGSEGV)", "exited with status 3".
  static func describeExit(_ status: Int32) -> String {
    let signal = status & 0x7F
    if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
    let names: [Int32: String] = [
      SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL",
    ]
    return "crashed with signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
  }
}
