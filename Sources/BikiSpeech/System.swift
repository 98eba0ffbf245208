import BikiFiles
import Foundation

/// What speech needs from the machine, as closures, so choosing an engine and making audio are
/// tested without the real programs.
package struct SpeechSystem: Sendable {
  /// Runs a program to its end, its input given, killed after `timeout` seconds: its status
  /// and what it wrote to standard output, or why it could not run.
  package var run:
    @Sendable (_ program: String, _ arguments: [String], _ input: [UInt8], _ timeout: Double) -> Result<
      (status: Int32, output: [UInt8]), SpeechFailure
    >
  /// Starts a program without waiting for it (an audio player); nil, or why it could not start.
  package var start: @Sendable (_ program: String, _ arguments: [String]) -> SpeechFailure?
  /// Whether a regular file is at the path (a link to one counts).
  package var isFile: @Sendable (String) -> Bool
  /// Whether a program this user may run is at the path.
  package var isProgram: @Sendable (String) -> Bool
  /// The names in a directory; none when it is not one.
  package var entries: @Sendable (String) -> [String]

  package init(
    run:
      @escaping @Sendable (String, [String], [UInt8], Double) -> Result<
        (status: Int32, output: [UInt8]), SpeechFailure
      >,
    start: @escaping @Sendable (String, [String]) -> SpeechFailure?, isFile: @escaping @Sendable (String) -> Bool,
    isProgram: @escaping @Sendable (String) -> Bool, entries: @escaping @Sendable (String) -> [String]
  ) {
    self.run = run
    self.start = start
    self.isFile = isFile
    self.isProgram = isProgram
    self.entries = entries
  }

  /// Where a program is: the name itself when it has a slash, else the first executable of that
  /// name on `path` (a PATH value).
  package func find(_ program: String, path: String) -> String? {
    if program.contains("/") { return isProgram(program) ? program : nil }
    for directory in path.split(separator: ":") where directory.hasPrefix("/") {
      let candidate = directory + "/" + program
      if isProgram(candidate) { return candidate }
    }
    return nil
  }

  package static let live = SpeechSystem(
    run: { program, arguments, input, timeout in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = arguments
      let standardInput = Pipe()
      let standardOutput = Pipe()
      process.standardInput = standardInput
      process.standardOutput = standardOutput
      process.standardError = FileHandle.nullDevice
      do {
        try process.run()
      } catch {
        return .failure(SpeechFailure("cannot run \(program): \(error.localizedDescription)"))
      }
      let timer = DispatchSource.makeTimerSource()
      timer.schedule(deadline: .now() + timeout)
      timer.setEventHandler { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
      timer.resume()
      standardInput.fileHandleForWriting.write(Data(input))
      try? standardInput.fileHandleForWriting.close()
      let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      timer.cancel()
      if process.terminationReason == .uncaughtSignal {
        return .failure(
          SpeechFailure(
            process.terminationStatus == SIGKILL
              ? "\(program) did not finish within \(Int(timeout)) s and was stopped"
              : "\(program) ended by signal \(process.terminationStatus)"))
      }
      return .success((process.terminationStatus, Array(output)))
    },
    start: { program, arguments in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = arguments
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      do {
        try process.run()
        return nil
      } catch {
        return SpeechFailure("cannot run \(program): \(error.localizedDescription)")
      }
    },
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

/// Why speech could not be made or played, in words for the learner.
package struct SpeechFailure: Error, Equatable, Sendable, CustomStringConvertible {
  package var description: String

  package init(_ description: String) {
    self.description = description
  }
}
