// `biki-pack`: wires the live file system, environment and arguments to the commands.
import BikiHost
import BikiPlugins
import Foundation

// A plugin worker is this same executable, started by the host with the worker flag.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == PluginWorker.flag {
  exit(PluginWorker.run(path: CommandLine.arguments[2]))
}
signal(SIGPIPE, SIG_IGN)

let context = PackCommandContext(
  fileSystem: .live, environment: ProcessInfo.processInfo.environment,
  executable: TopicRegistry.ownExecutable, currentDirectory: FileManager.default.currentDirectoryPath)
PackCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), context: context).finish()
