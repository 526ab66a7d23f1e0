import FoundationEssentials
import GalleyCLI
import Glibc

exit(Galley.main(arguments: Array(CommandLine.arguments.dropFirst()), io: .process()))
