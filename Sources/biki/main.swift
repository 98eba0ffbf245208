// `biki`: wires the live environment and arguments to the commands and prints what they return.
import BikiPlugins
import Glibc

// A plugin worker is this same executable, started by the host with the worker flag.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == PluginWorker.flag {
  exit(PluginWorker.run(path: CommandLine.arguments[2]))
}
signal(SIGPIPE, SIG_IGN)
BikiCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: .live).finish()
