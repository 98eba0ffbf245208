// `biki`: wires the real arguments to the commands and prints what they return.
BikiCommand.run(arguments: Array(CommandLine.arguments.dropFirst())).finish()
