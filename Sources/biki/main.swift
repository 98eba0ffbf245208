// `biki`: wires the real standard streams and arguments to the commands.
import Foundation

let outcome = BikiCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
if !outcome.standardOutput.isEmpty {
  FileHandle.standardOutput.write(Data((outcome.standardOutput.joined(separator: "\n") + "\n").utf8))
}
if !outcome.standardError.isEmpty {
  FileHandle.standardError.write(Data((outcome.standardError.joined(separator: "\n") + "\n").utf8))
}
exit(outcome.status)
