// `biki`: wires the live environment and arguments to the commands and prints what they return.
BikiCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: .live).finish()
