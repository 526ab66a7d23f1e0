import CGalleyHooks
import FoundationEssentials
import GalleyCLI
import GalleyRender
import GalleySupport
import Glibc

galley_keep_freed_memory()
if CommandLine.arguments.dropFirst().first == SVGProbe.command {
    exit(SVGProbe.child(Array(CommandLine.arguments.dropFirst(2))))
}
SVGProbe.install(executable: "/proc/self/exe")
let hookStatus = Hooks.turnOn(environment: ProcessInfo.processInfo.environment)
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == HookChecks.command {
    exit(HookChecks.run(Array(arguments.dropFirst()), status: hookStatus))
}
exit(Galley.main(arguments: arguments, io: .process()))
