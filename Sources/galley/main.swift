import CGalleyHooks
import FoundationEssentials
import GalleyCLI
import Glibc

galley_keep_freed_memory()
exit(Galley.main(arguments: Array(CommandLine.arguments.dropFirst()), io: .process()))
