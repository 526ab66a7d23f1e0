import CGalleyHooks
import FoundationEssentials
import GalleyCLI
import GalleySupport
import Glibc

galley_keep_freed_memory()
let hookStatus = Hooks.turnOn(environment: ProcessInfo.processInfo.environment)
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == HookChecks.command {
    exit(HookChecks.run(Array(arguments.dropFirst()), status: hookStatus))
}
exit(Galley.main(arguments: arguments, io: .process()))
