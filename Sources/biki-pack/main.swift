// `biki-pack`: wires the live file system, environment and arguments to the commands.
import BikiHost
import Foundation

let context = PackCommandContext(
  fileSystem: .live, environment: ProcessInfo.processInfo.environment,
  executable: CommandLine.arguments[0], currentDirectory: FileManager.default.currentDirectoryPath)
PackCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), context: context).finish()
